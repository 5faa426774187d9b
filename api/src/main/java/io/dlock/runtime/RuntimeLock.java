package io.dlock.runtime;

import io.dlock.DistributedLock;
import io.dlock.LockHold;
import io.dlock.LockMetrics;
import io.dlock.OwnershipListener;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * The {@link DistributedLock} handed to applications: a thin facade that keeps only the lock's name. Each call
 * finds the lock's {@link LockDriver} through the node ({@link DriverSource}), pinned for the call, so a facade
 * kept by the application works on after the lock's idle state was reclaimed: the next call recreates it.
 * {@link LocalLockState} does the local work (ownership, reentrancy, waiting, timeouts, interrupts) and the
 * driver the distributed work.
 */
final class RuntimeLock implements DistributedLock {

    private final String name;
    private final DriverSource drivers;
    private final String algorithm;
    private final long tryTimeoutNanos;
    /** Conditions made without a name, for the next one's name (through {@link #CONDITIONS_CREATED}). */
    private volatile int conditionsCreated;
    private static final VarHandle CONDITIONS_CREATED;

    static {
        try {
            CONDITIONS_CREATED = MethodHandles.lookup()
                    .findVarHandle(RuntimeLock.class, "conditionsCreated", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Longest condition name (it travels in every condition message). */
    private static final int MAX_CONDITION_NAME = 200;

    RuntimeLock(String name, DriverSource drivers, String algorithm, long tryTimeoutNanos) {
        this.name = name;
        this.drivers = drivers;
        this.algorithm = algorithm;
        this.tryTimeoutNanos = tryTimeoutNanos;
    }

    @Override
    public String name() {
        return name;
    }

    /** The lock's driver, pinned: the caller unpins it. */
    LockDriver<?> pinDriver() {
        return drivers.pin(name);
    }

    @Override
    public void lock() {
        LockDriver<?> driver = drivers.pin(name);
        try {
            driver.local().acquire(false, -1);
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible acquire was interrupted", e);
        } finally {
            driver.unpin();
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        LockDriver<?> driver = drivers.pin(name);
        try {
            driver.local().acquire(true, -1);
        } finally {
            driver.unpin();
        }
    }

    @Override
    public boolean tryLock() {
        LockDriver<?> driver = drivers.pin(name);
        try {
            return driver.local().tryAcquireUninterruptibly(tryTimeoutNanos);
        } finally {
            driver.unpin();
        }
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        LockDriver<?> driver = drivers.pin(name);
        try {
            return driver.local().acquire(true, Math.max(0, unit.toNanos(time)));
        } finally {
            driver.unpin();
        }
    }

    @Override
    public void lock(Duration lease) {
        long leaseNanos = DurationArguments.leaseNanos("lease", lease);
        LockDriver<?> driver = drivers.pin(name);
        try {
            driver.local().acquire(Thread.currentThread(), false, -1, leaseNanos);
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible acquire was interrupted", e);
        } finally {
            driver.unpin();
        }
    }

    @Override
    public boolean tryLock(Duration wait, Duration lease) throws InterruptedException {
        long waitNanos = DurationArguments.waitNanos("wait", wait);
        long leaseNanos = DurationArguments.leaseNanos("lease", lease);
        LockDriver<?> driver = drivers.pin(name);
        try {
            return driver.local().acquire(Thread.currentThread(), true, waitNanos, leaseNanos);
        } finally {
            driver.unpin();
        }
    }

    /**
     * Only looks, as {@link #fencingToken()} does: a lock a thread holds has a driver here, which is not reclaimed.
     */
    @Override
    public void renew(Duration lease) {
        long leaseNanos = DurationArguments.leaseNanos("lease", lease);
        drivers.requireOpen();
        LockDriver<?> driver = drivers.peek(name);
        if (driver == null) {
            throw new IllegalMonitorStateException("thread " + Thread.currentThread().getName()
                    + " does not hold lock '" + name + "', so it has no lease to renew");
        }
        driver.local().renew(Thread.currentThread(), leaseNanos);
    }

    @Override
    public LockHold acquire() throws InterruptedException {
        return acquireHold(-1, HoldLease.NONE);
    }

    @Override
    public LockHold acquire(Duration lease) throws InterruptedException {
        return acquireHold(-1, DurationArguments.leaseNanos("lease", lease));
    }

    @Override
    public Optional<LockHold> tryAcquire(Duration wait) throws InterruptedException {
        return Optional.ofNullable(acquireHold(DurationArguments.waitNanos("wait", wait), HoldLease.NONE));
    }

    @Override
    public Optional<LockHold> tryAcquire(Duration wait, Duration lease) throws InterruptedException {
        long waitNanos = DurationArguments.waitNanos("wait", wait);
        return Optional.ofNullable(acquireHold(waitNanos, DurationArguments.leaseNanos("lease", lease)));
    }

    /**
     * Waits for a new hold for at most {@code timeoutNanos} (negative: forever), interruptibly; null if the time ran
     * out.
     */
    private LockHold acquireHold(long timeoutNanos, long leaseNanos) throws InterruptedException {
        LockDriver<?> driver = drivers.pin(name);
        try {
            RuntimeHold hold = new RuntimeHold(name, driver.local());
            return driver.local().acquire(hold, true, timeoutNanos, leaseNanos) ? hold : null;
        } finally {
            driver.unpin();
        }
    }

    /**
     * Queues a new hold on the local state; the local state's own waiters and events keep its driver from being
     * reclaimed while it waits (a lock with a waiter is not at rest), so no pin outlives this call.
     */
    @Override
    public CompletableFuture<LockHold> acquireAsync() {
        return acquireAsync(HoldLease.NONE);
    }

    @Override
    public CompletableFuture<LockHold> acquireAsync(Duration lease) {
        return acquireAsync(DurationArguments.leaseNanos("lease", lease));
    }

    private CompletableFuture<LockHold> acquireAsync(long leaseNanos) {
        LockDriver<?> driver = drivers.pin(name);
        try {
            return driver.local().acquireAsync(new RuntimeHold(name, driver.local()), leaseNanos);
        } finally {
            driver.unpin();
        }
    }

    /**
     * Looks before it pins: a thread that does not hold the lock fails without creating the lock's state (a
     * lock whose state was reclaimed, or was never created here, is held by no thread here).
     */
    @Override
    public void unlock() {
        LockDriver<?> driver = drivers.peek(name);
        if (driver == null) {
            throw new IllegalMonitorStateException("thread " + Thread.currentThread().getName()
                    + " does not hold this lock");
        }
        driver.local().requireReleasable();
        driver = drivers.pin(name); // the same driver: one a thread holds is never reclaimed; the pin is a use
        try {
            driver.local().release();
        } finally {
            driver.unpin();
        }
    }

    @Override
    public Condition newCondition() {
        return newCondition("condition-" + ((int) CONDITIONS_CREATED.getAndAdd(this, 1) + 1));
    }

    @Override
    public Condition newCondition(String conditionName) {
        drivers.requireOpen();
        if (conditionName == null || conditionName.isEmpty() || conditionName.length() > MAX_CONDITION_NAME) {
            throw new IllegalArgumentException("condition name must be 1 to " + MAX_CONDITION_NAME + " characters, got "
                    + (conditionName == null ? "null" : "'" + conditionName + "'"));
        }
        return new RuntimeCondition(conditionName, this);
    }

    /**
     * The current thread's token. Only looks: a lock with no driver here is not held by anyone here, so the call
     * fails as on a driver whose lock is not held, and creates nothing; no pin is needed, as a lock a thread
     * holds is never reclaimed.
     */
    @Override
    public long fencingToken() {
        drivers.requireOpen();
        LockDriver<?> driver = drivers.peek(name);
        if (driver == null) {
            throw new IllegalMonitorStateException("thread " + Thread.currentThread().getName()
                    + " does not hold this lock, so it has no fencing token");
        }
        return driver.local().fencingToken();
    }

    @Override
    public boolean isHeldByCurrentThread() {
        LockDriver<?> driver = drivers.peek(name);
        return driver != null && driver.local().isHeldByCurrentThread();
    }

    @Override
    public int getHoldCount() {
        LockDriver<?> driver = drivers.peek(name);
        return driver == null ? 0 : driver.local().holdCount();
    }

    /** The lock's counters since its state was last created on this node (zero if it has none now). */
    @Override
    public LockMetrics metrics() {
        LockDriver<?> driver = drivers.peek(name);
        return driver == null ? LockMetrics.empty(algorithm) : driver.metrics();
    }

    @Override
    public void addOwnershipListener(OwnershipListener listener) {
        drivers.addOwnershipListener(name, listener);
    }

    @Override
    public void removeOwnershipListener(OwnershipListener listener) {
        drivers.removeOwnershipListener(name, listener);
    }

    @Override
    public String toString() {
        return "DistributedLock[" + name + "]";
    }
}
