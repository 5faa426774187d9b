package io.dlock.mutex.ricartagrawala;

import io.dlock.mutex.common.FencedMutexProtocol;
import io.dlock.mutex.common.NodeLongMap;
import io.dlock.mutex.common.Permissions;
import io.dlock.mutex.ricartagrawala.RicartAgrawalaMessage.Reply;
import io.dlock.mutex.ricartagrawala.RicartAgrawalaMessage.Request;
import io.dlock.protocol.LogicalClock;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.RequestStamp;
import io.dlock.NodeId;
import io.dlock.spi.View;

/**
 * Ricart and Agrawala's permission-based mutual exclusion: a node that wants the critical section
 * asks every other member; a member answers at once unless it is in the critical section or its own
 * pending request precedes the asker's, in which case it defers the answer until it leaves.
 *
 * <p><b>Source.</b> Source notes S0 (docs/algorithms.md §0.6) (分散アルゴリズム) and notes
 * S4 §2.2, rules RA1-RA4, as restated in docs/algorithms.md A4; G. Ricart and
 * A. K. Agrawala, "An optimal algorithm for mutual exclusion in computer networks", CACM 24(1):9-17,
 * 1981.
 *
 * <p><b>Assumptions.</b> Fully connected; reliable within an epoch; FIFO <em>not</em> required;
 * requests totally ordered by (Lamport timestamp, node id), smaller first. Node {@code i} of the
 * source notes is the member of rank {@code i} in the current {@link View}. A node that crashes without a
 * view change blocks every other requester (docs/algorithms.md RA-5); a view change that removes it unblocks
 * them.
 *
 * <p><b>Cost.</b> 2(N-1) messages per entry (N-1 REQUEST, N-1 REPLY) on any schedule; synchronization
 * delay T; delay before entry 2T. N = 1 enters at once with no message.
 *
 * <p><b>Deviations from the source notes.</b>
 * <ul>
 *   <li>A REPLY names the timestamp of the request it answers and counts only if it answers the
 *       current one, so a duplicated REPLY, or one that answers a duplicated REQUEST of an earlier
 *       round, is ignored. Deferred replies are kept per requester with the newest timestamp.</li>
 *   <li>Fencing tokens: every REPLY carries the highest token its sender has seen; a node entering
 *       takes one more than the highest it has seen; a view change, or creation without
 *       {@link ProtocolContext#startsIdle()}, raises it to the epoch's floor (see
 *       {@link io.dlock.mutex.common.FencedMutexProtocol}).</li>
 *   <li>View changes: answers and deferred replies of departed members are dropped; a waiting node
 *       asks again every member that has not answered (its request or their reply may have been lost
 *       with the old epoch, or the member is new), then re-checks the entry condition, which a
 *       departure may have satisfied.</li>
 * </ul>
 */
final class RicartAgrawala extends FencedMutexProtocol<RicartAgrawalaMessage> {

    /*
     * Overview.
     *
     * State: clock (its value; LogicalClock's observe rule: highest timestamp seen); requesting (from
     * onRequest until onRelease, so also while in the CS); inCS; myTs (timestamp of the current
     * request); replies (members that answered myTs); deferred (requester -> newest timestamp we
     * owe a reply for); highestFence (inherited: highest fencing token seen).
     *
     * Invariants:
     *  - inCS implies requesting, and replies covers every other member of the current view.
     *  - replies only ever holds members whose Reply named myTs; it is cleared by each onRequest.
     *  - deferred is empty unless requesting; it has at most one entry per other member (<= N-1,
     *    docs/algorithms.md RA-4) and is emptied by RA4 before any new request can be made.
     *  - A Reply is never withheld from a request that precedes ours, so the waits-for graph follows
     *    (ts, id) order and has no cycle (notes S4's proof of ME2/ME3): no deadlock.
     *  - ME1 (notes S4): two nodes in the CS would each have replied to the other's current request
     *    while requesting, but of two requesting nodes only the later one replies.
     *
     * Fencing. If i enters before j, the Reply from i that j needed for its current request was
     * sent after i left the CS: had i replied earlier, either i was not requesting then (so i's
     * later request was stamped after j's, j deferred it and i could not enter before j), or i's
     * request was the later one (so again j goes first). That Reply, sent after i's exit, carries
     * i's maxFence >= i's token, so j's token = maxFence + 1 is larger. That holds within an
     * epoch; across a view change a member that left may take the highest token with it, so
     * onView raises maxFence to the epoch's floor (enterFenceEpoch).
     *
     * Duplicates and late messages. A duplicate Request is answered again (a Reply for an old ts is
     * ignored by its receiver) or deferred under the newest ts; a duplicate Reply adds a member
     * that is already in replies. Nothing waits for a Request, so a stale one cannot block anyone.
     */

