package io.dlock.shedlock;

import io.dlock.LockHold;
import io.dlock.LockOwnershipLostException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ShedLock's view of one {@link LockHold} that {@link DlockLockProvider} took for a task: {@link #unlock()} releases it
 * at once or keeps it until {@code lockAtLeastFor} has passed since it was taken (or last extended);
 * {@link #extend(Duration, Duration)} renews its lease. A lock that was unlocked, or extended into a new one, is used
 * up: another {@code unlock()} or {@code extend} throws {@link IllegalStateException}, as ShedLock's own locks do. A
 * lock whose extension failed (the hold was lost) stays usable for the {@code unlock()} that ends the task.
 */
final class DlockSimpleLock implements SimpleLock {

    private static final Logger LOG = LoggerFactory.getLogger(DlockSimpleLock.class);

    private final DlockLockProvider provider;
    private final TaskLocks.Entry task;
    private final Duration lockAtLeastFor;
    /** {@link System#nanoTime()} when {@link #lockAtLeastFor} started: the grant, or the extension. */
    private final long startNanos;
    private final AtomicBoolean usable = new AtomicBoolean(true);

    DlockSimpleLock(DlockLockProvider provider, TaskLocks.Entry task, Duration lockAtLeastFor) {
        this.provider = provider;
        this.task = task;
        this.lockAtLeastFor = lockAtLeastFor;
        this.startNanos = System.nanoTime();
    }

    /**
     * Ends the task's use of the lock: the hold is released now if {@code lockAtLeastFor} has passed since it was
     * taken or extended, else kept until then and released by the provider's scheduler thread. A hold lost meanwhile
     * ({@code lockAtMostFor} ran out while the task ran) is logged as a warning: another node may have run the task
     * at the same time.
     *
     * @throws IllegalStateException if this lock was unlocked or extended already
     */
    @Override
    public void unlock() {
        useUp("unlock");
        TaskLocks.ended(task);
        Duration remaining = lockAtLeastFor.minusNanos(System.nanoTime() - startNanos);
        if (remaining.isNegative() || remaining.isZero()) {
            releaseAfterTask();
        } else {
            provider.keep(this, remaining);
        }
    }

    /**
     * Renews the hold's lease to end {@code lockAtMostFor} from now, and restarts {@code lockAtLeastFor} from now.
     *
     * @return the extended lock, which replaces this one; empty if the hold was lost (its lease ran out, or its node
     *         was cut off), or its lock service closed
     * @throws IllegalArgumentException if {@code lockAtMostFor} is not positive or longer than
     *                                  {@link io.dlock.DistributedLock#MAX_LEASE}, or {@code lockAtLeastFor} is
     *                                  negative or longer than {@code lockAtMostFor}
     * @throws IllegalStateException    if this lock was unlocked or extended already
     */
    @Override
    public Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
        if (lockAtLeastFor.isNegative() || lockAtLeastFor.compareTo(lockAtMostFor) > 0) {
            throw new IllegalArgumentException("lockAtLeastFor must be between zero and lockAtMostFor (" + lockAtMostFor
                    + "), got " + lockAtLeastFor);
        }
        if (!usable.get()) {
            throw usedUp("extend");
        }
        try {
            task.hold().renew(lockAtMostFor);
        } catch (IllegalMonitorStateException lostOrClosed) { // LockOwnershipLostException included
            LOG.warn("lock '{}' could not be extended: {}", task.hold().lockName(), lostOrClosed.getMessage());
            return Optional.empty(); // this lock stays usable for the task's unlock()
        }
        useUp("extend");
        return Optional.of(new DlockSimpleLock(provider, task, lockAtLeastFor));
    }

    @Override
    public String toString() {
        return "DlockSimpleLock[" + task.hold().lockName() + ", token " + task.token() + "]";
    }

    /** Releases a hold kept for {@code lockAtLeastFor}; its lease may have ended first, which is no failure. */
    void releaseKept() {
        try {
            task.hold().release();
        } catch (IllegalMonitorStateException endedAlready) { // lease ran out first, released by close(), or closed
            LOG.debug("kept hold of '{}' had ended: {}", task.hold().lockName(), endedAlready.getMessage());
        } finally {
            provider.forget(this);
        }
    }

    private void releaseAfterTask() {
        try {
            task.hold().release();
        } catch (LockOwnershipLostException lost) {
            LOG.warn("the task under lock '{}' ran longer than lockAtMostFor, or its node was cut off: another node "
                    + "may have run it meanwhile (fencing token {} is stale)", lost.lockName(), lost.fencingToken());
        } catch (IllegalMonitorStateException closed) {
            LOG.debug("hold of '{}' had ended: {}", task.hold().lockName(), closed.getMessage());
        }
    }

    private void useUp(String operation) {
        if (!usable.compareAndSet(true, false)) {
            throw usedUp(operation);
        }
    }

    private IllegalStateException usedUp(String operation) {
        return new IllegalStateException("cannot " + operation + " lock '" + task.hold().lockName()
                + "': it was unlocked or extended already (extend returns the lock to use next)");
    }
}
