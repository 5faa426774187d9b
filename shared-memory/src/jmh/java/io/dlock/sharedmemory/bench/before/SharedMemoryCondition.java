package io.dlock.sharedmemory.bench.before;

import java.util.ArrayDeque;
import java.util.Date;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;

/**
 * The {@link Condition} of a {@link SharedMemoryLock}: {@code await} releases all holds of the lock while
 * waiting and re-acquires them before returning; {@code signal} wakes the longest waiter.
 */
final class SharedMemoryCondition implements Condition {

    /* Implementation notes.
     *
     * The queue of waiters is guarded by the lock itself: a waiter enqueues itself while it still holds the
     * lock (so a signal sent after it released the lock cannot be missed), signal/signalAll dequeue while
     * holding it, and a waiter that gave up removes its entry after it has re-acquired the lock.
     *
     * Each waiter has a state, WAITING -> SIGNALLED (by signal) or WAITING -> CANCELLED (by the waiter itself,
     * on timeout or interrupt), decided by one CAS so that a signal is never consumed by a waiter that leaves:
     * signal skips cancelled waiters and wakes the next one. As in AbstractQueuedSynchronizer, an interrupt
     * that comes before the signal makes await throw InterruptedException; one that comes after is re-asserted.
     */

    private static final int WAITING = 0;
    private static final int SIGNALLED = 1;
    private static final int CANCELLED = 2;

    private static final class Waiter {
        final Thread thread = Thread.currentThread();
        final AtomicInteger state = new AtomicInteger(WAITING);
    }

    private final SharedMemoryLock lock;
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();

    SharedMemoryCondition(SharedMemoryLock lock) {
        this.lock = lock;
    }

    @Override
    public void await() throws InterruptedException {
        awaitNanos(true, false, 0L);
    }

    @Override
    public void awaitUninterruptibly() {
        try {
            awaitNanos(false, false, 0L);
        } catch (InterruptedException impossible) {
            throw new AssertionError(impossible);
        }
    }

    @Override
    public long awaitNanos(long nanosTimeout) throws InterruptedException {
        return awaitNanos(true, true, nanosTimeout);
    }

    @Override
    public boolean await(long time, TimeUnit unit) throws InterruptedException {
        return awaitNanos(true, true, unit.toNanos(time)) > 0;
    }

    @Override
    public boolean awaitUntil(Date deadline) throws InterruptedException {
        long millis = deadline.getTime() - System.currentTimeMillis();
        return awaitNanos(true, true, TimeUnit.MILLISECONDS.toNanos(millis)) > 0;
    }

    @Override
    public void signal() {
        lock.checkHeldByCurrentThread();
        Waiter waiter;
        while ((waiter = waiters.poll()) != null) {
            if (waiter.state.compareAndSet(WAITING, SIGNALLED)) {
                LockSupport.unpark(waiter.thread);
                return;
            }
        }
    }

    @Override
    public void signalAll() {
        lock.checkHeldByCurrentThread();
        Waiter waiter;
        while ((waiter = waiters.poll()) != null) {
            if (waiter.state.compareAndSet(WAITING, SIGNALLED)) {
                LockSupport.unpark(waiter.thread);
            }
        }
    }

    @Override
    public String toString() {
        return "Condition of " + lock;
    }

    /**
     * The one wait loop behind every await variant.
     *
     * @return for timed waits, an estimate of the nanoseconds left: &gt; 0 if signalled, &le; 0 if the time elapsed; else 1
     */
    private long awaitNanos(boolean interruptible, boolean timed, long nanosTimeout) throws InterruptedException {
        lock.checkHeldByCurrentThread();
        if (interruptible && Thread.interrupted()) {
            throw new InterruptedException("interrupted before awaiting " + this);
        }
        long deadline = timed ? System.nanoTime() + nanosTimeout : 0L;
        Waiter me = new Waiter();
        waiters.add(me);
        int holds = lock.releaseAll();

        boolean interruptedBeforeSignal = false;
        boolean interruptedOtherwise = false;
        while (me.state.get() == WAITING) {
            if (timed) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    me.state.compareAndSet(WAITING, CANCELLED); // fails only if a signal came first
                    break;
                }
                LockSupport.parkNanos(this, remaining);
            } else {
                LockSupport.park(this);
            }
            if (Thread.interrupted()) {
                if (interruptible && me.state.compareAndSet(WAITING, CANCELLED)) {
                    interruptedBeforeSignal = true;
                } else {
                    interruptedOtherwise = true;
                }
            }
        }

        interruptedOtherwise |= lock.reacquire(holds);
        boolean gaveUp = me.state.get() == CANCELLED;
        if (gaveUp) {
            waiters.remove(me);
        }
        if (interruptedBeforeSignal) {
            throw new InterruptedException("interrupted while awaiting " + this);
        }
        if (interruptedOtherwise) {
            Thread.currentThread().interrupt();
        }
        if (!timed) {
            return 1L;
        }
        long left = deadline - System.nanoTime();
        return gaveUp ? Math.min(left, 0L) : Math.max(left, 1L);
    }
}
