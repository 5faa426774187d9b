package io.dlock.inmemory.sim.benchmarks;

import io.dlock.MutexAlgorithm;
import io.dlock.inmemory.sim.DelayModel;
import io.dlock.inmemory.sim.Simulation;
import io.dlock.inmemory.sim.SimulationResult;
import io.dlock.inmemory.sim.Workload;
import io.dlock.protocol.AlgorithmDefinitions;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Speed of the deterministic simulator: simulated network messages per second of wall-clock time,
 * for one algorithm at N nodes (Ricart-Agrawala at N = 8, 64 and 512 by default, to show whether the cost per message stays flat as N grows).
 *
 * <p>One operation is one whole seeded run of {@code entries} critical-section entries shared by all
 * nodes (delays uniform in 1..10, think time 0..20, hold time 0..5, messages not encoded unless
 * {@code encode=true}); each operation uses the next seed. JMH reports the operations per second
 * and, through the auxiliary counters, {@code messages} and {@code events} per second: the
 * {@code messages} line is the figure of merit.
 *
 * <p>Run: {@code mvn -B -pl impl-inmemory -Pjmh package -DskipTests} then
 * {@code java -jar impl-inmemory/target/benchmarks.jar SimulatorBenchmark -wi 2 -i 3 -f 1 -r 2s -w 2s};
 * {@code -p algorithm=lamport} or {@code -p nodes=16} select other cases.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class SimulatorBenchmark {

    /** Number of simulated nodes. */
    @Param({"8", "64", "512"})
    public int nodes;

    /** Configuration name of the algorithm, from the registry. */
    @Param({"ricart-agrawala"})
    public String algorithm;

    /** Whether every message goes through the algorithm's codec. */
    @Param({"false"})
    public boolean encode;

    /** Critical-section entries per run, shared by all nodes. */
    @Param({"640"})
    public int entries;

    private Simulation template;
    private long seed;

    /** Counters JMH reports as rates next to the operation rate. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Simulated {
        /** Network messages simulated. */
        public long messages;
        /** Events processed. */
        public long events;

        /** Resets the counters before each iteration. */
        @Setup(Level.Iteration)
        public void reset() {
            messages = 0;
            events = 0;
        }
    }

    /** Builds the run template once per trial. */
    @Setup(Level.Trial)
    public void setUp() {
        template = Simulation.of(AlgorithmDefinitions.mutex(MutexAlgorithm.fromConfigName(algorithm)))
                .nodes(nodes)
                .delay(DelayModel.uniform(1, 10))
                .workload(Workload.total(entries).think(0, 20).hold(0, 5))
                .encodeMessages(encode);
    }

    /** One whole simulated run with the next seed. */
    @Benchmark
    public long run(Simulated simulated) {
        SimulationResult result = template.seed(seed++).run();
        if (!result.ok()) {
            throw new IllegalStateException(result.describeFailure());
        }
        simulated.messages += result.messages();
        simulated.events += result.events();
        return result.traceHash();
    }
}
