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
 * One thread: lock, increment, unlock. Filter and bakery locks are built with capacity 2 (the smallest), so this
 * is their best case; their cost grows with capacity (filter O(n^2), bakery O(n) reads).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
public class UncontendedBenchmark {

    /** The lock under test, by its {@link LockUnderTest} name. */
    @Param({"PetersonLock", "FilterLock", "BakeryLock", "ReentrantLock", "ReentrantLock-fair", "synchronized"})
    public String lock;

    private LockUnderTest underTest;

    /** A fresh lock (and counter) for every iteration. */
    @Setup(Level.Iteration)
    public void setUp() {
        underTest = LockUnderTest.create(lock, 2);
    }

    /** @return the counter, so that the increment is not dead code */
    @Benchmark
    public int lockIncrementUnlock() {
        return underTest.incrementUnderLock();
    }
}
