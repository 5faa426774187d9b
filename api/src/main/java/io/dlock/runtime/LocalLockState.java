package io.dlock.runtime;

import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The node-local half of a distributed lock: which thread owns it, how many times, which local
 * threads wait, and whether this node has a distributed request outstanding. This is the "sync"
 * object the {@link RuntimeLock} facade forwards to; the distributed protocol only ever sees
 * "request", "granted" and "release".
 *
 * <p>At most one distributed request per node is outstanding: local threads queue in arrival order
 * and only the head of the queue issues a request. A request belongs to the node, not to a thread:
 * if its thread gives up (timeout, interrupt), the next waiter adopts it; if nobody waits when the
 * grant arrives, the grant is released at once.
 */
final class LocalLockState {

    /** Where the distributed request stands. */
    private enum Phase {
        /** No request outstanding, the lock is not held by this node. */
        IDLE,
        /** A request is outstanding. */
        REQUESTED,
        /** The grant arrived; the head waiter has not taken it yet. */
        GRANTED,
        /** A local thread holds the lock. */
        HELD
    }

    private final ReentrantLock mutex = new ReentrantLock();
    private final Condition changed = mutex.newCondition();
    private final ArrayDeque<Thread> waiters = new ArrayDeque<>();
    private final Runnable issueRequest;
    private final Runnable issueRelease;

    private Phase phase = Phase.IDLE;
    private Thread owner;
    private int holds;
    private long grantedFence;
    private long heldFence;
    private String closedReason;
    private long abandonedGrants;

    /**
     * @param issueRequest queues a distributed request on the lock's event loop; never blocks
     * @param issueRelease queues a distributed release on the lock's event loop; never blocks
     */
    LocalLockState(Runnable issueRequest, Runnable issueRelease) {
        this.issueRequest = issueRequest;
        this.issueRelease = issueRelease;
    }

    /**
     * Acquires for the calling thread.
     *
     * @param interruptible whether an interrupt aborts the wait with {@link InterruptedException}
     * @param timeoutNanos  how long to wait at most; negative = forever
     * @return true if acquired, false if the time ran out
     */
    boolean acquire(boolean interruptible, long timeoutNanos) throws InterruptedException {
        Thread me = Thread.currentThread();
        mutex.lock();
        try {
            if (owner == me) {
                if (holds == Integer.MAX_VALUE) {
                    throw new Error("maximum lock count exceeded");
                }
                holds++;
                return true;
            }
            requireOpen();
            if (interruptible && Thread.interrupted()) {
                throw new InterruptedException();
            }
            long deadline = timeoutNanos >= 0 ? System.nanoTime() + timeoutNanos : 0;
            waiters.add(me);
            try {
                while (true) {
                    requireOpen();
                    if (waiters.peekFirst() == me && owner == null) {
                        if (phase == Phase.GRANTED) {
                            waiters.pollFirst();
                            owner = me;
                            holds = 1;
                            heldFence = grantedFence;
                            phase = Phase.HELD;
                            return true;
                        }
                        if (phase == Phase.IDLE) {
                            phase = Phase.REQUESTED;
                            issueRequest.run();
                        }
                    }
                    if (timeoutNanos < 0) {
                        if (interruptible) {
                            changed.await();
                        } else {
                            changed.awaitUninterruptibly();
                        }
                    } else {
                        long remaining = deadline - System.nanoTime();
                        if (remaining <= 0) {
                            giveUp(me);
                            return false;
                        }
                        changed.awaitNanos(remaining);
                    }
                }
            } catch (InterruptedException | RuntimeException e) {
                giveUp(me);
                throw e;
            }
        } finally {
            mutex.unlock();
        }
    }

    /** Like {@link #acquire} with a timeout, but an interrupt makes it return false and stays set. */
    boolean tryAcquireUninterruptibly(long timeoutNanos) {
        if (Thread.currentThread().isInterrupted()) {
            return isHeldByCurrentThread() && reenter();
        }
        try {
            return acquire(false, timeoutNanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private boolean reenter() {
        mutex.lock();
        try {
            holds++;
            return true;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Releases one hold of the calling thread; the last one releases the distributed lock.
     *
     * @throws IllegalMonitorStateException if the calling thread does not hold the lock
     */
    void release() {
        mutex.lock();
        try {
            Thread me = Thread.currentThread();
            if (owner != me) {
                throw new IllegalMonitorStateException("thread " + me.getName() + " does not hold this lock"
                        + (owner == null ? "" : "; it is held by thread " + owner.getName()));
            }
            if (--holds == 0) {
                owner = null;
                phase = Phase.IDLE;
                if (closedReason == null) {
                    issueRelease.run();
                }
                changed.signalAll();
            }
        } finally {
            mutex.unlock();
        }
    }

    /** Called on the event loop when the protocol grants the outstanding request. */
    void onGranted(long fencingToken) {
        mutex.lock();
        try {
            if (closedReason != null) {
                return;
            }
            if (phase != Phase.REQUESTED) {
                throw new IllegalStateException("grant without an outstanding request (phase " + phase + ")");
            }
            grantedFence = fencingToken;
            if (waiters.isEmpty()) {
                abandon();
            } else {
                phase = Phase.GRANTED;
                changed.signalAll();
            }
        } finally {
            mutex.unlock();
        }
    }

    /** The node leaves the cluster: waiting threads fail, and the lock is no longer held. */
    void close(String reason) {
        mutex.lock();
        try {
            closedReason = reason;
            owner = null;
            holds = 0;
            phase = Phase.IDLE;
            changed.signalAll();
        } finally {
            mutex.unlock();
        }
    }

    boolean isHeldByCurrentThread() {
        mutex.lock();
        try {
            return owner == Thread.currentThread();
        } finally {
            mutex.unlock();
        }
    }

    int holdCount() {
        mutex.lock();
        try {
            return owner == Thread.currentThread() ? holds : 0;
        } finally {
            mutex.unlock();
        }
    }

    /** @throws IllegalMonitorStateException if the calling thread does not hold the lock */
    long fencingToken() {
        mutex.lock();
        try {
            if (owner != Thread.currentThread()) {
                throw new IllegalMonitorStateException("thread " + Thread.currentThread().getName()
                        + " does not hold this lock, so it has no fencing token");
            }
            return heldFence;
        } finally {
            mutex.unlock();
        }
    }

    /** Grants that arrived after every local thread had given up, and were released at once. */
    long abandonedGrants() {
        mutex.lock();
        try {
            return abandonedGrants;
        } finally {
            mutex.unlock();
        }
    }

    /** Removes a waiter that gave up; passes a pending grant on, or releases it if nobody is left. */
    private void giveUp(Thread me) {
        waiters.remove(me);
        if (phase == Phase.GRANTED && waiters.isEmpty()) {
            abandon();
        }
        changed.signalAll();
    }

    private void abandon() {
        abandonedGrants++;
        phase = Phase.IDLE;
        if (closedReason == null) {
            issueRelease.run();
        }
    }

    private void requireOpen() {
        if (closedReason != null) {
            throw new IllegalStateException("lock service closed: " + closedReason);
        }
    }

    /** Number of local threads waiting for this lock. */
    int queueLength() {
        mutex.lock();
        try {
            return waiters.size();
        } finally {
            mutex.unlock();
        }
    }

}
