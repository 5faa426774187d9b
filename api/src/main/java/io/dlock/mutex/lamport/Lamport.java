package io.dlock.mutex.lamport;

import io.dlock.mutex.common.FencedMutexProtocol;
import io.dlock.mutex.common.NodeLongMap;
import io.dlock.mutex.common.Permissions;
import io.dlock.mutex.common.RequestQueue;
import io.dlock.mutex.lamport.LamportMessage.Ack;
import io.dlock.mutex.lamport.LamportMessage.Release;
import io.dlock.mutex.lamport.LamportMessage.Request;
import io.dlock.protocol.LogicalClock;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.RequestStamp;
import io.dlock.NodeId;
import io.dlock.spi.View;

/**
 * Lamport's mutual exclusion: every node keeps a replica of one request queue ordered by logical
 * timestamps; a node enters when its own request heads its queue and every other member has
 * acknowledged it; leaving, it tells everybody to remove the request.
 *
 * <p><b>Source.</b> Source notes S4 (docs/algorithms.md §0.6) §2.1, rules LA1-LA5, as restated in docs/algorithms.md
 * A3; L. Lamport, "Time, clocks, and the ordering of events in a distributed system", CACM
 * 21(7):558-565, 1978; S. Ghosh, <i>Distributed Systems: An Algorithmic Approach</i>, ch. 7.
 *
 * <p><b>Assumptions.</b> Fully connected; reliable within an epoch; <b>FIFO channels required</b>: on
 * a reordering channel, with {@code immediate-ack}, the ack of a later request can overtake the
 * sender's own earlier request, and both nodes enter (docs/algorithms.md LAM-3); with the default deferred acks
 * mutual exclusion survives reordering (see the argument in the implementation notes: every ACK and
 * RELEASE names its request), but fencing tokens do not, since they travel on RELEASE and ACK: a node
 * can enter before the previous holder's RELEASE reached it. The definition declares
 * {@code requiresFifo} for both. Node {@code i} of the source notes is the member of rank {@code i} in the
 * current {@link View}.
 *
 * <p><b>Cost.</b> 3(N-1) messages per entry (N-1 REQUEST, N-1 ACK, N-1 RELEASE) with either ack rule;
 * synchronization delay T; delay before entry 2T. N = 1 enters at once with no message.
 *
 * <p><b>Ack rule.</b> By default a node in the critical section defers its acks until it leaves (the
 * source notes' LA2); with option {@code immediate-ack} it acks at once, as in Lamport's paper (docs/algorithms.md F19).
 *
 * <p><b>Deviations from the source notes.</b>
 * <ul>
 *   <li>An ACK and a RELEASE name the request they concern: an ack counts only for the current
 *       request, and a node remembers the newest request of each member it has seen released, so a
 *       duplicated REQUEST arriving after its RELEASE is ignored instead of blocking the queue
 *       forever. A duplicated REQUEST that is still pending gets a fresh ACK (acks are idempotent).
 *       A newer REQUEST from a member replaces its older one in the queue, as an implied RELEASE
 *       (the RELEASE can be lost with an old epoch while the re-sent REQUEST arrives).</li>
 *   <li>With {@code immediate-ack}, a node in the critical section still defers its ack to a member
 *       that has not acked the request it holds, i.e. one that joined while it was in the critical
 *       section: that member's request may be stamped before it learned of the holder, and an
 *       immediate ack would let it enter. With a static membership every member has acked, so this
 *       is exactly Lamport's rule.</li>
 *   <li>Fencing tokens: ACK and RELEASE carry the highest token the sender has seen; a node entering
 *       takes one more than the highest it has seen; a view change, or creation without
 *       {@link ProtocolContext#startsIdle()}, raises it to the epoch's floor (see
 *       {@link io.dlock.mutex.common.FencedMutexProtocol}).</li>
 *   <li>View changes: departed members are dropped from the queue and every per-member map; a node
 *       with a request (waiting or in the CS) sends it again to every member that has not acked it
 *       (lost in the old epoch, or a new member that must learn of a held lock); an idle node sends
 *       its last RELEASE again, since a lost RELEASE would leave its request at the head of some
 *       queue forever. These view-change messages are not part of the per-entry count.</li>
 * </ul>
 */
