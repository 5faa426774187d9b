package io.dlock.runtime;

import io.dlock.DistributedLock;
import io.dlock.LockMetrics;
import io.dlock.OwnershipListener;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;

/**
 * The {@link DistributedLock} handed to applications: a thin facade. {@link LocalLockState} does the
 * local work (ownership, reentrancy, waiting, timeouts, interrupts) and {@link LockEngine} the
 * distributed work; this class only forwards.
 */
final class RuntimeLock implements DistributedLock {

    private final String name;
    private final LocalLockState local;
    private final LockEngine<?> engine;
    private final long tryTimeoutNanos;
    private final AtomicInteger conditionsCreated = new AtomicInteger();
    /** Longest condition name (it travels in every condition message). */
    private static final int MAX_CONDITION_NAME = 200;

    RuntimeLock(String name, LocalLockState local, LockEngine<?> engine, long tryTimeoutNanos) {
        this.name = name;
        this.local = local;
        this.engine = engine;
        this.tryTimeoutNanos = tryTimeoutNanos;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void lock() {
        try {
            local.acquire(false, -1);
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible acquire was interrupted", e);
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        local.acquire(true, -1);
    }

    @Override
    public boolean tryLock() {
        return local.tryAcquireUninterruptibly(tryTimeoutNanos);
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return local.acquire(true, Math.max(0, unit.toNanos(time)));
    }

    @Override
    public void unlock() {
        local.release();
    }

    @Override
    public Condition newCondition() {
        return newCondition("condition-" + conditionsCreated.incrementAndGet());
    }

    @Override
    public Condition newCondition(String conditionName) {
        if (conditionName == null || conditionName.isEmpty() || conditionName.length() > MAX_CONDITION_NAME) {
            throw new IllegalArgumentException("condition name must be 1 to " + MAX_CONDITION_NAME + " characters, got "
                    + (conditionName == null ? "null" : "'" + conditionName + "'"));
        }
        return new RuntimeCondition(conditionName, engine, local);
    }

    @Override
    public long fencingToken() {
        return local.fencingToken();
    }

    @Override
    public boolean isHeldByCurrentThread() {
        return local.isHeldByCurrentThread();
    }

    @Override
    public int getHoldCount() {
        return local.holdCount();
    }

    @Override
    public LockMetrics metrics() {
        return engine.metrics();
    }

    @Override
    public void addOwnershipListener(OwnershipListener listener) {
        engine.ownershipListeners().add(listener);
    }

    @Override
    public void removeOwnershipListener(OwnershipListener listener) {
        engine.ownershipListeners().remove(listener);
    }

    @Override
    public String toString() {
        return "DistributedLock[" + name + "]";
    }
}
