package io.dlock.runtime;

import java.util.Date;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * A {@link Condition} of a distributed lock, driven by the lock's {@link io.dlock.condition.ConditionProtocol}
 * (one per condition name, on the lock's event loop). {@code await} checks that the caller holds the lock,
 * registers the waiter at the condition's keeper, releases every hold (the distributed lock goes back to the
 * cluster), waits for a signal from any node, and reacquires the lock (with a new fencing token) and the
 * same hold count before it returns, also when it times out or is interrupted.
 */
final class RuntimeCondition implements Condition {

    private final String name;
    private final RuntimeLock lock;

    /** Finds the lock's driver on every call (see {@link RuntimeLock}): the caller must hold the lock. */
    RuntimeCondition(String name, RuntimeLock lock) {
        this.name = name;
        this.lock = lock;
    }

    /** The condition's name, the same on every node for the same condition. */
    String name() {
        return name;
    }

    @Override
    public void await() throws InterruptedException {
        await(false, 0, true);
    }

    @Override
    public void awaitUninterruptibly() {
        try {
            await(false, 0, false);
        } catch (InterruptedException e) {
            throw new AssertionError("an uninterruptible wait was interrupted", e);
        }
    }

    @Override
    public long awaitNanos(long nanosTimeout) throws InterruptedException {
        long deadline = System.nanoTime() + Math.max(0, nanosTimeout);
        await(true, deadline, true);
        return deadline - System.nanoTime();
    }

    @Override
    public boolean await(long time, TimeUnit unit) throws InterruptedException {
        return await(true, System.nanoTime() + Math.max(0, unit.toNanos(time)), true);
    }

    @Override
    public boolean awaitUntil(Date deadline) throws InterruptedException {
        long millis = Math.max(0, deadline.getTime() - System.currentTimeMillis());
        return await(true, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis), true);
    }

    @Override
    public void signal() {
        signal(false, "signal");
    }

    @Override
    public void signalAll() {
        signal(true, "signalAll");
    }

    private void signal(boolean all, String operation) {
        LockDriver<?> driver = lock.pinDriver();
        try {
            driver.local().requireHeldForCondition(operation);
            driver.conditionSignal(name, all);
        } finally {
            driver.unpin();
        }
    }

    /**
     * The wait: register, release every hold, wait, reacquire.
     *
     * @return true if woken by a signal (or a view change), false if the time ran out
     */
    private boolean await(boolean timed, long deadline, boolean interruptible) throws InterruptedException {
        LockDriver<?> driver = lock.pinDriver(); // held by the caller: the driver stays for the whole wait
        try {
            return await(driver, driver.local(), timed, deadline, interruptible);
        } finally {
            driver.unpin();
        }
    }

    private boolean await(LockDriver<?> driver, LocalLockState local, boolean timed, long deadline,
                          boolean interruptible) throws InterruptedException {
        local.requireHeldForCondition("await");
        if (interruptible && Thread.interrupted()) {
            throw new InterruptedException();
        }
        ConditionWaiter waiter = driver.conditionAwait(name);
        if (!waiter.awaitRegistered()) {
            return true; // a view change woke it before it was queued: it never released the lock
        }
        LocalLockState.HeldForWait holds = local.releaseForWait();
        boolean woken;
        InterruptedException interrupted = null;
        try {
            woken = waiter.awaitWake(timed, deadline, interruptible);
        } catch (InterruptedException e) {
            woken = false;
            interrupted = e;
        }
        if (!woken) {
            driver.conditionGiveUp(name, waiter);
        }
        local.reacquireAfterWait(holds);
        if (interrupted != null) {
            throw interrupted;
        }
        return woken;
    }

    @Override
    public String toString() {
        return "Condition[" + name + " of " + lock.name() + "]";
    }
}
