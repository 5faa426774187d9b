package io.dlock.inmemory.benchmarks;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The runtime's hot path: one thread locks and unlocks one lock of node 0, nobody else asks for it, on
 * the real-time in-memory network with no delay. One operation is a {@code lock()} and an
 * {@code unlock()}: the local bookkeeping, the event-loop hops and the algorithm's messages of an
 * uncontended entry. This is the figure the metrics must not make slower.
 *
 * <p>Run: {@code mvn -B -pl impl-inmemory -am -Pjmh package -DskipTests} then
 * {@code java -jar impl-inmemory/target/benchmarks.jar UncontendedLockBenchmark}; {@code -p nodes=3} or
 * {@code -p algorithm=raymond} select other cases.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class UncontendedLockBenchmark {

    /** Nodes in the cluster; only node 0 locks. */
    @Param({"1"})
    public int nodes;

    /** Configuration name of the algorithm, from the registry. */
    @Param({"centralized", "suzuki-kasami"})
    public String algorithm;

    private final List<LockService> services = new ArrayList<>();
    private DistributedLock lock;

    /** Starts the cluster and waits until every node sees all of them. */
    @Setup(Level.Trial)
    public void start() throws InterruptedException {
        String cluster = "bench-" + UUID.randomUUID();
        for (int i = 0; i < nodes; i++) {
            services.add(LockService.start(DlockConfig.builder().mutex(MutexAlgorithm.fromConfigName(algorithm))
                    .cluster(cluster).nodeId(i).build()));
        }
        while (services.stream().anyMatch(s -> s.view().size() != nodes)) {
            Thread.sleep(10);
        }
        lock = services.get(0).lock("bench");
    }

    /** Closes every node. */
    @TearDown(Level.Trial)
    public void stop() {
        services.forEach(LockService::close);
    }

    /** One uncontended critical-section entry. */
    @Benchmark
    public void lockUnlock() {
        lock.lock();
        lock.unlock();
    }
}
