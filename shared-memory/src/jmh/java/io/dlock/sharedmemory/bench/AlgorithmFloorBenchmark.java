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
 * count, no parking: the lowest cost any {@code PetersonLock} could reach, since its three volatile stores
 * ({@code flag[0] = 1}, {@code turn = 0}, {@code flag[0] = 0}) are each a full fence on x86, where
 * {@code ReentrantLock} pays for two (a compare-and-set and a volatile store). Not a lock anyone should use:
 * it is a measurement.
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
     * Peterson's entry and exit with the modes {@code PetersonLock} uses: every store volatile.
     *
     * @return the counter, so that the increment is not dead code
     */
    @Benchmark
    public int petersonAlgorithmOnly() {
        flag.set(0, 1);
        return turnCriticalSectionExit();
    }

    /**
     * The same with a release store for {@code flag = 1}: one fence less, tried in issue 19 and not kept, since
     * its mutual exclusion rests on a step the Java memory model does not promise (PetersonLock's notes).
     *
     * @return the counter, so that the increment is not dead code
     */
    @Benchmark
    public int petersonTwoFences() {
        flag.setRelease(0, 1);
        return turnCriticalSectionExit();
    }

    /** The rest of Peterson's entry (volatile turn store, the wait), the critical section and the exit. */
    private int turnCriticalSectionExit() {
        turn.set(0);
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
