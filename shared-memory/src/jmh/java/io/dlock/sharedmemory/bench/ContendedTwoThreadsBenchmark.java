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
 * 2 threads hammer one lock (lock, increment, unlock, repeat): throughput of the whole group, in operations per
 * microsecond. Filter and bakery locks have capacity 2. A new lock per iteration, so that JMH's worker threads
 * always find free slots.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(2)
public class ContendedTwoThreadsBenchmark {

    @Param({"PetersonLock", "FilterLock", "BakeryLock", "ReentrantLock", "ReentrantLock-fair", "synchronized"})
    public String lock;

    private LockUnderTest underTest;

    @Setup(Level.Iteration)
    public void setUp() {
        underTest = LockUnderTest.create(lock, 2);
    }

    @Benchmark
    public int lockIncrementUnlock() {
        return underTest.incrementUnderLock();
    }
}
