package io.dlock.runtime;

import io.dlock.DistributedLock;
import io.dlock.LockMetrics;
import io.dlock.OwnershipListener;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;

/**
 * The {@link DistributedLock} handed to applications: a thin facade that keeps only the lock's name. Each call
 * finds the lock's {@link LockEngine} through the node ({@link EngineSource}), pinned for the call, so a facade
 * kept by the application works on after the lock's idle state was reclaimed: the next call recreates it.
 * {@link LocalLockState} does the local work (ownership, reentrancy, waiting, timeouts, interrupts) and the
 * engine the distributed work.
 */
final class RuntimeLock implements DistributedLock {

    private final String name;
    private final EngineSource engines;
    private final String algorithm;
    private final long tryTimeoutNanos;
    private final AtomicInteger conditionsCreated = new AtomicInteger();
    /** Longest condition name (it travels in every condition message). */
    private static final int MAX_CONDITION_NAME = 200;

    RuntimeLock(String name, EngineSource engines, String algorithm, long tryTimeoutNanos) {
        this.name = name;
        this.engines = engines;
        this.algorithm = algorithm;
        this.tryTimeoutNanos = tryTimeoutNanos;
    }

    @Override
    public String name() {
        return name;
    }

    /** The lock's engine, pinned: the caller unpins it. */
    LockEngine<?> pinEngine() {
        return engines.pin(name);
    }

    @Override
    public void lock() {
        LockEngine<?> engine = engines.pin(name);
        try {
            engine.local().acquire(false, -1);
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible acquire was interrupted", e);
        } finally {
            engine.unpin();
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        LockEngine<?> engine = engines.pin(name);
        try {
            engine.local().acquire(true, -1);
        } finally {
            engine.unpin();
        }
    }

    @Override
    public boolean tryLock() {
        LockEngine<?> engine = engines.pin(name);
        try {
            return engine.local().tryAcquireUninterruptibly(tryTimeoutNanos);
        } finally {
            engine.unpin();
        }
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        LockEngine<?> engine = engines.pin(name);
        try {
            return engine.local().acquire(true, Math.max(0, unit.toNanos(time)));
        } finally {
            engine.unpin();
        }
    }

    /**
     * Looks before it pins: a thread that does not hold the lock fails without creating the lock's state (a
     * lock whose state was reclaimed, or was never created here, is held by no thread here).
     */
    @Override
    public void unlock() {
        LockEngine<?> engine = engines.peek(name);
        if (engine == null) {
            throw new IllegalMonitorStateException("thread " + Thread.currentThread().getName()
                    + " does not hold this lock");
        }
        engine.local().requireReleasable();
        engine = engines.pin(name); // the same engine: one a thread holds is never reclaimed; the pin is a use
        try {
            engine.local().release();
        } finally {
            engine.unpin();
        }
    }

    @Override
    public Condition newCondition() {
        return newCondition("condition-" + conditionsCreated.incrementAndGet());
    }

    @Override
    public Condition newCondition(String conditionName) {
        engines.requireOpen();
        if (conditionName == null || conditionName.isEmpty() || conditionName.length() > MAX_CONDITION_NAME) {
            throw new IllegalArgumentException("condition name must be 1 to " + MAX_CONDITION_NAME + " characters, got "
                    + (conditionName == null ? "null" : "'" + conditionName + "'"));
        }
        return new RuntimeCondition(conditionName, this);
    }

    /**
     * The current thread's token. Only looks: a lock with no engine here is not held by anyone here, so the call
     * fails as on an engine whose lock is not held, and creates nothing; no pin is needed, as a lock a thread
     * holds is never reclaimed.
     */
    @Override
    public long fencingToken() {
        engines.requireOpen();
        LockEngine<?> engine = engines.peek(name);
        if (engine == null) {
            throw new IllegalMonitorStateException("thread " + Thread.currentThread().getName()
                    + " does not hold this lock, so it has no fencing token");
        }
        return engine.local().fencingToken();
    }

    @Override
    public boolean isHeldByCurrentThread() {
        LockEngine<?> engine = engines.peek(name);
        return engine != null && engine.local().isHeldByCurrentThread();
    }

    @Override
    public int getHoldCount() {
        LockEngine<?> engine = engines.peek(name);
        return engine == null ? 0 : engine.local().holdCount();
    }

    /** The lock's counters since its state was last created on this node (zero if it has none now). */
    @Override
    public LockMetrics metrics() {
        LockEngine<?> engine = engines.peek(name);
        return engine == null ? LockMetrics.of(algorithm, 0, 0, 0, 0, 0, 0, 0) : engine.metrics();
    }

    @Override
    public void addOwnershipListener(OwnershipListener listener) {
        engines.addOwnershipListener(name, listener);
    }

    @Override
    public void removeOwnershipListener(OwnershipListener listener) {
        engines.removeOwnershipListener(name, listener);
    }

    @Override
    public String toString() {
        return "DistributedLock[" + name + "]";
    }
}
