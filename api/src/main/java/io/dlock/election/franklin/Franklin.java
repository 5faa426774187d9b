package io.dlock.election.franklin;

import io.dlock.election.franklin.FranklinMessage.Elected;
import io.dlock.election.franklin.FranklinMessage.Probe;
import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionEffects;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.NodeId;
import java.util.ArrayList;
import java.util.List;

/**
 * Franklin's election on a bidirectional ring: phase by phase, every active node sends its id both
 * ways to its nearest active neighbours and stays active only if its id is larger than both ids it
 * receives; passive nodes relay. The last active node receives its own id from both sides and
 * announces itself with ELECTED.
 *
 * <p><b>Source.</b> Source notes S2 (docs/algorithms.md §0.6) (Franklinのアルゴリズム: "exchange ids
 * with both neighbours; a process that learns it is not the maximum leaves the candidate ring";
 * "a final message announcing the end must circulate"), as restated in docs/algorithms.md B5 (rules 1-4,
 * gap-filled); W. R. Franklin, "On an improved algorithm for decentralized extrema finding in
 * circular configurations of processors", CACM 25(5):336-337, 1982.
 *
 * <p><b>Assumptions.</b> Bidirectional ring; reliable channels; FIFO <em>not</em> required, thanks to
 * the phase tags and the buffering of early probes (docs/algorithms.md F27); no crash during the run; every
 * node takes part (it wakes up on {@code onStart} or on its first message).
 *
 * <p><b>Cost.</b> Every phase costs exactly 2n messages (the probes of the actives partition each
 * direction of the ring); K &le; &lfloor;log2 n&rfloor; + 1 phases, then n ELECTED: 2nK + n in
 * total, 5n when ids are sorted round the ring, 3 for n = 1.
 *
 * <p><b>Deviations.</b> The source notes have no pseudocode; phases and buffering are docs/algorithms.md's gap-fill. A
 * probe carries its direction of travel, since with n = 2 both neighbours are the same node. The
 * leader learns the result when its ELECTED comes back, so the run ends with nothing in flight.
 */
final class Franklin implements ElectionProtocol<FranklinMessage> {

    /*
     * Overview.
     *
     * State: awake; active; phase; fromLeft / fromRight (ids received this phase from the
     * counter-clockwise and the clockwise side, or null); early (probes of later phases, in arrival
     * order); done.
     *
     * Invariants:
     *  - An active node in phase p has sent exactly one probe each way for each phase 1..p and
     *    receives exactly one probe per side per phase, from its nearest active neighbour of that
     *    phase; a probe of a phase beyond p is buffered, never consumed early, and a probe of phase
     *    below p cannot arrive (each was consumed in its phase).
     *  - The survivors of a phase are local maxima of the actives: no two neighbours survive, the
     *    maximum always does (FR-3). When one active is left its probes come back to it.
     *  - A node that turns passive forwards what it buffered, then relays everything: the probes
     *    of a phase still cover every link of each direction exactly once (2n per phase).
     */

    private final NodeId self;
    private final NodeId successor;
    private final NodeId predecessor;
    private final ElectionEffects<FranklinMessage> effects;

    private boolean awake;
    private boolean active;
    private long phase;
    private NodeId fromLeft;
    private NodeId fromRight;
    private final List<Probe> early = new ArrayList<>();
    private boolean done;

    Franklin(ElectionContext<FranklinMessage> context) {
        this.self = context.self();
        this.successor = context.successor();
        this.predecessor = context.predecessor();
        this.effects = context.effects();
    }

    @Override
    public void onStart() {
        wakeUp();
    }

    @Override
    public void onMessage(NodeId from, FranklinMessage message) {
        if (done) {
            return;
        }
        wakeUp();
        if (message instanceof Probe p) {
            if (active) {
                onProbe(p);
            } else {
                relay(p); // rule 3
            }
        } else if (message instanceof Elected e) {
            // Rule 4.
            done = true;
            if (!e.leader().equals(self)) {
                effects.send(successor, e);
            }
            effects.leaderElected(e.leader());
        }
    }

    /** Rule 1. */
    private void wakeUp() {
        if (!awake) {
            awake = true;
            active = true;
            phase = 1;
            sendProbes();
        }
    }

    /** Rule 2. */
    private void onProbe(Probe p) {
        if (p.phase() > phase) {
            early.add(p);
            return;
        }
        if (p.phase() < phase) {
            return; // impossible (see Overview); ignored
        }
        if (p.clockwise()) {
            fromLeft = p.id();
        } else {
            fromRight = p.id();
        }
        if (fromLeft == null || fromRight == null) {
            return;
        }
        if (fromLeft.equals(self)) {
            // 2a: my own probes came back: I am the only active node.
            active = false;
            effects.send(successor, new Elected(self));
        } else if (self.compareTo(fromLeft) > 0 && self.compareTo(fromRight) > 0) {
            // 2b: a local maximum: next phase.
            phase++;
            fromLeft = null;
            fromRight = null;
            sendProbes();
            List<Probe> due = new ArrayList<>(early);
            early.clear();
            for (Probe q : due) {
                if (active) {
                    onProbe(q);
                } else {
                    relay(q);
                }
            }
        } else {
            // 2c: leave the candidate ring; forward what waited here, in arrival order.
            active = false;
            List<Probe> due = new ArrayList<>(early);
            early.clear();
            due.forEach(this::relay);
        }
    }

    private void sendProbes() {
        effects.send(predecessor, new Probe(self, phase, false));
        effects.send(successor, new Probe(self, phase, true));
    }

    private void relay(Probe p) {
        effects.send(p.clockwise() ? successor : predecessor, p);
    }
}