final class Lamport extends FencedMutexProtocol<LamportMessage> {

    /*
     * Overview.
     *
     * State: clock (its value; LogicalClock's witness rule); queue (member -> timestamp of its pending request,
     * including our own; at most one per member, ordered by RequestStamp); releasedUpTo (member ->
     * newest request timestamp of theirs we saw released); myTs (our pending request, 0 = none);
     * lastReleasedTs (our newest released request, for re-sending RELEASE after a view change);
     * inCS; acks (members that acked myTs); deferredAcks (member -> newest request timestamp whose
     * ack we owe after leaving); highestFence (inherited: highest fencing token seen); immediateAck.
     *
     * Invariants:
     *  - myTs != 0 iff queue holds our entry with myTs; inCS implies myTs != 0.
     *  - LA3: inCS became true only when acks covered every other member of the view and our
     *    entry was the smallest RequestStamp in the queue.
     *  - queue never holds an entry (j, t) with t <= releasedUpTo[j]; entries only grow per member,
     *    and a newer request of j releases its older one.
     *  - deferredAcks is empty unless inCS (entries are added only in the CS, flushed by LA4), and
     *    with immediate-ack it only holds members that joined while we were in the CS.
     *  - ME1 (FIFO): suppose i and j are both in the CS and i's request precedes j's. j had i's
     *    ack of j's request. Had i sent its request before that ack, FIFO delivered it to j first
     *    and it sat ahead of j's own in j's queue, so j could not enter; had i sent it after, i had
     *    witnessed j's timestamp and its request would be the later one. Either way: contradiction.
     *  - ME1 without FIFO, deferred acks (the default; docs/algorithms.md says violations were found without
     *    FIFO, but in a model whose ACK and RELEASE did not name their request). Within an epoch,
     *    suppose X enters at eX, then Y enters at eY > eX while X is still in the CS, with requests
     *    rX, rY. (1) Y counted an ACK naming rY from X. X, in the CS from eX to past eY, defers every
     *    ack, so it sent that ACK before eX, on receiving rY (or when flushing after an earlier CS):
     *    rY was in X's queue from before eX, and only a RELEASE naming rY or later, or a newer
     *    REQUEST of Y, removes it; Y sends either only after leaving its CS, after eY. So rY was in
     *    X's queue at eX and X's entry rule gives rX < rY. (2) X counted an ACK naming rX from Y,
     *    sent before eX, so Y had queued rX before eX (a REQUEST at or below releasedUpTo gets no
     *    ack). At eY, Y's entry rule needs rX gone from its queue, which only X's RELEASE naming rX,
     *    or a newer REQUEST of X, does; X sends either only after its CS, after eY. So rX, smaller
     *    than rY, heads Y's queue at eY: contradiction. Nothing above uses the order of delivery,
     *    only that an ACK and a RELEASE name their request (a stale ACK counts for nothing, a stale
     *    RELEASE removes nothing newer) and that a node in the CS sends no ack. With immediate-ack
     *    step (1) fails: X may ack rY inside its CS, before rY (or rX at Y) is queued, which is
     *    LAM-3's violation. LamportFifoTest searches reordering runs for both variants.
     *  - A member j that joins while i is in the CS gets i's request from i's onView before any
     *    ack from i (FIFO). Until j acks that request, i defers its acks to j (even with
     *    immediate-ack); a request j stamped before learning of i reaches i before j's ack (FIFO),
     *    so it is deferred, and one stamped after is later than i's and waits behind it in j's
     *    queue.
     *
     * Fencing. If i enters before j, j had queued i's request (it acked it, or got it through i's
     * onView when it joined), and j can enter only once that entry is gone; only i's RELEASE
     * removes it (or i's departure), and the RELEASE carries i's maxFence >= i's token. So j's
     * token = maxFence + 1 is larger. That holds within an epoch; across a view change a member
     * that left may take the highest token with it, so onView raises maxFence to the epoch's floor
     * (enterFenceEpoch).
     *
     * Duplicates. A duplicate REQUEST of a pending request re-enters the same queue entry and is
     * acked again; one of a released request is ignored (releasedUpTo); a duplicate ACK adds a
     * member already in acks, or names an old request; a duplicate RELEASE removes nothing more.
     */

