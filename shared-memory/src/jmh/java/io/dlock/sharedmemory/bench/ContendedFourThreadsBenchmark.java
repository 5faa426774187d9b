package io.dlock.sharedmemory.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * 4 threads hammer one lock (lock, increment, unlock, repeat): throughput of the whole group, in operations per
 * microsecond. Filter and bakery locks have capacity 4. A new lock per iteration, so that JMH's worker threads
 * always find free slots. Peterson's lock is for two threads only.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(4)
public class ContendedFourThreadsBenchmark {

    /** The lock under test, by its {@link LockUnderTest} name. */
    @Param({"FilterLock", "BakeryLock", "ReentrantLock", "ReentrantLock-fair", "synchronized"})
    public String lock;

    private LockUnderTest underTest;

    /** A fresh lock (and counter) for every iteration. */
    @Setup(Level.Iteration)
    public void setUp() {
        underTest = LockUnderTest.create(lock, 4);
    }

    /** @return the counter, so that the increment is not dead code */
    @Benchmark
    public int lockIncrementUnlock() {
        return underTest.incrementUnderLock();
    }
}
