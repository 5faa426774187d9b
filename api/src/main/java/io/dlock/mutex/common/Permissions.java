package io.dlock.mutex.common;

import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * The members that have answered one node's current request: Ricart-Agrawala's replies, Lamport's
 * acks. A permission-based algorithm may enter when every other member of the current view is in the
 * set; after a view change it keeps the answers of members that stayed and asks the others again.
 *
 * <p>Not thread-safe: owned by one protocol instance and used only from its event loop.
 */
public final class Permissions {

    private final NodeId self;
    /** A {@link NodeSet}: ascending, a few bytes per member (a hash set per node outgrew the caches at N = 512). */
    private final NodeSet answered = new NodeSet();
    /** A view {@link #isCompleteFor} said yes to since the last removal: answers only grew, still yes. */
    private View knownComplete;

    /** @param self the node that asks; it never needs its own permission */
    public Permissions(NodeId self) {
        this.self = self;
    }

    /** Forgets every answer (a new request starts). */
    public void clear() {
        answered.clear();
        knownComplete = null;
    }

    /**
     * Records that {@code member} answered the current request.
     *
     * @return {@code false} if it had already answered (a duplicate), or if it is this node
     */
    public boolean add(NodeId member) {
        return !member.equals(self) && answered.add(member);
    }

    /** Whether {@code member} has answered the current request. */
    public boolean contains(NodeId member) {
        return answered.contains(member);
    }

    /** Number of members that have answered. */
    public int size() {
        return answered.size();
    }

    /** Whether every member of {@code view} other than this node has answered. */
    public boolean isCompleteFor(View view) {
        if (view == knownComplete) {
            return true; // Lamport asks again on every RELEASE while its request is not yet first
        }
        if (answered.size() < view.size() - 1) {
            return false; // too few answers whatever the view holds: O(1) for all replies but the last
        }
        for (NodeId member : view.members()) {
            if (!member.equals(self) && !answered.contains(member)) {
                return false;
            }
        }
        knownComplete = view;
        return true;
    }

    /** The members of {@code view} other than this node that have not answered, ascending. */
    public List<NodeId> missingIn(View view) {
        List<NodeId> missing = new ArrayList<>();
        for (NodeId member : view.members()) {
            if (!member.equals(self) && !answered.contains(member)) {
                missing.add(member);
            }
        }
        return missing;
    }

    /** Drops the answers of nodes that are not members of {@code view} (they left). */
    public void retainMembersOf(View view) {
        answered.removeIf(member -> !view.contains(member));
        knownComplete = null;
    }

    /** The members that have answered, ascending (a snapshot). */
    public Set<NodeId> members() {
        return Collections.unmodifiableSet(answered.toSortedSet());
    }

    @Override
    public String toString() {
        return "Permissions" + answered;
    }
}
