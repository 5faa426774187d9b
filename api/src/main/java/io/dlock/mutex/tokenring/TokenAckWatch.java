package io.dlock.mutex.tokenring;

import io.dlock.NodeId;
import java.util.Set;
import java.util.TreeSet;

/**
 * The token ring's rule 6 bookkeeping (the TOKEN_ACK crash variant, option {@code token-ack-ms}): the
 * timeout, the token this node sent and is waiting to see acknowledged, and the members it found silent in
 * this epoch. A {@link TokenRing} has one only when the option is on, so that a ring without it keeps none
 * of these fields.
 *
 * <p>Not thread-safe: owned by one protocol instance and used only from its event loop.
 */
final class TokenAckWatch {

    private final long timeoutMillis;
    /** The receiver of the last token sent and not yet acknowledged, or null. */
    private NodeId awaitedFrom;
    /** The hop of that token. */
    private long awaitedHop;
    /** Members found silent in this epoch; null while none. */
    private Set<NodeId> silent;

    /** @param timeoutMillis how long a sender waits for TOKEN_ACK, above 0 */
    TokenAckWatch(long timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
    }

    /** How long a sender waits for TOKEN_ACK. */
    long timeoutMillis() {
        return timeoutMillis;
    }

    /** A token of hop {@code hop} was sent to {@code to}: its TOKEN_ACK is awaited (instead of any earlier one). */
    void await(NodeId to, long hop) {
        awaitedFrom = to;
        awaitedHop = hop;
    }

    /** Whether a TOKEN_ACK is awaited. */
    boolean awaiting() {
        return awaitedFrom != null;
    }

    /** Whether a TOKEN_ACK from {@code from} for {@code hop} is the one awaited. */
    boolean awaits(NodeId from, long hop) {
        return awaitedFrom != null && awaitedFrom.equals(from) && hop == awaitedHop;
    }

    /**
     * Stops waiting (acknowledged, timed out, or a view change).
     *
     * @return the member whose TOKEN_ACK was awaited, or null if none was
     */
    NodeId stopAwaiting() {
        NodeId from = awaitedFrom;
        awaitedFrom = null;
        return from;
    }

    /** {@code member} did not acknowledge in time: passes skip it for the rest of the epoch. */
    void markSilent(NodeId member) {
        if (silent == null) {
            silent = new TreeSet<>();
        }
        silent.add(member);
    }

    /** Whether {@code member} was found silent in this epoch. */
    boolean isSilent(NodeId member) {
        return silent != null && silent.contains(member);
    }

    /** A new epoch: the membership decides who is alive from now on. */
    void forgetSilent() {
        silent = null;
    }
}
