package io.dlock.inmemory.benchmarks;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The runtime's local wake-up path: two threads of one node (a one-node cluster, the in-memory network with
 * no delay) lock and unlock the same lock in a loop. With {@code dlock.lock.local-handoff} = 0 every release
 * goes back to the algorithm and the node asks again for the thread that waits, so each operation is one
 * hand-off: a release, a request granted on this node, and the wake-up of the parked waiter. The average time
 * per operation is reported per thread; the time of one hand-off is half of it (the two threads take turns).
 *
 * <p>Run: {@code mvn -B -pl impl-inmemory -am -Pjmh package -DskipTests} then
 * {@code java -jar impl-inmemory/target/benchmarks.jar LocalHandoffBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Threads(2)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class LocalHandoffBenchmark {

    /** Configuration name of the algorithm, from the registry. */
    @Param({"centralized", "suzuki-kasami"})
    public String algorithm;

    private LockService service;
    private DistributedLock lock;

    /** Starts a one-node cluster. */
    @Setup(Level.Trial)
    public void start() throws InterruptedException {
        service = LockService.start(DlockConfig.builder().mutex(MutexAlgorithm.fromConfigName(algorithm))
                .cluster("bench-" + UUID.randomUUID()).nodeId(0).build());
        while (service.view().size() != 1) {
            Thread.sleep(10);
        }
        lock = service.lock("bench");
    }

    /** Closes the node. */
    @TearDown(Level.Trial)
    public void stop() {
        service.close();
    }

    /** One entry, taken in turn with the other thread. */
    @Benchmark
    public void lockUnlock() {
        lock.lock();
        lock.unlock();
    }
}
