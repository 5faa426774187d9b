package io.dlock;

import java.util.Objects;

/**
 * A hold of a {@link DistributedLock} that was lost: what an {@link OwnershipListener} is told.
 *
 * @param lockName     the lock
 * @param fencingToken the fencing token of the lost hold (the majority side's next grant is higher)
 * @param holder       the thread that held the lock; it still believes it does until it calls
 *                     {@code unlock()}, {@code fencingToken()} or {@code isHeldByCurrentThread()}
 * @param viewEpoch    the epoch of the view in which this node found itself outside the primary component
 */
public record OwnershipLoss(String lockName, long fencingToken, Thread holder, long viewEpoch) {

    /** @throws NullPointerException if {@code lockName} or {@code holder} is null */
    public OwnershipLoss {
        Objects.requireNonNull(lockName, "lockName");
        Objects.requireNonNull(holder, "holder");
    }
}
