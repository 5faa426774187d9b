package io.dlock.election.changroberts;

import io.dlock.election.changroberts.ChangRobertsMessage.Elected;
import io.dlock.election.changroberts.ChangRobertsMessage.Election;
import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionEffects;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.NodeId;

/**
 * Chang and Roberts' election on a unidirectional ring: a node forwards a candidate id larger than
 * its own, swallows a smaller one (after entering with its own id), and declares itself leader when
 * its own id comes back; its ELECTED message then goes round once and is absorbed by the leader.
 *
 * <p><b>Source.</b> Source notes S2 (docs/algorithms.md §0.6) (Chang-Roberts アルゴリズム: step lists and
 * pseudocode), as restated in docs/algorithms.md B4 (canonical rules 1-3); E. Chang and R. Roberts, "An improved
 * algorithm for decentralized extrema-finding in circular configurations of processes", CACM
 * 22(5):281-283, 1979.
 *
 * <p><b>Assumptions.</b> Unidirectional ring; reliable <em>FIFO</em> channels (ELECTED never
 * overtakes an ELECTION, so nothing reaches a node after it learned the leader); no crash during the
 * run; any non-empty set of initiators.
 *
 * <p><b>Cost</b> (all initiate): ELECTION 2n-1 when ids increase along the ring, n(n+1)/2 when they
 * decrease, n&middot;H_n on average; plus exactly n ELECTED. Time 2n (unit delay).
 *
 * <p><b>Deviations from the source notes</b> (docs/algorithms.md F25, CR-7): the missing brace of {@code if (mode ==
 * elected)} is restored (the literal code stops after its first foreign message); the leader absorbs
 * its own ELECTED; the comparison is with the node's own id (classic rule), the source notes' comparison
 * with the largest id seen so far is option {@code seed-max-seen}. The leader learns it is the leader
 * when its own id comes back (rule 2; time n with unit delays when all initiate, docs/algorithms.md CR-6), the
 * others when ELECTED reaches them (by 2n-1); the leader absorbs its ELECTED at 2n, so the run ends
 * with no message in flight.
 */
final class ChangRoberts implements ElectionProtocol<ChangRobertsMessage> {

    /*
     * Overview.
     *
     * State: participant; best (seed-max-seen only: the largest id seen, own included); done (set
     * when ELECTED arrives, including the leader's own, which it absorbs). The leader is reported to
     * the effects once: by the leader when its id comes back, by the others when ELECTED arrives.
     *
     * Invariants:
     *  - Classic rule: a node forwards ELECTION(x) iff x > own id, so id x travels exactly as far as
     *    the first larger id along the ring; only the maximum comes back to its owner (CR-1..CR-3).
     *  - With FIFO, every ELECTION a node sends precedes, on its outgoing link, the ELECTED it
     *    forwards later, and ELECTED starts only after the maximum's id went round: no ELECTION is
     *    in flight behind it, so nothing reaches a node after it learned the leader.
     *  - ELECTED is sent once by the maximum, forwarded once by every other node and absorbed by the
     *    maximum: exactly n messages.
     */

    private final NodeId self;
    private final NodeId successor;
    private final ElectionEffects<ChangRobertsMessage> effects;
    private final boolean seedMaxSeen;

    private boolean participant;
    private NodeId best;
    private boolean done;

    ChangRoberts(ElectionContext<ChangRobertsMessage> context, boolean seedMaxSeen) {
        this.self = context.self();
        this.successor = context.successor();
        this.effects = context.effects();
        this.seedMaxSeen = seedMaxSeen;
        this.best = self;
    }

    @Override
    public void onStart() {
        if (!participant) {
            participant = true; // rule 1
            effects.send(successor, new Election(self));
        }
    }

    @Override
    public void onMessage(NodeId from, ChangRobertsMessage message) {
        if (done) {
            return;
        }
        if (message instanceof Election e) {
            if (seedMaxSeen) {
                onElectionMaxSeen(e.id());
            } else {
                onElection(e.id());
            }
        } else if (message instanceof Elected e) {
            // Rule 3.
            participant = false;
            done = true;
            if (e.leader().equals(self)) {
                return; // our own ELECTED came back: absorb it; we knew since our id came back (CR-6)
            }
            effects.send(successor, e);
            effects.leaderElected(e.leader());
        }
    }

    /** Rule 2, classic: compare with the own id. */
    private void onElection(NodeId x) {
        int cmp = x.compareTo(self);
        if (cmp > 0) {
            participant = true;
            effects.send(successor, new Election(x));
        } else if (cmp < 0) {
            if (!participant) {
                participant = true;
                effects.send(successor, new Election(self));
            }
        } else {
            iAmTheLeader(); // my id went all the way round
        }
    }

    /** Rule 2, {@code x == me}: leader = me, known now (CR-6: at time n when all initiate); ELECTED tells the others. */
    private void iAmTheLeader() {
        effects.send(successor, new Elected(self));
        effects.leaderElected(self);
    }

    /** Rule 2, variant {@code seed-max-seen}: compare with the largest id seen so far. */
    private void onElectionMaxSeen(NodeId x) {
        if (x.equals(self)) {
            iAmTheLeader();
        } else if (!participant) {
            participant = true;
            best = x.compareTo(self) > 0 ? x : self;
            effects.send(successor, new Election(best));
        } else if (x.compareTo(best) > 0) {
            best = x;
            effects.send(successor, new Election(x));
        }
    }
}
