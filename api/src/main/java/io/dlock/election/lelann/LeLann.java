package io.dlock.election.lelann;

import io.dlock.election.lelann.LeLannMessage.Id;
import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionEffects;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.NodeId;

/**
 * LeLann's ring election (the source notes' naive algorithm): each node puts its own id on the ring before
 * forwarding anything, forwards every other id, and terminates when its own id comes back.
 *
 * <p><b>Source.</b> Source notes S2 (docs/algorithms.md §0.6) (素朴なアルゴリズム: "applied to rings
 * containing inactive nodes it is called LeLann's algorithm"), as restated in docs/algorithms.md B3 (event-driven
 * form); G. LeLann, "Distributed systems - towards a formal approach", IFIP Congress 1977.
 *
 * <p><b>Assumptions.</b> Unidirectional ring, any id order; reliable <em>FIFO</em> channels (docs/algorithms.md
 * F28): a node emits its own id before forwarding anything, so with FIFO every foreign id reaches
 * it before its own comes back; no crash during the run; any non-empty set of initiators.
 *
 * <p><b>Cost.</b> Exactly n^2 messages (each id travels n hops) whatever the initiators; time n
 * when all initiate, 2n-1 with a single initiator (unit delay).
 *
 * <p><b>Deviations.</b> None: the source notes' code is correct (docs/algorithms.md B3).
 */
final class LeLann implements ElectionProtocol<LeLannMessage> {

    /*
     * Overview.
     *
     * State: started; coordinator (largest id seen, own included); done.
     *
     * Invariants (FIFO):
     *  - Own id is the first message a node sends; every id a node forwards was received after it
     *    started, so on every link a node's own id precedes everything it forwards.
     *  - When a node's own id returns, it has passed every node after all their ids were sent, so
     *    every id has reached this node first: coordinator is the maximum, and nothing arrives later
     *    (docs/algorithms.md NV-1).
     */

    private final NodeId self;
    private final NodeId successor;
    private final ElectionEffects<LeLannMessage> effects;

    private boolean started;
    private NodeId coordinator;
    private boolean done;

    LeLann(ElectionContext<LeLannMessage> context) {
        this.self = context.self();
        this.successor = context.successor();
        this.effects = context.effects();
    }

    @Override
    public void onStart() {
        if (!started) {
            // election_initiator: own id first.
            started = true;
            coordinator = self;
            effects.send(successor, new Id(self));
        }
    }

    @Override
    public void onMessage(NodeId from, LeLannMessage message) {
        if (!(message instanceof Id m) || done) {
            return;
        }
        NodeId id = m.id();
        if (!started) {
            // election_responder: own id BEFORE forwarding m.
            started = true;
            coordinator = max(id, self);
            effects.send(successor, new Id(self));
            effects.send(successor, new Id(id));
        } else if (id.equals(self)) {
            done = true;
            effects.leaderElected(coordinator);
        } else {
            coordinator = max(coordinator, id);
            effects.send(successor, new Id(id));
        }
    }

    private static NodeId max(NodeId a, NodeId b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
