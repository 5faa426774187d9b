package io.dlock.mutex.common;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.NodeId;

/**
 * The steward's decision at the end of a {@link TokenCensus}: who holds the one token of this epoch.
 *
 * @param epoch       the epoch of the census
 * @param holder      the member that holds the token from now on; every other member that still has a
 *                    token discards it
 * @param regenerated no member reported a token: the steward (then {@code holder}) made a new one
 * @param fenceFloor  the highest fencing token reported by any member (and the steward's epoch
 *                    floor); every member raises its counter to it, so later grants are above it
 */
public record CensusOutcome(long epoch, NodeId holder, boolean regenerated, long fenceFloor) {

    /** @throws IllegalArgumentException for a negative epoch or floor, or a null holder */
    public CensusOutcome {
        requireAtLeast("epoch", epoch, 0);
        requireAtLeast("fenceFloor", fenceFloor, 0);
        if (holder == null) {
            throw new IllegalArgumentException("holder must not be null");
        }
    }
}
