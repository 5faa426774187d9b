package io.dlock.mutex.common;

/**
 * The highest fencing token one node has seen, and the rule for issuing the next one.
 *
 * <p>A fencing token must be strictly greater than every token granted before for the same lock,
 * anywhere in the cluster. Two mechanisms together guarantee it:
 * <ul>
 *   <li><b>Within an epoch</b> the members are fixed. A node that issues tokens (a coordinator, or a
 *       permission-based node entering the critical section) calls {@link #next()}; every message
 *       that causally precedes a later grant carries the sender's {@link #highest()}, and the
 *       receiver {@link #observe observes} it. Each algorithm's class comment argues why its messages
 *       carry enough.</li>
 *   <li><b>Across epochs</b> that argument breaks: a member that leaves (or crashes) may take the
 *       highest token with it. So on every view change each node calls {@link #enterEpoch}, which
 *       raises its watermark to {@code epoch * 2^32}: every token of epoch {@code e} is then above
 *       every token of an earlier epoch, provided an epoch grants fewer than 2^32 tokens and epochs
 *       stay below 2^31 (beyond that the floor saturates). The epoch comes from the view, which all
 *       members agree on. Tokens of the first epoch the protocol was created in are not floored, so
 *       a fresh cluster counts 1, 2, 3, ...</li>
 * </ul>
 *
 * <p>Not thread-safe: owned by one protocol instance and used only from its event loop.
 */
public final class FencingCounter {

    /** Tokens per epoch before the floors of two epochs overlap: 2^32. */
    static final int EPOCH_SHIFT = 32;
    /** Largest epoch whose floor fits in a positive long. */
    static final long MAX_EPOCH = (1L << (63 - EPOCH_SHIFT)) - 1;

    private long highest;

    /** A counter that has seen no token yet: the first issued is 1. */
    public FencingCounter() {
        this(0);
    }

    /**
     * A counter that starts at {@code floor}: every token it issues is greater (a lock's new incarnation
     * after a reclamation, {@link io.dlock.protocol.ProtocolContext#fencingFloor()}).
     *
     * @throws IllegalArgumentException if {@code floor} is negative
     */
    public FencingCounter(long floor) {
        if (floor < 0) {
            throw new IllegalArgumentException("fencing floor must be >= 0, got " + floor);
        }
        this.highest = floor;
    }

    /** The highest token seen or issued so far; 0 before any. */
    public long highest() {
        return highest;
    }

    /** Raises the highest token seen to {@code fence} if it is larger. */
    public void observe(long fence) {
        highest = Math.max(highest, fence);
    }

    /**
     * A new epoch (view) starts: raises the highest token seen to {@code epoch * 2^32}, so that
     * tokens issued from now on exceed every token of earlier epochs, even those held by members that
     * left. Epochs at or above 2^31 use the floor of epoch 2^31 - 1.
     *
     * @throws IllegalArgumentException if {@code epoch} is negative
     */
    public void enterEpoch(long epoch) {
        if (epoch < 0) {
            throw new IllegalArgumentException("epoch must be >= 0, got " + epoch);
        }
        observe(Math.min(epoch, MAX_EPOCH) << EPOCH_SHIFT);
    }

    /** Issues a new token, one more than the highest seen, and remembers it as the highest. */
    public long next() {
        return ++highest;
    }

    @Override
    public String toString() {
        return "FencingCounter[highest=" + highest + "]";
    }
}
