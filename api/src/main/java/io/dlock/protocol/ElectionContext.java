package io.dlock.protocol;

import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.HashSet;
import java.util.List;

/**
 * Everything an {@link ElectionProtocol} is created with.
 *
 * <p>The ring order is given, not derived by the algorithm (docs/algorithms.md 0.1: "the ring order is given
 * separately and is not the id order"): the runtime passes the view's members in ascending id
 * order, so ids increase along the direction of travel; the simulator passes any permutation
 * (increasing, decreasing, random) to reach each algorithm's best and worst cases. Messages travel
 * from {@code ring.get(k)} to {@code ring.get(k + 1)} (the successor); the predecessor is
 * {@code ring.get(k - 1)}, both modulo the ring size.
 *
 * @param self    this node; a member of {@code view} and of {@code ring}
 * @param view    the member set of this run (it may contain crashed members, which the bully and
 *                ring-with-list algorithms detect by timeouts)
 * @param ring    the members of {@code view} in ring order; copied
 * @param effects where the protocol's answers go
 * @param options algorithm-specific settings
 * @param <M>     the algorithm's message type
 */
public record ElectionContext<M extends ProtocolMessage>(NodeId self, View view, List<NodeId> ring,
                                                         ElectionEffects<M> effects, ProtocolOptions options) {

    public ElectionContext {
        ring = List.copyOf(ring);
        if (!view.contains(self)) {
            throw new IllegalArgumentException("node " + self + " is not a member of its view " + view.members());
        }
        if (ring.size() != view.size() || !new HashSet<>(ring).equals(new HashSet<>(view.members()))) {
            throw new IllegalArgumentException("ring " + ring + " is not an ordering of the view's members "
                    + view.members());
        }
    }

    /** A context whose ring is the view's members in ascending id order (the runtime's ring). */
    public ElectionContext(NodeId self, View view, ElectionEffects<M> effects, ProtocolOptions options) {
        this(self, view, view.members(), effects, options);
    }

    /** This node's position on the ring. */
    public int ringIndex() {
        return ring.indexOf(self);
    }

    /** The member {@code steps} positions after this node in the direction of travel (negative: before). */
    public NodeId ringMember(int steps) {
        int n = ring.size();
        return ring.get(Math.floorMod(ringIndex() + steps, n));
    }

    /** The next node in the direction of travel. */
    public NodeId successor() {
        return ringMember(1);
    }

    /** The previous node in the direction of travel. */
    public NodeId predecessor() {
        return ringMember(-1);
    }
}