    private final NodeId self;
    private final MutexEffects<LamportMessage> effects;
    private final boolean immediateAck;
    private View view;

    /** The clock's value ({@link LogicalClock}'s witness rule). */
    private long clock;
    private final Permissions acks;
    /** Member -> timestamp of its pending request, our own included (looked up on every message). */
    private final NodeLongMap queue = new NodeLongMap();
    /**
     * The same requests as {@link #queue}, ordered by (timestamp, member): LA3 asks whether any request precedes
     * ours, that is whether the first one does (O(log N); scanning the queue made Lamport O(N) per message).
     */
    private final RequestQueue ordered = new RequestQueue();
    /** Member -> newest of its request timestamps seen released (lookups only). */
    private final NodeLongMap releasedUpTo = new NodeLongMap();
    /** Member -> newest request timestamp whose ack we owe after leaving the CS. */
    private final NodeLongMap deferredAcks = new NodeLongMap();
    private long myTs;
    private long lastReleasedTs;
    private boolean inCS;

    Lamport(ProtocolContext<LamportMessage> context, boolean immediateAck) {
        super(context.fencingFloor());
        this.self = context.self();
        this.effects = context.effects();
        this.view = context.view();
        this.immediateAck = immediateAck;
        this.acks = new Permissions(self);
        if (!context.startsIdle()) {
            enterFenceEpoch(view.epoch()); // the lock may have been used before we knew of it
        }
    }

    @Override
    public void onRequest() {
        if (myTs != 0) {
            throw new IllegalStateException(self + " already has an outstanding request");
        }
        // LA1: timestamp the request, queue it locally, send it to every other member
        myTs = tick();
        enqueue(self, myTs);
        acks.clear();
        effects.broadcast(new Request(myTs));
        enterIfFirst(); // N = 1
    }

    /**
     * At rest: no pending request in the queue (ours or another member's), not in the critical section, no
     * deferred acknowledgement owed. Clocks and released-up-to marks may go: with every member at rest at once and
     * nothing in flight, no request is pending anywhere, and every member restarts from nothing together.
     */
    @Override
    public boolean atRest() {
        return queue.isEmpty() && !inCS && deferredAcks.isEmpty();
    }

    @Override
    public void onRelease() {
        if (!inCS) {
            throw new IllegalStateException(self + " is not in the critical section");
        }
        // LA4: remove our request, tell every other member, then send the acks we deferred
        dequeue(self);
        long released = myTs;
        lastReleasedTs = released;
        myTs = 0;
        inCS = false;
        effects.broadcast(new Release(released, tick(), highestFence()));
        deferredAcks.forEach((member, ts) -> effects.send(member, new Ack(ts, tick(), highestFence())));
        deferredAcks.clear();
    }

    @Override
    public void onMessage(NodeId from, LamportMessage message) {
        if (message instanceof Request request) {
            onRequestMessage(from, request);
        } else if (message instanceof Ack ack) {
            onAck(from, ack);
        } else if (message instanceof Release release) {
            onReleaseMessage(from, release);
        }
    }

