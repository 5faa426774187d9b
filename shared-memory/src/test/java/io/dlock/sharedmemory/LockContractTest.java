package io.dlock.sharedmemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link java.util.concurrent.locks.Lock} contract, the same cases for every lock (after the JSR-166 TCK's
 * {@code ReentrantLockTest}). Each test uses at most two threads, so Peterson's lock runs them all. Waits for
 * another thread's state use polling on observable state, never sleeps that decide the outcome.
 */
@Timeout(60)
class LockContractTest {

    private static final Duration TEST_TIMEOUT = Duration.ofSeconds(20);

    static Stream<Named<Supplier<SharedMemoryLock>>> locks() {
        return Stream.of(
                Named.of("PetersonLock", PetersonLock::new),
                Named.of("FilterLock(3)", () -> new FilterLock(3)),
                Named.of("BakeryLock(3)", () -> new BakeryLock(3)));
    }

    /** Runs {@code body} on a new thread; the future completes with its result or failure. */
    private static <T> CompletableFuture<T> onOtherThread(ThrowingSupplier<T> body) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                result.complete(body.get());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        }, "other");
        thread.start();
        return result;
    }

    interface ThrowingSupplier<T> {
        T get() throws Exception;
    }

    /** Holds {@code lock} on another thread until {@code release} is counted down. */
    private static Thread holdOnOtherThread(SharedMemoryLock lock, CountDownLatch release) throws InterruptedException {
        CountDownLatch held = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            lock.lock();
            try {
                held.countDown();
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lock.unlock();
                lock.unregisterCurrentThread();
            }
        }, "holder");
        holder.start();
        held.await();
        return holder;
    }

    private static void awaitState(Thread thread, Thread.State... states) {
        while (!Stream.of(states).anyMatch(s -> s == thread.getState())) {
            Thread.onSpinWait();
        }
    }

    /** unlock() by a thread that does not hold the lock throws IllegalMonitorStateException naming the holder. */
    @ParameterizedTest
    @MethodSource("locks")
    void unlock_byNonOwner_throwsIllegalMonitorStateException(Supplier<SharedMemoryLock> factory) throws Exception {
        SharedMemoryLock lock = factory.get();
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = holdOnOtherThread(lock, release);
        IllegalMonitorStateException e = assertThrows(IllegalMonitorStateException.class, lock::unlock);
        assertTrue(e.getMessage().contains("it is held by holder"), e.getMessage());
        release.countDown();
        holder.join();
    }

    /** unlock() of a lock nobody holds throws IllegalMonitorStateException. */
    @ParameterizedTest
    @MethodSource("locks")
    void unlock_whenUnlocked_throwsIllegalMonitorStateException(Supplier<SharedMemoryLock> factory) {
        SharedMemoryLock lock = factory.get();
        IllegalMonitorStateException e = assertThrows(IllegalMonitorStateException.class, lock::unlock);
        assertTrue(e.getMessage().contains("it is not locked"), e.getMessage());
    }

    /** The lock is reentrant: each lock() adds a hold, each unlock() removes one, the last one releases. */
    @ParameterizedTest
    @MethodSource("locks")
    void lock_isReentrant_withHoldCount(Supplier<SharedMemoryLock> factory) throws Exception {
        SharedMemoryLock lock = factory.get();
        lock.lock();
        assertTrue(lock.tryLock());
        assertTrue(lock.tryLock(1, TimeUnit.SECONDS));
        lock.lockInterruptibly();
        assertEquals(4, lock.getHoldCount());
        for (int holds = 3; holds >= 0; holds--) {
            lock.unlock();
            assertEquals(holds, lock.getHoldCount());
        }
        assertFalse(lock.isLocked());
        assertTrue(onOtherThread(() -> {
            boolean acquired = lock.tryLock();
            lock.unlock();
            return acquired;
        }).get());
    }

    /** tryLock() fails while another thread holds the lock, and its attempt leaves nothing behind. */
    @ParameterizedTest
    @MethodSource("locks")
    void tryLock_whenHeldByOther_failsAndLeavesCleanly(Supplier<SharedMemoryLock> factory) throws Exception {
        SharedMemoryLock lock = factory.get();
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = holdOnOtherThread(lock, release);
        assertFalse(lock.tryLock());
        assertFalse(lock.isHeldByCurrentThread());
        release.countDown();
        holder.join();
        assertTrue(lock.tryLock(), "the failed attempt must not block the lock");
        lock.unlock();
    }

    /** A timed tryLock that times out withdraws: the holder can release and re-acquire at once. */
    @ParameterizedTest
    @MethodSource("locks")
    void tryLockTimed_timesOut_andLeavesCleanly(Supplier<SharedMemoryLock> factory) throws Exception {
        SharedMemoryLock lock = factory.get();
        lock.lock();
        assertTimeoutPreemptively(TEST_TIMEOUT, () -> assertFalse(onOtherThread(() -> {
            try {
                return lock.tryLock(50, TimeUnit.MILLISECONDS);
            } finally {
                lock.unregisterCurrentThread();
            }
        }).get()));
        lock.unlock();
        // If the timed-out waiter had left its announcement, this untimed one-look attempt would see a competitor.
        assertTrue(lock.tryLock());
        lock.unlock();
    }

    /** A timed tryLock succeeds when the holder releases before the deadline. */
    @ParameterizedTest
    @MethodSource("locks")
    void tryLockTimed_succeedsWhenReleasedInTime(Supplier<SharedMemoryLock> factory) throws Exception {
        SharedMemoryLock lock = factory.get();
        lock.lock();
        AtomicReference<Thread> waiterThread = new AtomicReference<>();
        CompletableFuture<Boolean> waiter = onOtherThread(() -> {
            waiterThread.set(Thread.currentThread());
            boolean acquired = lock.tryLock(1, TimeUnit.MINUTES);
            if (acquired) {
                lock.unlock();
            }
            return acquired;
        });
        while (waiterThread.get() == null) {
            Thread.onSpinWait();
        }
        awaitState(waiterThread.get(), Thread.State.TIMED_WAITING); // parked in the timed wait
        lock.unlock();
        assertTrue(waiter.get(20, TimeUnit.SECONDS));
    }

    /** tryLock with a non-positive time looks once and does not wait. */
    @ParameterizedTest
    @MethodSource("locks")
    void tryLockTimed_withZeroTime_looksOnce(Supplier<SharedMemoryLock> factory) throws Exception {
        SharedMemoryLock lock = factory.get();
        assertTrue(onOtherThread(() -> {
            boolean free = lock.tryLock(0, TimeUnit.SECONDS);
            lock.unlock();
            lock.unregisterCurrentThread();
            return free;
        }).get());
        lock.lock();
        assertFalse(onOtherThread(() -> lock.tryLock(-1, TimeUnit.SECONDS)).get());
        lock.unlock();
    }

    /** lockInterruptibly() of an interrupted thread throws InterruptedException without acquiring. */
    @ParameterizedTest
    @MethodSource("locks")
    void lockInterruptibly_whenAlreadyInterrupted_throws(Supplier<SharedMemoryLock> factory) {
        SharedMemoryLock lock = factory.get();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, lock::lockInterruptibly);
        assertFalse(Thread.interrupted(), "the interrupt is reported by the exception");
        assertFalse(lock.isLocked());
    }

    /** A waiter in lockInterruptibly() that is interrupted throws, and withdraws so the holder is not blocked. */
    @ParameterizedTest
    @MethodSource("locks")
    void lockInterruptibly_interruptedWhileWaiting_throwsAndLeavesCleanly(Supplier<SharedMemoryLock> factory)
            throws Exception {
        SharedMemoryLock lock = factory.get();
        lock.lock();
        AtomicReference<Thread> waiterThread = new AtomicReference<>();
        CompletableFuture<Boolean> waiter = onOtherThread(() -> {
            waiterThread.set(Thread.currentThread());
            try {
                lock.lockInterruptibly();
                return false;
            } catch (InterruptedException expected) {
                return true;
            } finally {
                lock.unregisterCurrentThread();
            }
        });
        while (waiterThread.get() == null) {
            Thread.onSpinWait();
        }
        awaitState(waiterThread.get(), Thread.State.WAITING); // parked after spinning
        waiterThread.get().interrupt();
        assertTrue(waiter.get(20, TimeUnit.SECONDS));
        lock.unlock();
        assertTrue(lock.tryLock(), "the interrupted waiter must have withdrawn");
        lock.unlock();
    }

    /** lock() is not interruptible: it keeps waiting, acquires, and returns with the interrupt status set. */
    @ParameterizedTest
    @MethodSource("locks")
    void lock_isNotInterruptible_andReassertsInterrupt(Supplier<SharedMemoryLock> factory) throws Exception {
        SharedMemoryLock lock = factory.get();
        lock.lock();
        AtomicReference<Thread> waiterThread = new AtomicReference<>();
        CompletableFuture<Boolean> waiter = onOtherThread(() -> {
            waiterThread.set(Thread.currentThread());
            lock.lock();
            boolean interrupted = Thread.currentThread().isInterrupted();
            lock.unlock();
            return interrupted;
        });
        while (waiterThread.get() == null) {
            Thread.onSpinWait();
        }
        awaitState(waiterThread.get(), Thread.State.WAITING);
        waiterThread.get().interrupt();
        awaitState(waiterThread.get(), Thread.State.WAITING); // still waiting after the interrupt
        assertFalse(waiter.isDone());
        lock.unlock();
        assertTrue(waiter.get(20, TimeUnit.SECONDS));
    }

    /** A thread holding the lock cannot give up its slot. */
    @ParameterizedTest
    @MethodSource("locks")
    void unregister_whileHolding_throwsIllegalStateException(Supplier<SharedMemoryLock> factory) {
        SharedMemoryLock lock = factory.get();
        lock.lock();
        IllegalStateException e = assertThrows(IllegalStateException.class, lock::unregisterCurrentThread);
        assertTrue(e.getMessage().contains("unlock it"), e.getMessage());
        lock.unlock();
        assertTrue(lock.unregisterCurrentThread());
        assertFalse(lock.unregisterCurrentThread());
    }

    /** await() releases all holds while waiting and restores them; signal() wakes the waiter. */
    @ParameterizedTest
    @MethodSource("locks")
    void condition_await_releasesAllHolds_andSignalWakes(Supplier<SharedMemoryLock> factory) throws Exception {
        SharedMemoryLock lock = factory.get();
        Condition ready = lock.newCondition();
        AtomicBoolean flag = new AtomicBoolean();
        lock.lock();
        lock.lock();
        CompletableFuture<Boolean> signaller = onOtherThread(() -> {
            lock.lock(); // only possible because await() released both holds
            try {
                flag.set(true);
                ready.signal();
                return true;
            } finally {
                lock.unlock();
            }
        });
        while (!flag.get()) {
            ready.await();
        }
        assertEquals(2, lock.getHoldCount());
        assertTrue(signaller.get(20, TimeUnit.SECONDS));
        lock.unlock();
        lock.unlock();
        assertFalse(lock.isLocked());
    }

    /** signal() and await() without holding the lock throw IllegalMonitorStateException. */
    @ParameterizedTest
    @MethodSource("locks")
    void condition_withoutLock_throwsIllegalMonitorStateException(Supplier<SharedMemoryLock> factory) {
        SharedMemoryLock lock = factory.get();
        Condition condition = lock.newCondition();
        assertThrows(IllegalMonitorStateException.class, condition::signal);
        assertThrows(IllegalMonitorStateException.class, condition::signalAll);
        assertThrows(IllegalMonitorStateException.class, condition::await);
    }

    /** A timed await that nobody signals returns a non-positive remainder, holding the lock again. */
    @ParameterizedTest
    @MethodSource("locks")
    void condition_awaitNanos_timesOut_holdingTheLock(Supplier<SharedMemoryLock> factory) throws Exception {
        SharedMemoryLock lock = factory.get();
        Condition condition = lock.newCondition();
        lock.lock();
        assertTrue(condition.awaitNanos(TimeUnit.MILLISECONDS.toNanos(20)) <= 0);
        assertFalse(condition.await(1, TimeUnit.MILLISECONDS));
        assertTrue(lock.isHeldByCurrentThread());
        condition.signal(); // nobody waits any more: the timed-out waiters left the queue
        lock.unlock();
    }

    /** An await() interrupted before any signal throws InterruptedException with the lock held again. */
    @ParameterizedTest
    @MethodSource("locks")
    void condition_await_interrupted_throwsHoldingTheLock(Supplier<SharedMemoryLock> factory) throws Exception {
        SharedMemoryLock lock = factory.get();
        Condition condition = lock.newCondition();
        AtomicReference<Thread> waiterThread = new AtomicReference<>();
        CompletableFuture<Boolean> waiter = onOtherThread(() -> {
            lock.lock();
            try {
                waiterThread.set(Thread.currentThread());
                condition.await();
                return false;
            } catch (InterruptedException expected) {
                return lock.isHeldByCurrentThread();
            } finally {
                lock.unlock();
                lock.unregisterCurrentThread();
            }
        });
        while (waiterThread.get() == null) {
            Thread.onSpinWait();
        }
        awaitState(waiterThread.get(), Thread.State.WAITING);
        waiterThread.get().interrupt();
        assertTrue(waiter.get(20, TimeUnit.SECONDS));
        lock.lock();
        condition.signal(); // the cancelled waiter is gone; nothing to wake
        lock.unlock();
    }

    /** awaitUninterruptibly() ignores an interrupt, returns on signal, and re-asserts the interrupt. */
    @ParameterizedTest
    @MethodSource("locks")
    void condition_awaitUninterruptibly_keepsWaiting(Supplier<SharedMemoryLock> factory) throws Exception {
        SharedMemoryLock lock = factory.get();
        Condition condition = lock.newCondition();
        AtomicReference<Thread> waiterThread = new AtomicReference<>();
        CompletableFuture<Boolean> waiter = onOtherThread(() -> {
            lock.lock();
            try {
                waiterThread.set(Thread.currentThread());
                condition.awaitUninterruptibly();
                return Thread.currentThread().isInterrupted();
            } finally {
                lock.unlock();
            }
        });
        while (waiterThread.get() == null) {
            Thread.onSpinWait();
        }
        awaitState(waiterThread.get(), Thread.State.WAITING);
        waiterThread.get().interrupt();
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        assertFalse(waiter.isDone());
        lock.lock();
        condition.signal();
        lock.unlock();
        assertTrue(waiter.get(20, TimeUnit.SECONDS));
    }

    /** toString() names the lock, its capacity and its state. */
    @ParameterizedTest
    @MethodSource("locks")
    void toString_showsState(Supplier<SharedMemoryLock> factory) {
        SharedMemoryLock lock = factory.get();
        assertTrue(lock.toString().endsWith("unlocked]"), lock.toString());
        lock.lock();
        assertTrue(lock.toString().endsWith("locked by " + Thread.currentThread().getName() + "]"), lock.toString());
        lock.unlock();
    }
}
