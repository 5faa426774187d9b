package io.dlock.election.ring;

import io.dlock.election.common.ElectionSupport;
import io.dlock.election.ring.RingMessage.Ack;
import io.dlock.election.ring.RingMessage.Coordinator;
import io.dlock.election.ring.RingMessage.Election;
import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionEffects;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.NodeId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Ring election with the list of live ids: the election message collects the ids of the live
 * nodes as it goes round; back at its initiator it turns into COORDINATOR, which goes round once
 * more so that every live node learns the leader (the highest id of the list) and the members,
 * which it reports with the leader ({@link ElectionEffects#leaderElected(NodeId, List)}, shown to
 * the application as {@link io.dlock.LeaderChange#members()}).
 *
 * <p><b>Source.</b> Source notes S0 (docs/algorithms.md §0.6) (Ring Algorithm), as restated in docs/algorithms.md
 * B2, rules 1-5; A. S. Tanenbaum and M. van Steen, <i>Distributed Systems</i>, §6.5.
 *
 * <p><b>Assumptions.</b> Logical ring known to all (the context's ring); fail-stop crashes detected
 * by a missing ACK within {@code ack-timeout-ms}, which must exceed a round trip; FIFO not required.
 *
 * <p><b>Cost.</b> Per initiator with n live nodes: n ELECTION + n COORDINATOR + 2n ACK; k
 * concurrent initiators: k times that (the source notes: "duplicate messages, little traffic impact"). Each
 * crashed node costs one unanswered attempt (and one timeout) the first time a circulation reaches
 * it; its predecessor remembers it and skips it afterwards.
 *
 * <p><b>Deviations.</b> Each forwarded message carries a hop number that its ACK names (docs/algorithms.md
 * gives the ACK no content), so a late ACK cannot acknowledge another hop. A node remembers the
 * successors it found dead for the rest of the run (docs/algorithms.md: "mark the successor crashed"), drops
 * them from the lists it forwards, and ends a circulation whose initiator it finds dead:
 * a COORDINATOR that would have to skip its dead initiator has been everywhere, and is not
 * forwarded again (it used to circle for ever, since only its initiator stops it); an ELECTION whose
 * initiator died turns into COORDINATOR at the first node already in its list, as usual.
 */
final class Ring implements ElectionProtocol<RingMessage> {

    /*
     * Overview.
     *
     * State: dead (members whose ACK did not come); pending (hop -> the message and the member it
     * was sent to, while its ACK is awaited; a timer "ack-<hop>" runs for each); nextHop.
     *
     * Invariants:
     *  - A circulation visits every live node once as ELECTION (each appends itself; only the
     *    initiator finds itself in the list) and once as COORDINATOR (it stops at its initiator).
     *  - A message is never lost while its sender lives: if the successor does not ACK, the sender
     *    marks it dead and sends the same content to the next member (rule 5), down to itself.
     *  - The list of a COORDINATOR holds every live node, so max(list) is the highest live id.
     */

    private static final String ACK_TIMER = "ack-";

    private final NodeId self;
    private final ElectionContext<RingMessage> context;
    private final ElectionEffects<RingMessage> effects;
    private final long ackTimeout;
    private final Set<NodeId> dead = new HashSet<>();
    private final Map<Long, Pending> pending = new TreeMap<>();
    private long nextHop;

    /** A forwarded message awaiting its ACK: the content (hop to be replaced) and its target. */
    private record Pending(RingMessage message, NodeId target) {
    }

    Ring(ElectionContext<RingMessage> context, long ackTimeout) {
        this.self = context.self();
        this.context = context;
        this.effects = context.effects();
        this.ackTimeout = ackTimeout;
    }

    @Override
    public void onStart() {
        forward(new Election(1, self, List.of(self))); // rule 1
    }

    @Override
    public void onMessage(NodeId from, RingMessage message) {
        if (message instanceof Election e) {
            effects.send(from, new Ack(e.hop())); // rule 2
            if (e.list().contains(self)) {
                // Back at the initiator (or, if the initiator died, at the first node of the list
                // after it): the list is complete.
                List<NodeId> members = withoutDead(e.list());
                effects.leaderElected(ElectionSupport.max(members), sorted(members));
                forward(new Coordinator(1, e.initiator(), members));
            } else {
                List<NodeId> list = new ArrayList<>(e.list());
                list.add(self);
                forward(new Election(1, e.initiator(), list));
            }
        } else if (message instanceof Coordinator c) {
            effects.send(from, new Ack(c.hop())); // rule 3
            effects.leaderElected(ElectionSupport.max(c.list()), sorted(c.list()));
            if (!c.initiator().equals(self)) {
                forward(c);
            }
        } else if (message instanceof Ack a) {
            if (pending.remove(a.hop()) != null) {
                effects.cancelTimer(ACK_TIMER + a.hop());
            }
        }
    }

    @Override
    public void onTimer(String name) {
        if (!name.startsWith(ACK_TIMER)) {
            return;
        }
        Pending p = pending.remove(Long.parseLong(name.substring(ACK_TIMER.length())));
        if (p != null) {
            // Rule 5: the successor is presumed crashed; try the next one.
            dead.add(p.target());
            forward(p.message());
        }
    }

    /** {@code list} in ascending id order: the members the leader change reports. */
    private static List<NodeId> sorted(List<NodeId> list) {
        return list.stream().sorted().toList();
    }

    /** {@code list} without the members this node found dead. */
    private List<NodeId> withoutDead(List<NodeId> list) {
        List<NodeId> alive = new ArrayList<>(list);
        alive.removeAll(dead);
        return alive;
    }

    /**
     * Rule 5: sends {@code message} (with a fresh hop number) to the first member after me not known
     * dead, the lists without the dead members. A COORDINATOR whose initiator is dead and would be
     * skipped has gone round: it stops here.
     */
    private void forward(RingMessage message) {
        NodeId target = self;
        for (int step = 1; step <= context.ring().size(); step++) {
            NodeId candidate = context.ringMember(step);
            if (!dead.contains(candidate)) {
                target = candidate;
                break;
            }
            if (message instanceof Coordinator c && candidate.equals(c.initiator())) {
                return; // its initiator is dead: every live node has seen it
            }
        }
        long hop = ++nextHop;
        RingMessage stamped = message instanceof Election e
                ? new Election(hop, e.initiator(), withoutDead(e.list()))
                : new Coordinator(hop, ((Coordinator) message).initiator(), withoutDead(((Coordinator) message).list()));
        pending.put(hop, new Pending(stamped, target));
        effects.send(target, stamped);
        effects.setTimer(ACK_TIMER + hop, ackTimeout);
    }
}
