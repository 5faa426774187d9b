package io.dlock.runtime;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One thread's wait on a distributed condition, between the event loop that registers and wakes it and
 * the thread that waits: REGISTERING until the keeper has queued it, WAITING until a signal wakes it or
 * the thread gives up. Waking and giving up race; exactly one of them wins ({@link #wake()} tells the
 * protocol whether the wake-up was taken, so a lost race passes the signal on). Thread-safe; uses a
 * {@link ReentrantLock}, not a monitor, so a virtual thread that waits here does not pin its carrier.
 */
final class ConditionWaiter {

    private enum State { REGISTERING, WAITING, WOKEN, GAVE_UP }

    private final long id;
    private final ReentrantLock mutex = new ReentrantLock();
    private final Condition changed = mutex.newCondition();
    private State state = State.REGISTERING;

    ConditionWaiter(long id) {
        this.id = id;
    }

    long id() {
        return id;
    }

    /** Event loop: the keeper queued the waiter. */
    void registered() {
        mutex.lock();
        try {
            if (state == State.REGISTERING) {
                state = State.WAITING;
                changed.signalAll();
            }
        } finally {
            mutex.unlock();
        }
    }

    /** Event loop: a signal (or a view change) wakes the waiter; false if its thread gave up first. */
    boolean wake() {
        mutex.lock();
        try {
            if (state == State.GAVE_UP) {
                return false;
            }
            state = State.WOKEN;
            changed.signalAll();
            return true;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Waiting thread: waits, uninterruptibly, until the keeper has queued it or a view change woke it first.
     *
     * @return true if registered (the thread may release the lock and wait), false if already woken
     */
    boolean awaitRegistered() {
        mutex.lock();
        try {
            while (state == State.REGISTERING) {
                changed.awaitUninterruptibly();
            }
            return state == State.WAITING;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Waiting thread: waits until woken, until {@code deadline} (a {@link System#nanoTime()} value; ignored if
     * {@code timed} is false) or, if {@code interruptible}, until interrupted ({@code Condition}'s timed waits
     * are all interruptible, so a timed wait must be too). A thread that stops waiting for any other reason
     * than a wake-up gives up, atomically with respect to {@link #wake()}.
     *
     * @return true if woken, false if the time ran out first
     * @throws InterruptedException if interrupted first (the waiter gave up)
     */
    boolean awaitWake(boolean timed, long deadline, boolean interruptible) throws InterruptedException {
        if (timed && !interruptible) {
            throw new IllegalArgumentException("a timed wait is interruptible");
        }
        mutex.lock();
        try {
            while (state != State.WOKEN) {
                if (!timed) {
                    if (interruptible) {
                        awaitInterruptibly(-1);
                    } else {
                        changed.awaitUninterruptibly();
                    }
                    continue;
                }
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    state = State.GAVE_UP;
                    return false;
                }
                awaitInterruptibly(remaining);
            }
            return true;
        } finally {
            mutex.unlock();
        }
    }

    private void awaitInterruptibly(long nanos) throws InterruptedException {
        try {
            if (nanos < 0) {
                changed.await();
            } else {
                changed.awaitNanos(nanos);
            }
        } catch (InterruptedException e) {
            if (state == State.WOKEN) {
                Thread.currentThread().interrupt(); // woken first: the wake-up counts, the interrupt stays set
                return;
            }
            state = State.GAVE_UP;
            throw e;
        }
    }
}
