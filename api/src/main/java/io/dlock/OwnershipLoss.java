package io.dlock;

import java.util.Objects;

/**
 * A hold of a {@link DistributedLock} that was lost: what an {@link OwnershipListener} is told. The hold was either
 * a thread's ({@link #holder()} is that thread, {@link #hold()} is null) or an owner-free {@link LockHold}
 * ({@link #hold()} is it, {@link #holder()} is null).
 *
 * @param lockName     the lock
 * @param fencingToken the fencing token of the lost hold (the next grant anywhere is higher)
 * @param holder       the thread that held the lock, or null for a {@link LockHold}; it still believes it holds the
 *                     lock until it calls {@code unlock()}, {@code fencingToken()} or {@code isHeldByCurrentThread()}
 * @param viewEpoch    the epoch of this node's view when the hold was lost
 * @param hold         the owner-free hold that was lost, or null for a thread's hold
 * @param cause        why the hold was lost
 */
public record OwnershipLoss(String lockName, long fencingToken, Thread holder, long viewEpoch, LockHold hold,
                            Cause cause) {

    /** Why a hold was lost. */
    public enum Cause {
        /**
         * The node fell out of the primary component (a partition, or its exclusion after a long pause), or its
         * epoch lease ran out (it was stopped or cut off for longer than {@code dlock.cluster.lease-ms}): the
         * majority side may grant the lock again. The lock goes back to the cluster with the holder's release.
         */
        NODE_CUT_OFF,
        /**
         * The hold's own lease ran out before it was released (see {@link DistributedLock}'s "Leases"); the lock
         * went back at once, and the next holder's token is higher.
         */
        LEASE_EXPIRED
    }

    /**
     * @throws NullPointerException     if {@code lockName} or {@code cause} is null, or both {@code holder} and
     *                                  {@code hold} are
     * @throws IllegalArgumentException if both {@code holder} and {@code hold} are given
     */
    public OwnershipLoss {
        Objects.requireNonNull(lockName, "lockName");
        Objects.requireNonNull(cause, "cause");
        if (holder == null && hold == null) {
            throw new NullPointerException("holder and hold are both null; exactly one is needed");
        }
        if (holder != null && hold != null) {
            throw new IllegalArgumentException("a loss is of a thread's hold or of a LockHold, not both: holder "
                    + holder.getName() + ", hold " + hold);
        }
    }

    /**
     * A thread's hold lost because its node was cut off ({@link Cause#NODE_CUT_OFF}).
     *
     * @throws NullPointerException if {@code lockName} or {@code holder} is null
     */
    public OwnershipLoss(String lockName, long fencingToken, Thread holder, long viewEpoch) {
        this(lockName, fencingToken, Objects.requireNonNull(holder, "holder"), viewEpoch, null, Cause.NODE_CUT_OFF);
    }
}
