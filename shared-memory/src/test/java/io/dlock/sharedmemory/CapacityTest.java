package io.dlock.sharedmemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Thread slots: who may use a lock, the errors for one thread too many, and giving slots back. */
@Timeout(60)
class CapacityTest {

    /** Threads that each lock/unlock {@code lock} once and then stay alive, holding their slot, until released. */
    private static final class Occupants {
        final CountDownLatch release = new CountDownLatch(1);
        final List<Thread> threads = new ArrayList<>();

        Occupants(SharedMemoryLock lock, String... names) throws InterruptedException {
            for (String name : names) { // one after the other, so that slot order is name order
                CountDownLatch registered = new CountDownLatch(1);
                Thread t = new Thread(() -> {
                    lock.lock();
                    lock.unlock();
                    registered.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, name);
                threads.add(t);
                t.start();
                registered.await();
            }
        }

        void finish() throws InterruptedException {
            release.countDown();
            for (Thread t : threads) {
                t.join();
            }
        }
    }

    private static Throwable failureOfLockOnNewThread(SharedMemoryLock lock) throws InterruptedException {
        CompletableFuture<Void> attempt = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                lock.lock();
                lock.unlock();
                attempt.complete(null);
            } catch (Throwable e) {
                attempt.completeExceptionally(e);
            }
        }, "latecomer");
        t.start();
        t.join();
        try {
            attempt.get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    /** A third thread on a Peterson lock gets an IllegalStateException that names the two slot holders. */
    @Test
    void peterson_thirdThread_isRefusedWithTheHoldersNamed() throws Exception {
        PetersonLock lock = new PetersonLock();
        Occupants occupants = new Occupants(lock, "T1", "T2");
        Throwable failure = failureOfLockOnNewThread(lock);
        assertTrue(failure instanceof IllegalStateException, String.valueOf(failure));
        assertEquals("PetersonLock already used by 2 threads (slots held by T1, T2); "
                + "call unregisterCurrentThread() on one of them first", failure.getMessage());
        occupants.finish();
    }

    /** One thread more than a filter or bakery lock's capacity gets an IllegalStateException that says what to do. */
    @ParameterizedTest
    @ValueSource(strings = {"FilterLock", "BakeryLock"})
    void nThreadLocks_oneThreadTooMany_isRefused(String kind) throws Exception {
        SharedMemoryLock lock = kind.equals("FilterLock") ? new FilterLock(3) : new BakeryLock(3);
        Occupants occupants = new Occupants(lock, "a", "b", "c");
        Throwable failure = failureOfLockOnNewThread(lock);
        assertTrue(failure instanceof IllegalStateException, String.valueOf(failure));
        assertEquals(kind + " already used by 3 threads (slots held by a, b, c); call unregisterCurrentThread() "
                + "on one of them first, or create the lock with a larger capacity (at most 64)", failure.getMessage());
        occupants.finish();
    }

    /** Capacities outside 2..64 are rejected with the bad value and the allowed range. */
    @ParameterizedTest
    @ValueSource(ints = {-1, 0, 1, 65})
    void capacityOutOfRange_isRejected(int capacity) {
        Function<String, String> expected = name -> name + " capacity must be between 2 and 64, got " + capacity;
        assertEquals(expected.apply("FilterLock"),
                assertThrows(IllegalArgumentException.class, () -> new FilterLock(capacity)).getMessage());
        assertEquals(expected.apply("BakeryLock"),
                assertThrows(IllegalArgumentException.class, () -> new BakeryLock(capacity)).getMessage());
    }

    /** A slot given back with unregisterCurrentThread() is used by the next thread (a pool can rotate threads). */
    @Test
    void unregisteredSlot_isReused() throws Exception {
        PetersonLock lock = new PetersonLock();
        lock.lock();
        lock.unlock();
        Occupants other = new Occupants(lock, "T2");
        assertTrue(lock.unregisterCurrentThread());
        assertEquals(null, failureOfLockOnNewThread(lock));
        other.finish();
    }

    /** The slot of a thread that terminated without unregistering is reclaimed. */
    @Test
    void slotOfTerminatedThread_isReclaimed() throws Exception {
        PetersonLock lock = new PetersonLock();
        Occupants gone = new Occupants(lock, "gone1", "gone2");
        gone.finish(); // both threads terminate, still registered
        assertEquals(null, failureOfLockOnNewThread(lock));
        lock.lock();
        lock.unlock();
    }

    /** A thread that terminated while holding the lock keeps its slot: the lock stays held, and says so. */
    @Test
    void slotOfThreadThatDiedHoldingTheLock_isNotReclaimed() throws Exception {
        PetersonLock lock = new PetersonLock();
        Thread dead = new Thread(lock::lock, "diedHolding");
        dead.start();
        dead.join();
        assertFalse(lock.tryLock()); // the current thread takes the second slot; the dead thread still holds the lock
        Throwable failure = failureOfLockOnNewThread(lock);
        assertTrue(failure instanceof IllegalStateException, String.valueOf(failure));
        assertTrue(failure.getMessage().contains("diedHolding"), failure.getMessage());
        assertTrue(lock.isLocked());
    }
}
