package io.dlock.sharedmemory.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.ReentrantLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * The experimental control for {@link UncontendedBenchmark}: Peterson's entry and exit alone, inlined, for one
 * thread that is always process 0, against {@code ReentrantLock} in the same run. No slots, no owner, no hold
 * count, no parking: the lowest cost any {@code PetersonLock} could reach with the same memory modes. With the
 * modes {@code PetersonLock} uses ({@code flag[0] = 1} release, {@code turn} swapped, {@code flag[0] = 0}
 * volatile) it pays two full fences on x86, as {@code ReentrantLock} does (a compare-and-set and a volatile
 * store); with every store volatile, three. Not a lock anyone should use: it is a measurement.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
public class AlgorithmFloorBenchmark {

    private final AtomicIntegerArray flag = new AtomicIntegerArray(2);
    private final AtomicInteger turn = new AtomicInteger();
    private final ReentrantLock reentrantLock = new ReentrantLock();
    private int counter;

    /**
     * Peterson's entry and exit with the modes {@code PetersonLock} uses: a release {@code flag[0] = 1}, a swap
     * of {@code turn} (PetersonLock's notes: the swap's read is what publishes the flag store), a volatile exit.
     *
     * @return the counter, so that the increment is not dead code
     */
    @Benchmark
    public int petersonAlgorithmOnly() {
        flag.setRelease(0, 1);
        turn.getAndSet(0);
        return waitCriticalSectionExit();
    }

    /**
     * The same with every store volatile ({@code turn} written, not swapped): the modes of the first issue-19
     * version, one full fence more.
     *
     * @return the counter, so that the increment is not dead code
     */
    @Benchmark
    public int petersonThreeFences() {
        flag.set(0, 1);
        turn.set(0);
        return waitCriticalSectionExit();
    }

    /** The rest of Peterson's entry (the wait), the critical section and the exit. */
    private int waitCriticalSectionExit() {
        while (flag.get(1) == 1 && turn.get() == 0) {
            Thread.onSpinWait(); // never taken: there is no process 1
        }
        counter++;
        flag.set(0, 0);
        return counter;
    }

    /** @return the counter, so that the increment is not dead code */
    @Benchmark
    public int reentrantLock() {
        reentrantLock.lock();
        try {
            counter++;
        } finally {
            reentrantLock.unlock();
        }
        return counter;
    }
}
