package io.dlock.sharedmemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stress: many threads increment a plain, unsynchronized counter under each lock; the final count must be exact.
 * Each thread mixes every way of acquiring (lock, lockInterruptibly, timed tryLock with short timeouts that often
 * expire, one-look tryLock, reentrant re-acquisition), so the give-up paths run under contention too. The mix is
 * drawn from a seeded random source per thread. Several rounds re-use the same lock with new threads, which must
 * unregister (or terminate) to make room.
 */
@Timeout(120)
class MutualExclusionStressTest {

    private static final int ROUNDS = 3;
    private static final int INCREMENTS_PER_THREAD = Integer.getInteger("stress.increments", 20_000);

    static Stream<Arguments> configurations() {
        return Stream.of(
                Arguments.of(Named.of("PetersonLock, 2 threads", (IntFunction<SharedMemoryLock>) n -> new PetersonLock()), 2),
                Arguments.of(Named.of("FilterLock, 4 threads", (IntFunction<SharedMemoryLock>) FilterLock::new), 4),
                Arguments.of(Named.of("FilterLock, 8 threads", (IntFunction<SharedMemoryLock>) FilterLock::new), 8),
                Arguments.of(Named.of("BakeryLock, 4 threads", (IntFunction<SharedMemoryLock>) BakeryLock::new), 4),
                Arguments.of(Named.of("BakeryLock, 8 threads", (IntFunction<SharedMemoryLock>) BakeryLock::new), 8));
    }

    private static final class Counter {
        int value; // deliberately plain: the lock alone must make the increments exclusive and visible
    }

    @ParameterizedTest
    @MethodSource("configurations")
    void concurrentIncrements_underTheLock_areExact(IntFunction<SharedMemoryLock> factory, int threads) throws Exception {
        SharedMemoryLock lock = factory.apply(threads);
        Counter counter = new Counter();
        for (int round = 0; round < ROUNDS; round++) {
            CyclicBarrier start = new CyclicBarrier(threads);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long seed = 31L * round + t;
                boolean unregisterAtEnd = round % 2 == 0; // odd rounds rely on reclaiming terminated threads' slots
                Thread worker = new Thread(() -> {
                    try {
                        start.await();
                        incrementMany(lock, counter, new SplittableRandom(seed));
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    } finally {
                        if (unregisterAtEnd) {
                            lock.unregisterCurrentThread();
                        }
                    }
                }, "stress-" + round + "-" + t);
                workers.add(worker);
                worker.start();
            }
            for (Thread worker : workers) {
                worker.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("a worker failed in round " + round + " (thread t used seed 31*round+t)", failure.get());
            }
            assertEquals((long) (round + 1) * threads * INCREMENTS_PER_THREAD, counter.value);
        }
        assertFalse(lock.isLocked());
    }

    private static void incrementMany(SharedMemoryLock lock, Counter counter, SplittableRandom random)
            throws InterruptedException {
        int done = 0;
        while (done < INCREMENTS_PER_THREAD) {
            boolean acquired;
            switch (random.nextInt(5)) {
                case 0:
                    lock.lock();
                    acquired = true;
                    break;
                case 1:
                    lock.lockInterruptibly();
                    acquired = true;
                    break;
                case 2:
                    acquired = lock.tryLock(random.nextInt(50), TimeUnit.MICROSECONDS);
                    break;
                case 3:
                    acquired = lock.tryLock();
                    break;
                default:
                    acquired = lock.tryLock(1, TimeUnit.SECONDS);
                    break;
            }
            if (!acquired) {
                continue;
            }
            try {
                if (random.nextInt(8) == 0) { // reentrant acquisition inside the critical section
                    lock.lock();
                    try {
                        counter.value++;
                    } finally {
                        lock.unlock();
                    }
                } else {
                    counter.value++;
                }
                done++;
            } finally {
                lock.unlock();
            }
        }
    }
}
