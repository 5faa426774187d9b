package io.dlock.spi;

import io.dlock.NodeId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One membership view: the live members of the cluster as seen by the transport, and the epoch it
 * starts.
 *
 * <p>Members are kept sorted ascending by {@link NodeId}, so every node that has installed the same
 * view sees the same member list in the same order; algorithms take their "site numbers"
 * {@code 0..N-1} from a member's {@link #indexOf index}. A new view starts a new epoch: the runtime
 * tags every message with the epoch of its sender's view and drops messages of older epochs.
 *
 * @param epoch   strictly increasing from one view to the next, never negative
 * @param members the live members, non-empty, distinct; stored sorted and unmodifiable
 */
public record View(long epoch, List<NodeId> members) {

    /**
     * @throws IllegalArgumentException if {@code epoch} is negative or the members are empty or
     *                                  contain a duplicate
     */
    public View {
        if (epoch < 0) {
            throw new IllegalArgumentException("view epoch must be >= 0, got " + epoch);
        }
        if (members == null || members.isEmpty()) {
            throw new IllegalArgumentException("a view needs at least one member, got " + members);
        }
        List<NodeId> sorted = new ArrayList<>(members);
        Collections.sort(sorted);
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).equals(sorted.get(i - 1))) {
                throw new IllegalArgumentException("duplicate member " + sorted.get(i) + " in view " + members);
            }
        }
        members = List.copyOf(sorted);
    }

    /** A view of the nodes {@code 0..n-1}, handy for tests and the simulator. */
    public static View ofRange(long epoch, int n) {
        if (n < 1) {
            throw new IllegalArgumentException("a view needs at least one member, got n=" + n);
        }
        List<NodeId> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ids.add(NodeId.of(i));
        }
        return new View(epoch, ids);
    }

    /** Number of members (the specification's N). */
    public int size() {
        return members.size();
    }

    /** The member at rank {@code index} (0 = lowest id). */
    public NodeId member(int index) {
        return members.get(index);
    }

    /** The rank of {@code node} in this view, or -1 if it is not a member. */
    public int indexOf(NodeId node) {
        return Collections.binarySearch(members, node);
    }

    /** Whether {@code node} is a member of this view. */
    public boolean contains(NodeId node) {
        return indexOf(node) >= 0;
    }

    /** The member with the highest id. */
    public NodeId highest() {
        return members.get(members.size() - 1);
    }
}