    private final NodeId self;
    private final MutexEffects<RicartAgrawalaMessage> effects;
    private View view;

    /** The clock's value ({@link LogicalClock}'s observe rule). */
    private long clock;
    private final Permissions replies;
    /**
     * Requester -> timestamp of the newest request of theirs we have deferred; replies go out in member order
     * (a tree map was most of the simulator's time at N = 512).
     */
    private final NodeLongMap deferred = new NodeLongMap();
    private boolean requesting;
    private boolean inCS;
    private long myTs;

    RicartAgrawala(ProtocolContext<RicartAgrawalaMessage> context) {
        super(context.fencingFloor());
        this.self = context.self();
        this.effects = context.effects();
        this.view = context.view();
        this.replies = new Permissions(self);
        if (!context.startsIdle()) {
            enterFenceEpoch(view.epoch()); // the lock may have been used before we knew of it
        }
    }

    @Override
    public void onRequest() {
        if (requesting) {
            throw new IllegalStateException(self + " already has an outstanding request");
        }
        // RA1: timestamp the request, ask every other member
        requesting = true;
        clock = LogicalClock.tick(clock);
        myTs = clock;
        replies.clear();
        effects.broadcast(new Request(myTs));
        enterIfPermitted(); // N = 1
    }

    /**
     * At rest: not requesting, not in the critical section, and no deferred reply owed. The Lamport clock may go:
     * when every member drops its state together, no request is pending anywhere, so no pairwise priority is
     * left to agree on, and every member's clock restarts together.
     */
    @Override
    public boolean atRest() {
        return !requesting && !inCS && deferred.isEmpty();
    }

    @Override
    public void onRelease() {
        if (!inCS) {
            throw new IllegalStateException(self + " is not in the critical section");
        }
        // RA4: leave, then answer every deferred request before any new request can be made
        inCS = false;
        requesting = false;
        // replies go out in member order, as they always have
        deferred.forEach((member, ts) -> effects.send(member, new Reply(ts, highestFence())));
        deferred.clear();
    }

    @Override
    public void onMessage(NodeId from, RicartAgrawalaMessage message) {
        if (message instanceof Request request) {
            onRequestMessage(from, request);
        } else if (message instanceof Reply reply) {
            onReply(from, reply);
        }
    }

    private void onRequestMessage(NodeId from, Request request) {
        long ts = request.timestamp();
        clock = LogicalClock.observe(clock, ts);
        // RA2: defer if in the CS, or if our own pending request precedes theirs
        boolean ourRequestFirst = requesting
                && new RequestStamp(myTs, self).precedes(new RequestStamp(ts, from));
        if (inCS || ourRequestFirst) {
            deferred.mergeMax(from, ts);
        } else {
            effects.send(from, new Reply(ts, highestFence()));
        }
    }

    private void onReply(NodeId from, Reply reply) {
        observeFence(reply.fence());
        // RA3: count only a reply to the current request, once per member
        if (requesting && !inCS && reply.requestTimestamp() == myTs) {
            replies.add(from);
            enterIfPermitted();
        }
    }

    @Override
    public void onView(View newView) {
        view = newView;
        enterFenceEpoch(newView.epoch());
        replies.retainMembersOf(newView);
        deferred.removeKeysIf(member -> !newView.contains(member));
        if (requesting && !inCS) {
            // the old epoch may have lost our request or their reply; new members never saw it
            for (NodeId member : replies.missingIn(newView)) {
                effects.send(member, new Request(myTs));
            }
            enterIfPermitted(); // a member we were waiting for may have left
        }
    }

    /** RA3: enter when every other member of the current view has answered the current request. */
    private void enterIfPermitted() {
        if (requesting && !inCS && replies.isCompleteFor(view)) {
            inCS = true;
            effects.granted(nextFence());
        }
    }

    @Override
    public String toString() {
        return "RicartAgrawala[" + self + (inCS ? " in CS" : requesting ? " waiting ts=" + myTs : " idle")
                + ", replies=" + replies.members() + ", deferred=" + deferred + ", clock=" + clock
                + ", maxFence=" + highestFence() + "]";
    }
}
