package io.dlock;

import io.dlock.spi.View;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What one node knows of its cluster now (from {@link LockService#view()}): the members it sees, the epoch their
 * view started, whether that view is primary for the node, and the node's own id.
 *
 * <p>A view is <em>primary</em> when it satisfies the majority rule (more than half of {@code dlock.cluster.size}
 * members, or, without that setting, the first view and its successors): only then does the node grant locks and
 * elect leaders. In a view that is not primary, lock requests wait and elections have no leader until a primary
 * view forms again. Every node that installed the same view sees the same epoch and the same members in the same
 * order: two nodes are in the same view when {@link #epoch()} and {@link #members()} are equal (their
 * {@code ClusterView}s are not, as each names its own node).
 *
 * @param epoch   the epoch the view started, strictly increasing from one view to the next, never negative
 * @param members the live members, non-empty and distinct; stored sorted ascending by id and unmodifiable
 * @param primary whether the view is primary for this node (it may grant locks and elect leaders)
 * @param self    this node's id
 */
public record ClusterView(long epoch, List<NodeId> members, boolean primary, NodeId self) {

    /**
     * @throws IllegalArgumentException if {@code epoch} is negative, or the members are empty or contain a duplicate
     * @throws NullPointerException     if {@code members} or {@code self} is null
     */
    public ClusterView {
        Objects.requireNonNull(self, "self");
        Objects.requireNonNull(members, "members");
        members = new View(epoch, members).members(); // the transport view's checks: epoch >= 0, distinct, sorted
    }

    /** How many members the view has. */
    public int size() {
        return members.size();
    }

    /** Whether {@code node} is a member of the view. */
    public boolean contains(NodeId node) {
        return Collections.binarySearch(members, node) >= 0;
    }
}
