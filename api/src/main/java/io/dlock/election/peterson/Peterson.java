package io.dlock.election.peterson;

import io.dlock.election.peterson.PetersonMessage.Elected;
import io.dlock.election.peterson.PetersonMessage.One;
import io.dlock.election.peterson.PetersonMessage.Two;
import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionEffects;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.NodeId;

/**
 * Peterson's O(n log n) unidirectional election: Franklin's test applied by each active node on
 * behalf of its nearest active predecessor, whose value survives (moved one active position on) iff
 * it is larger than both of its active neighbours' values. The last active node holds the maximum
 * and announces it with ELECTED.
 *
 * <p><b>Source.</b> Source notes S2 (docs/algorithms.md §0.6) (Patersonのアルゴリズム, pseudocode with
 * {@code tid}, {@code ntid}, {@code nntid}), as corrected in docs/algorithms.md B6 (canonical rules 1-5);
 * G. L. Peterson, "An O(n log n) unidirectional algorithm for the circular extrema problem", ACM
 * TOPLAS 4(4):758-762, 1982. (This is the ring election, not Peterson's two-thread lock.)
 *
 * <p><b>Assumptions.</b> Unidirectional ring; reliable <em>FIFO</em> channels (ONE before TWO on
 * every link, relays keep the order); no crash during the run; every node takes part (it wakes up
 * on {@code onStart} or on its first message).
 *
 * <p><b>Cost.</b> Every phase with m &ge; 2 actives costs 2n; the last phase (one active, whose ONE
 * goes round) n, and ELECTED n: 2nK in total, K &le; &lfloor;log2 n&rfloor; + 1; 4n when ids are
 * sorted round the ring, 2 for n = 1.
 *
 * <p><b>Deviations from the source notes</b> (docs/algorithms.md B6 errata, F26): name Peterson; typos fixed; the
 * leader test is {@code ntid == tid} (the source notes' {@code ntid == my_id} fires spuriously and is
 * overwritten); relays forward everything, including a value equal to their own id (the source notes' relay
 * loop stops there, so the last active node and the others never terminate: docs/algorithms.md PE-5); n = 1
 * terminates; the winner sends ELECTED(max), which makes the max-id node the leader and tells
 * everyone. The winner learns the result when its ELECTED comes back.
 */
final class Peterson implements ElectionProtocol<PetersonMessage> {

    /*
     * Overview.
     *
     * State: mode (ASLEEP, ACTIVE, RELAY, WINNER, DONE); tid (the value this active node stands
     * for); ntid (the predecessor's value of this phase); expectTwo (ONE received, TWO awaited).
     *
     * Invariants (FIFO):
     *  - In each phase an active node sends exactly one ONE and, unless it wins, one TWO, and
     *    receives the ONE then the TWO of its nearest active predecessor: the values of the actives
     *    keep their cyclic order and the survivors are the local maxima of that sequence, so the
     *    maximum value always survives and K matches Franklin's.
     *  - ntid == tid only when the ONE went all the way round: one active left, tid is the maximum.
     *  - ELECTED is the last message on every link: exactly n of them, absorbed by the winner.
     */

    private enum Mode { ASLEEP, ACTIVE, RELAY, WINNER, DONE }

    private final NodeId self;
    private final NodeId successor;
    private final ElectionEffects<PetersonMessage> effects;

    private Mode mode = Mode.ASLEEP;
    private NodeId tid;
    private NodeId ntid;
    private boolean expectTwo;

    Peterson(ElectionContext<PetersonMessage> context) {
        this.self = context.self();
        this.successor = context.successor();
        this.effects = context.effects();
    }

    @Override
    public void onStart() {
        wakeUp();
    }

    @Override
    public void onMessage(NodeId from, PetersonMessage message) {
        if (mode == Mode.DONE) {
            return;
        }
        wakeUp();
        if (message instanceof Elected e) {
            // Rule 5.
            if (mode != Mode.WINNER) {
                effects.send(successor, e);
            }
            mode = Mode.DONE;
            effects.leaderElected(e.leader());
        } else if (mode == Mode.RELAY) {
            effects.send(successor, message); // rule 4
        } else if (mode == Mode.ACTIVE) {
            if (message instanceof One one && !expectTwo) {
                // Rule 2.
                ntid = one.value();
                if (ntid.equals(tid)) {
                    mode = Mode.WINNER;
                    effects.send(successor, new Elected(tid));
                } else {
                    expectTwo = true;
                    effects.send(successor, new Two(max(tid, ntid)));
                }
            } else if (message instanceof Two two && expectTwo) {
                // Rule 3.
                NodeId nntid = two.value();
                expectTwo = false;
                if (ntid.compareTo(max(tid, nntid)) >= 0) {
                    tid = ntid;
                    effects.send(successor, new One(tid));
                } else {
                    mode = Mode.RELAY;
                }
            }
        }
    }

    /** Rule 1. */
    private void wakeUp() {
        if (mode == Mode.ASLEEP) {
            mode = Mode.ACTIVE;
            tid = self;
            expectTwo = false;
            effects.send(successor, new One(tid));
        }
    }

    private static NodeId max(NodeId a, NodeId b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