    private void onRequestMessage(NodeId from, Request request) {
        long ts = request.timestamp();
        clock = LogicalClock.witness(clock, ts);
        if (ts <= releasedUpTo.getOrDefault(from, 0L)) {
            return; // a duplicate of a request already released
        }
        // LA2: queue the request; ack now, or after leaving the CS
        boolean isQueued = queue.containsKey(from);
        long queued = queue.getOrDefault(from, 0L);
        if (!isQueued || queued < ts) {
            if (isQueued) {
                // a member has one request at a time, so a newer one releases the older: its
                // RELEASE was lost with an old epoch (this request is the re-sent one)
                releasedUpTo.mergeMax(from, queued);
            }
            enqueue(from, ts);
        }
        // a member that has not acked our request joined while we were in the CS: it does not
        // know we hold the lock, so even with immediate-ack its ack waits until we leave
        if (inCS && (!immediateAck || !acks.contains(from))) {
            deferredAcks.mergeMax(from, ts);
        } else {
            effects.send(from, new Ack(ts, tick(), highestFence()));
        }
        enterIfFirst(); // an implied release may have put our request at the head
    }

    private void onAck(NodeId from, Ack ack) {
        clock = LogicalClock.witness(clock, ack.timestamp());
        observeFence(ack.fence());
        if (myTs != 0 && ack.requestTimestamp() == myTs) {
            acks.add(from);
            enterIfFirst();
        }
    }

    private void onReleaseMessage(NodeId from, Release release) {
        clock = LogicalClock.witness(clock, release.timestamp());
        observeFence(release.fence());
        // LA5: remove the released request (and nothing newer) from the queue
        long released = release.requestTimestamp();
        releasedUpTo.mergeMax(from, released);
        if (queue.containsKey(from) && queue.getOrDefault(from, 0L) <= released) {
            dequeue(from);
        }
        enterIfFirst();
    }

    @Override
    public void onView(View newView) {
        view = newView;
        enterFenceEpoch(newView.epoch());
        queue.removeKeysIf(member -> !newView.contains(member));
        ordered.removeIf(stamp -> !newView.contains(stamp.node()));
        releasedUpTo.removeKeysIf(member -> !newView.contains(member));
        deferredAcks.removeKeysIf(member -> !newView.contains(member));
        acks.retainMembersOf(newView);
        if (myTs != 0) {
            // our request or its ack may have been lost; a new member must learn of a held lock
            for (NodeId member : acks.missingIn(newView)) {
                effects.send(member, new Request(myTs));
            }
        } else if (lastReleasedTs != 0) {
            // our last RELEASE may have been lost, leaving our old request in someone's queue
            effects.broadcast(new Release(lastReleasedTs, tick(), highestFence()));
        }
        enterIfFirst(); // a member we were waiting for may have left
    }

    /** LA3: enter when every other member has acked our request and it heads our queue. */
    private void enterIfFirst() {
        if (myTs == 0 || inCS || !acks.isCompleteFor(view)) {
            return;
        }
        if (!ordered.isEmpty() && ordered.first().precedes(new RequestStamp(myTs, self))) {
            return; // some queued request precedes ours
        }
        inCS = true;
        effects.granted(nextFence());
    }

    /** The clock step before every timestamped send ({@link LogicalClock#tick(long)}): returns the new timestamp. */
    private long tick() {
        clock = LogicalClock.tick(clock);
        return clock;
    }

    /** Queues {@code member}'s request {@code ts}, replacing its older one. */
    private void enqueue(NodeId member, long ts) {
        if (queue.containsKey(member)) {
            ordered.remove(new RequestStamp(queue.getOrDefault(member, 0L), member));
        }
        queue.put(member, ts);
        ordered.add(new RequestStamp(ts, member));
    }

    /** Removes {@code member}'s request from the queue. */
    private void dequeue(NodeId member) {
        if (queue.containsKey(member)) {
            ordered.remove(new RequestStamp(queue.getOrDefault(member, 0L), member));
            queue.remove(member);
        }
    }

    @Override
    public String toString() {
        return "Lamport[" + self + (inCS ? " in CS" : myTs != 0 ? " waiting ts=" + myTs : " idle")
                + ", queue=" + queue + ", acks=" + acks.members() + ", deferredAcks=" + deferredAcks
                + ", clock=" + clock + ", maxFence=" + highestFence() + "]";
    }
}
