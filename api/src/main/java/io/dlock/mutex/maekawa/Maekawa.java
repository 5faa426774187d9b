package io.dlock.mutex.maekawa;

import io.dlock.mutex.common.EpochBarrier;
import io.dlock.mutex.common.FencedMutexProtocol;
import io.dlock.mutex.common.NodeLongMap;
import io.dlock.mutex.common.NodeSet;
import io.dlock.mutex.common.PeerState;
import io.dlock.mutex.common.RequestQueue;
import io.dlock.mutex.maekawa.MaekawaMessage.Failed;
import io.dlock.mutex.maekawa.MaekawaMessage.Inquire;
import io.dlock.mutex.maekawa.MaekawaMessage.Locked;
import io.dlock.mutex.maekawa.MaekawaMessage.Relinquish;
import io.dlock.mutex.maekawa.MaekawaMessage.Release;
import io.dlock.mutex.maekawa.MaekawaMessage.Request;
import io.dlock.mutex.maekawa.MaekawaMessage.State;
import io.dlock.protocol.LogicalClock;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.RequestStamp;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Maekawa's quorum-based mutual exclusion: a node enters when every member of its request set
 * (quorum) {@code S_i} has locked itself for its request; request sets pairwise intersect, so two
 * nodes can never hold all their locks at once. Every node is both a requester and an arbiter.
 *
 * <p><b>Source.</b> Source notes S4 (docs/algorithms.md §0.6) §2.3 (rules MA1-MA5, the deadlock
 * example, and the source notes' heading "Maekawa2" for the failed/inquire/relinquish version, which the source notes
 * names but leaves unwritten), as restated in docs/algorithms.md A10; M. Maekawa,
 * "A √N algorithm for mutual exclusion in decentralized systems", ACM TOCS 3(2):145-159, 1985; the
 * deadlock-free rules from Kshemkalyani and Singhal, <i>Distributed Computing</i>, 2008, ch. 9.
 *
 * <p><b>Variants.</b> The default ({@code maekawa}) is the deadlock-free version with FAILED,
 * INQUIRE and RELINQUISH and docs/algorithms.md's <em>displacement rule</em> (an arbiter that queues a request
 * ahead of the previous head of its queue sends that head a FAILED if it had none); without that rule
 * the published rules still deadlock in a few percent of random runs. The basic version
 * (option {@code basic}, MA1-MA5) can deadlock, as the source notes show.
 *
 * <p><b>Assumptions.</b> Fully connected; reliable within an epoch; <b>FIFO channels required</b>
 * (declared by the definition: a RELEASE must not overtake the REQUEST it follows, nor a RELINQUISH a
 * LOCKED). Node {@code i} of the source notes is the member of rank {@code i}; the request sets are those of
 * {@link Quorums} for the view's size: by default built from the projective plane of order q, the
 * smallest prime power with {@code q^2 + q + 1 >= N}, so {@code K <= q + 1} (Maekawa's own plane for
 * N = 7); with option {@code quorum=grid}, rows and columns of a grid ({@code K} about {@code 2√N}).
 * Priorities are (Lamport timestamp, node id), smaller first.
 *
 * <p><b>Cost.</b> Without contention {@code 3(K-1)} messages per entry, K = |S_i| (K-1 REQUEST,
 * LOCKED, RELEASE; the node's own arbiter is handled locally): 6 for N = 7 (K = 3), 9 for N = 13
 * (K = 4), 15 for N = 31 (K = 6); with grid quorums 12 for N = 9 and 18 for N = 16. Under contention the deadlock-free version adds FAILED, INQUIRE, RELINQUISH and
 * re-LOCKED messages, up to about 5(K-1) (Maekawa's 3√N to 5√N). Synchronization delay 2T
 * (RELEASE to an arbiter, LOCKED to the next).
 *
 * <p><b>Deviations from the source notes.</b>
 * <ul>
 *   <li>Every message names the request (timestamp) it concerns; LOCKED, INQUIRE and RELINQUISH also
 *       name the arbiter's grant number, so a duplicated LOCKED, a stale INQUIRE and a duplicated
 *       RELINQUISH are ignored. An arbiter ignores a REQUEST not newer than the last one it saw from
 *       that requester (a duplicate, or one delivered after its RELEASE). A FAILED from an arbiter
 *       whose lock the requester holds is stale and ignored.</li>
 *   <li>Fencing tokens: every LOCKED carries the highest token its arbiter has seen and every
 *       RELEASE the releaser's token; a node entering takes one more than the highest it has seen.
 *       Two consecutive holders' quorums share an arbiter, which locked for the second only after the
 *       first one's RELEASE, so the second token is larger.</li>
 *   <li>View changes and start on first use (not in the source notes): a {@link EpochBarrier}. Every member
 *       announces its state (STATE: idle, waiting with its timestamp, or holding with its token);
 *       arbiters drop their locks and queues and grant nothing until every member has announced. Then
 *       each arbiter in the holder's new quorum locks for the holder (with no message), and the
 *       waiting requests announced to an arbiter of their new quorum are queued as REQUESTs and
 *       served by the usual rules. A requester forgets the locks of the old epoch and waits for
 *       the LOCKED of its new quorum. These messages are not part of the per-entry counts.</li>
 * </ul>
 */
final class Maekawa extends FencedMutexProtocol<MaekawaMessage> {

    /*
     * Overview.
     *
     * Requester state: clock; myTs (current request, 0 if none); requesting (from onRequest to
     * onRelease), inCS; round (RequesterRound, while requesting): locks (arbiter -> grant number of the lock
     * it gave us for myTs), failedFrom, yieldedTo, pendingInquire (docs/algorithms.md A10 deadlock-free rules
     * 3-5); lastGrant (per arbiter, the
     * highest grant number seen, to drop duplicated LOCKED).
     * Arbiter state: lockedFor (request we are locked for, or null) and lockGrant (its grant
     * number); grants (counter of grant numbers); waitQ (priority queue by (ts, id)); notified
     * (queued requesters that know they cannot win here); inquireSent; latest (per requester, the
     * newest timestamp seen); barrier (the EpochBarrier).
     *
     * Self-messages (our own arbiter, our own requester) go through a local queue that is drained
     * at the end of each event, through the same handlers, and are not counted (docs/algorithms.md 0.2).
     *
     * Invariants:
     *  - ME1: an arbiter is locked for at most one request; a requester enters only when every
     *    arbiter of its quorum is locked for its current request, and quorums intersect. A
     *    RELINQUISH returns the lock before the arbiter gives it to anyone else, and a requester
     *    that relinquished removes the arbiter from locks.
     *  - MK-6: every request in waitQ other than its head is in notified; the head is in notified,
     *    or an INQUIRE has been sent for the current lock (inquireSent). This is what the
     *    displacement rule maintains (rule 2c), and what rules out the published rules' 3-cycle.
     *  - Nothing is granted while a barrier holds (barrier.isComplete() is false).
     *  - Requests of one requester arrive in timestamp order (FIFO, and timestamps increase), so a
     *    REQUEST not newer than latest[i] is a duplicate and a newer one means the older is done.
     *
     * Deadlock freedom (deadlock-free version): a requester that defers an INQUIRE has had no
     * FAILED and yielded nothing, so every arbiter of its quorum is locked for it or queues it at
     * the head; priorities are total, so the smallest waiting request is at the head of every queue
     * of its quorum and every arbiter locked for a later request gets that request's RELINQUISH.
     */

    private final NodeId self;
    private final MutexEffects<MaekawaMessage> effects;
    private final boolean deadlockFree;
    private final Quorums.Kind quorumKind;
    /** docs/algorithms.md A10 rule 2c's displacement rule; false only in the test variant of the published rules (MK-5). */
    private final boolean displacementRule;
    private View view;
    /** The request sets of the current view, by rank (shared by every instance of the view's size). */
    private Quorums quorums;
    private final EpochBarrier barrier;

    /** The clock's value ({@link LogicalClock}'s witness rule). */
    private long clock;
    /** Self-messages waiting for local delivery; null while none is (most of the time), made at the first. */
    private Deque<Local> local;

    // requester
    private long myTs;
    private boolean requesting;
    private boolean inCS;
    /** The locks and rule 3-5 bookkeeping of the current request; null while not requesting. */
    private RequesterRound round;
    private final NodeLongMap lastGrant = new NodeLongMap();

    // arbiter
    private RequestStamp lockedFor;
    private long lockGrant;
    private long grants;
    private final RequestQueue waitQ = new RequestQueue();
    private final NodeSet notified = new NodeSet();
    private boolean inquireSent;
    private final NodeLongMap latest = new NodeLongMap();
    /** The holder announced to the current epoch's barrier, if this arbiter is in its quorum. */
    private RequestStamp announcedHolder;

    /** A self-message waiting for local delivery. */
    private record Local(MaekawaMessage message) {
    }

    Maekawa(ProtocolContext<MaekawaMessage> context, boolean deadlockFree, Quorums.Kind quorumKind) {
        this(context, deadlockFree, quorumKind, true);
    }

    /**
     * @param displacementRule false: Maekawa's published rules, which send FAILED only to the arriving
     *                         request (docs/algorithms.md MK-5: they deadlock on some FIFO schedules); test only
     */
    Maekawa(ProtocolContext<MaekawaMessage> context, boolean deadlockFree, Quorums.Kind quorumKind,
            boolean displacementRule) {
        super(context.fencingFloor());
        this.displacementRule = displacementRule;
        this.self = context.self();
        this.effects = context.effects();
        this.deadlockFree = deadlockFree;
        this.quorumKind = quorumKind;
        this.view = context.view();
        this.quorums = Quorums.forSize(view.size(), quorumKind);
        this.barrier = new EpochBarrier(self, view, context.startsIdle());
        if (!context.startsIdle()) {
            enterFenceEpoch(view.epoch()); // the lock may have been used before we knew of it
        }
    }

    /** The ranks of this node's request set S_me in the current view, ascending (members ascend with ranks). */
    private List<Integer> myQuorum() {
        return quorums.of(view.indexOf(self));
    }

    /** Whether this node is in {@code node}'s request set in the current view. */
    private boolean inQuorumOf(NodeId node) {
        return quorums.of(view.indexOf(node)).contains(view.indexOf(self));
    }

    // ---- events -------------------------------------------------------------------------------

    @Override
    public void onRequest() {
        announceIfDue();
        if (requesting) {
            throw new IllegalStateException(self + " already has an outstanding request");
        }
        // MA1: timestamp the request and send it to every member of S_me (self handled locally)
        requesting = true;
        clock = LogicalClock.tick(clock);
        myTs = clock;
        round = new RequesterRound();
        for (int arbiter : myQuorum()) {
            send(view.member(arbiter), new Request(myTs));
        }
        drainLocal();
    }

    /**
     * At rest: as a requester, not requesting, not in the critical section, no yield or inquiry pending; as an
     * arbiter, this node's vote is not lent ({@code lockedFor}), nobody waits in its queue, no INQUIRE is out;
     * no self-message is waiting and the epoch barrier is complete (or this instance has handled no event).
     */
    @Override
    public boolean atRest() {
        return !requesting && !inCS && lockedFor == null && waitQ.isEmpty() && !inquireSent
                && round == null && local == null && barrier.settled();
    }

    @Override
    public void onRelease() {
        announceIfDue();
        if (!inCS) {
            throw new IllegalStateException(self + " is not in the critical section");
        }
        // MA4 / rule 7: leave and release every arbiter of S_me
        inCS = false;
        requesting = false;
        round = null;
        for (int arbiter : myQuorum()) {
            send(view.member(arbiter), new Release(myTs, highestFence()));
        }
        drainLocal();
    }

    @Override
    public void onMessage(NodeId from, MaekawaMessage message) {
        announceIfDue();
        dispatch(from, message);
        drainLocal();
    }

    @Override
    public void onView(View newView) {
        view = newView;
        quorums = Quorums.forSize(newView.size(), quorumKind);
        enterFenceEpoch(newView.epoch());
        barrier.startEpoch(newView);
        local = null;
        lastGrant.clear();
        latest.removeKeysIf(m -> !newView.contains(m));
        // arbiter: the old epoch's locks and queues are rebuilt from the announcements
        lockedFor = null;
        waitQ.clear();
        notified.clear();
        inquireSent = false;
        announcedHolder = null;
        // requester: the old epoch's locks are gone; a waiting request is re-announced
        round = requesting ? new RequesterRound() : null;
        announce();
        finishBarrierIfComplete();
        drainLocal();
    }

    private void dispatch(NodeId from, MaekawaMessage message) {
        if (message instanceof Request r) {
            arbiterOnRequest(from, r.timestamp());
        } else if (message instanceof Locked l) {
            onLocked(from, l);
        } else if (message instanceof Release r) {
            arbiterOnRelease(from, r.timestamp(), r.fence());
        } else if (message instanceof Failed f) {
            onFailed(from, f.timestamp());
        } else if (message instanceof Inquire i) {
            onInquire(from, i.timestamp(), i.grant());
        } else if (message instanceof Relinquish r) {
            arbiterOnRelinquish(from, r.timestamp(), r.grant());
        } else if (message instanceof State s) {
            onState(from, s);
        }
    }

    // ---- requester ------------------------------------------------------------------------------

    /** MA3 / rule 3: record the lock; enter when every arbiter of S_me is locked for us. */
    private void onLocked(NodeId arbiter, Locked l) {
        observeFence(l.fence());
        clock = LogicalClock.witness(clock, l.timestamp());
        if (l.grant() <= lastGrant.getOrDefault(arbiter, 0L)) {
            return; // a duplicate
        }
        lastGrant.put(arbiter, l.grant());
        if (!requesting || inCS || l.timestamp() != myTs) {
            // a lock for a request that is over: give it back so that the arbiter is not stuck
            if (!(requesting && l.timestamp() == myTs)) {
                send(arbiter, new Release(l.timestamp(), highestFence()));
            }
            return;
        }
        round.locks.put(arbiter, l.grant());
        round.failedFrom.remove(arbiter);
        round.yieldedTo.remove(arbiter);
        if (holdsEveryLock()) {
            inCS = true;
            round.pendingInquire.clear(); // answered by the RELEASE after the CS
            effects.granted(nextFence());
        }
    }

    /** Whether this node holds the lock of every arbiter of its quorum. */
    private boolean holdsEveryLock() {
        for (int arbiter : myQuorum()) {
            if (!round.locks.containsKey(view.member(arbiter))) {
                return false;
            }
        }
        return true;
    }

    /** Rule 4: we cannot win at {@code arbiter}; yield every lock whose INQUIRE we deferred. */
    private void onFailed(NodeId arbiter, long ts) {
        if (!requesting || inCS || ts != myTs || round.locks.containsKey(arbiter)) {
            return; // stale
        }
        round.failedFrom.add(arbiter);
        for (NodeId k : round.pendingInquire.toSortedSet()) {
            if (round.locks.containsKey(k)) {
                relinquish(k);
            }
        }
        round.pendingInquire.clear();
    }

    /** Rule 5: yield at once if we know we cannot succeed now, else defer the answer. */
    private void onInquire(NodeId arbiter, long ts, long grant) {
        if (!requesting || inCS || ts != myTs || !round.locks.containsKey(arbiter)
                || round.locks.getOrDefault(arbiter, 0L) != grant) {
            return; // stale, or answered by our RELEASE after the CS
        }
        if (!round.failedFrom.isEmpty() || !round.yieldedTo.isEmpty()) {
            relinquish(arbiter);
        } else {
            round.pendingInquire.add(arbiter);
        }
    }

    private void relinquish(NodeId arbiter) {
        long grant = round.locks.getOrDefault(arbiter, 0L); // held: both callers checked
        round.locks.remove(arbiter);
        round.yieldedTo.add(arbiter);
        send(arbiter, new Relinquish(myTs, grant));
    }

    // ---- arbiter --------------------------------------------------------------------------------

    /** MA2 / rule 2. */
    private void arbiterOnRequest(NodeId from, long ts) {
        clock = LogicalClock.witness(clock, ts);
        if (ts <= latest.getOrDefault(from, 0L)) {
            return; // a duplicate, or a request already released
        }
        latest.put(from, ts);
        dropOlderRequestsOf(from, ts);
        RequestStamp r = new RequestStamp(ts, from);
        if (!barrier.isComplete()) {
            waitQ.add(r); // served when every member has announced its state
            return;
        }
        queueOrGrant(r);
    }

    private void queueOrGrant(RequestStamp r) {
        if (lockedFor == null && waitQ.isEmpty()) {
            lock(r); // 2a
            return;
        }
        RequestStamp head = waitQ.isEmpty() ? null : waitQ.first();
        waitQ.add(r);
        if (!deadlockFree) {
            grantNext();
            return; // MA2: just queue
        }
        boolean lockFirst = lockedFor != null && lockedFor.precedes(r);
        if (lockFirst || (head != null && head.precedes(r))) {
            // 2b: r cannot win here now
            notify(r);
        } else {
            // 2c, displacement rule: the previous head no longer is the head; tell it
            if (displacementRule && head != null && !notified.contains(head.node())) {
                notify(head);
            }
            if (lockedFor == null) {
                grantNext();
            } else if (!inquireSent) {
                inquireSent = true;
                send(lockedFor.node(), new Inquire(lockedFor.timestamp(), lockGrant));
            }
        }
    }

    private void notify(RequestStamp r) {
        notified.add(r.node());
        send(r.node(), new Failed(r.timestamp()));
    }

    /** MA5 / rule 8. */
    private void arbiterOnRelease(NodeId from, long ts, long fence) {
        observeFence(fence);
        latest.mergeMax(from, ts);
        dropOlderRequestsOf(from, ts + 1);
        if (lockedFor != null && lockedFor.node().equals(from) && lockedFor.timestamp() <= ts) {
            lockedFor = null;
            inquireSent = false;
            grantNext();
        }
    }

    /** Rule 6: the lock comes back; give it to the best request (possibly the same one again). */
    private void arbiterOnRelinquish(NodeId from, long ts, long grant) {
        if (lockedFor == null || !lockedFor.node().equals(from) || lockedFor.timestamp() != ts || lockGrant != grant) {
            return; // a duplicate, or a lock we no longer hold for it
        }
        waitQ.add(lockedFor);
        notified.add(from);
        lockedFor = null;
        inquireSent = false;
        grantNext();
    }

    private void grantNext() {
        if (lockedFor == null && !waitQ.isEmpty() && barrier.isComplete()) {
            lock(waitQ.pollFirst());
        }
    }

    private void lock(RequestStamp r) {
        lockedFor = r;
        lockGrant = ++grants;
        inquireSent = false;
        notified.remove(r.node());
        send(r.node(), new Locked(r.timestamp(), lockGrant, highestFence()));
    }

    /** Removes the queued requests of {@code from} older than {@code ts} (they are over). */
    private void dropOlderRequestsOf(NodeId from, long ts) {
        if (announcedHolder != null && announcedHolder.node().equals(from) && announcedHolder.timestamp() < ts) {
            announcedHolder = null; // it released before our barrier completed
        }
        boolean removed = waitQ.removeIf(q -> q.node().equals(from) && q.timestamp() < ts);
        if (removed && !waitQ.hasRequestOf(from)) {
            notified.remove(from);
        }
        if (lockedFor != null && lockedFor.node().equals(from) && lockedFor.timestamp() < ts) {
            lockedFor = null; // its holder moved on: the RELEASE was lost or is behind
            inquireSent = false;
            grantNext();
        }
    }

    // ---- epoch barrier (view changes, start on first use) ---------------------------------------

    private void announceIfDue() {
        if (barrier.takeFirstEventDue()) {
            announce();
        }
    }

    /** Tells every other member what we are doing; our own arbiter records it directly. */
    private void announce() {
        State state = myState();
        for (NodeId member : view.members()) {
            if (!member.equals(self)) {
                effects.send(member, state);
            }
        }
        applyState(self, state);
    }

    private State myState() {
        PeerState s = inCS ? PeerState.HOLDING : requesting ? PeerState.WAITING : PeerState.IDLE;
        return new State(myTs, s, highestFence());
    }

    private void onState(NodeId from, State s) {
        observeFence(s.fence());
        if (barrier.record(from)) {
            applyState(from, s);
            finishBarrierIfComplete();
        }
    }

    /** Records one member's announced state in our arbiter. */
    private void applyState(NodeId member, State s) {
        observeFence(s.fence());
        if (s.timestamp() > 0) {
            clock = LogicalClock.witness(clock, s.timestamp());
        }
        if (s.state() == PeerState.IDLE) {
            latest.raise(member, s.timestamp()); // a member that never asked (timestamp 0) reads as 0 without an entry
            dropOlderRequestsOf(member, s.timestamp() + 1);
            return;
        }
        if (!inQuorumOf(member)) {
            return; // we are not one of its arbiters in this view
        }
        RequestStamp r = new RequestStamp(s.timestamp(), member);
        latest.mergeMax(member, s.timestamp());
        if (s.state() == PeerState.HOLDING) {
            if (announcedHolder == null) {
                announcedHolder = r; // two holders can only be announced after a partition
            }
        } else {
            waitQ.add(r);
        }
    }

    /** The barrier is complete: lock for the holder, then serve the queued requests. */
    private void finishBarrierIfComplete() {
        if (!barrier.isComplete() || lockedFor != null) {
            return;
        }
        if (announcedHolder != null) {
            waitQ.remove(announcedHolder);
            lockedFor = announcedHolder;
            lockGrant = ++grants; // the holder needs no LOCKED: it is in the CS already
            inquireSent = true;   // and would ignore an INQUIRE
            announcedHolder = null;
        }
        List<RequestStamp> queued = new ArrayList<>();
        waitQ.forEach(queued::add);
        waitQ.clear();
        for (RequestStamp r : queued) {
            queueOrGrant(r);
        }
    }

    // ---- local delivery -------------------------------------------------------------------------

    private void send(NodeId to, MaekawaMessage message) {
        if (to.equals(self)) {
            if (local == null) {
                local = new ArrayDeque<>(2);
            }
            local.addLast(new Local(message));
        } else {
            effects.send(to, message);
        }
    }

    private void drainLocal() {
        while (local != null && !local.isEmpty()) {
            dispatch(self, local.pollFirst().message());
        }
        local = null;
    }

    // ---- introspection for tests ----------------------------------------------------------------

    /** MK-6: every queued request other than the head is notified; the head is notified or inquired about. */
    boolean arbiterInvariantHolds() {
        if (!deadlockFree || !displacementRule || !barrier.isComplete()) {
            return true;
        }
        boolean first = true;
        for (RequestStamp r : waitQ) {
            if (!notified.contains(r.node()) && !(first && inquireSent)) {
                return false;
            }
            first = false;
        }
        return true;
    }

    @Override
    public String toString() {
        return "Maekawa[" + self + (inCS ? " in CS" : requesting ? " waiting ts=" + myTs : " idle")
                + " " + (round == null ? new RequesterRound() : round) + " | lockedFor=" + lockedFor + " waitQ=" + waitQ
                + " notified=" + notified + " inquireSent=" + inquireSent + " " + barrier + "]";
    }
}
