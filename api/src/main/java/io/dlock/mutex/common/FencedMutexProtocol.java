package io.dlock.mutex.common;

import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolMessage;

/**
 * A mutual-exclusion protocol that keeps the highest fencing token its node has seen for the lock, and
 * the rule for issuing the next one. Every algorithm of {@code io.dlock.mutex} extends it: the token is a
 * field of the protocol instance itself, not an object of its own (one object fewer per lock and node).
 *
 * <p>A fencing token must be strictly greater than every token granted before for the same lock,
 * anywhere in the cluster. Two mechanisms together guarantee it:
 * <ul>
 *   <li><b>Within an epoch</b> the members are fixed. A node that issues tokens (a coordinator, or a
 *       permission-based node entering the critical section) calls {@link #nextFence()}; every message
 *       that causally precedes a later grant carries the sender's {@link #highestFence()}, and the
 *       receiver {@link #observeFence observes} it. Each algorithm's class comment argues why its messages
 *       carry enough.</li>
 *   <li><b>Across epochs</b> that argument breaks: a member that leaves (or crashes) may take the
 *       highest token with it. So on every view change each node calls {@link #enterFenceEpoch}, which
 *       raises its watermark to {@code epoch * 2^32}: every token of epoch {@code e} is then above
 *       every token of an earlier epoch, provided an epoch grants fewer than 2^32 tokens and epochs
 *       stay below 2^31 (beyond that the floor saturates). The epoch comes from the view, which all
 *       members agree on. Tokens of the first epoch the protocol was created in are not floored, so
 *       a fresh cluster counts 1, 2, 3, ...</li>
 * </ul>
 *
 * <p>The {@link TokenCensus} of a token algorithm updates the same watermark (it is in this package).
 *
 * <p>Not thread-safe, like every protocol: used only from its event loop.
 *
 * @param <M> the algorithm's message type
 */
public abstract class FencedMutexProtocol<M extends ProtocolMessage> implements MutexProtocol<M> {

    /** Tokens per epoch before the floors of two epochs overlap: 2^32. */
    static final int EPOCH_SHIFT = 32;
    /** Largest epoch whose floor fits in a positive long. */
    static final long MAX_EPOCH = (1L << (63 - EPOCH_SHIFT)) - 1;

    private long highestFence;

    /**
     * A protocol whose tokens are all greater than {@code floor}: 0 for a lock that has issued none, else a
     * lock's new incarnation after a reclamation ({@link io.dlock.protocol.ProtocolContext#fencingFloor()}).
     *
     * @throws IllegalArgumentException if {@code floor} is negative
     */
    protected FencedMutexProtocol(long floor) {
        if (floor < 0) {
            throw new IllegalArgumentException("fencing floor must be >= 0, got " + floor);
        }
        this.highestFence = floor;
    }

    /** The highest token seen or issued so far; the floor (0 for a fresh lock) before any. */
    @Override
    public final long highestFence() {
        return highestFence;
    }

    /** Raises the highest token seen to {@code fence} if it is larger. */
    protected final void observeFence(long fence) {
        highestFence = Math.max(highestFence, fence);
    }

    /**
     * A new epoch (view) starts: raises the highest token seen to {@code epoch * 2^32}, so that
     * tokens issued from now on exceed every token of earlier epochs, even those held by members that
     * left. Epochs at or above 2^31 use the floor of epoch 2^31 - 1.
     *
     * @throws IllegalArgumentException if {@code epoch} is negative
     */
    protected final void enterFenceEpoch(long epoch) {
        if (epoch < 0) {
            throw new IllegalArgumentException("epoch must be >= 0, got " + epoch);
        }
        observeFence(Math.min(epoch, MAX_EPOCH) << EPOCH_SHIFT);
    }

    /** Issues a new token, one more than the highest seen, and remembers it as the highest. */
    protected final long nextFence() {
        return ++highestFence;
    }
}
