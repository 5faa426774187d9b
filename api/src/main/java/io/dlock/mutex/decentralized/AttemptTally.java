package io.dlock.mutex.decentralized;

import io.dlock.mutex.common.NodeSet;

/**
 * The replies to a client's current attempt (docs/algorithms.md A2 rule 4), while it is open: who answered, how
 * many of them are members of the view, who voted for it, and whether a coordinator keeps its vote for it (rule
 * 11). {@link Decentralized} makes one per attempt and drops it when the attempt decides or a view change cuts it,
 * so a lock that is not trying keeps none.
 *
 * <p>Not thread-safe: owned by one protocol instance and used only from its event loop.
 */
final class AttemptTally {

    /** The members (or former members) that answered the attempt. */
    final NodeSet replied = new NodeSet();
    /**
     * How many members of the view are in {@link #replied}: the attempt decides when it reaches the view's size
     * (counted as replies arrive; testing {@code replied.containsAll(view.members())} after every reply made each
     * attempt O(N² log N) and was nearly all of a 1 024-node sweep).
     */
    int repliedMembers;
    /** The members that voted for the attempt. */
    final NodeSet granted = new NodeSet();
    /** A coordinator refused the attempt but keeps its vote for us: retry after a short back-off. */
    boolean reservedForUs;

    @Override
    public String toString() {
        return "replied=" + replied + " granted=" + granted;
    }
}
