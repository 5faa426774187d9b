package io.dlock.mutex.common;

import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The token census: how a token algorithm re-establishes exactly one token after a view change, and
 * learns where the token is when its protocol instance is created lazily in a running cluster. One
 * instance per protocol instance; the algorithm forwards its census messages and lifecycle events to
 * it and reacts to the decision through a {@link Port}.
 *
 * <h2>Protocol</h2>
 * <ul>
 *   <li>The <em>steward</em> is the lowest member of the current view.</li>
 *   <li>A census runs on every {@link #onView view change}, and on the first event of an instance
 *       created with {@code startsIdle = false} ({@link #beforeEvent}). On such a first event a
 *       member that is not the steward sends HELLO to the steward, so that a steward with no instance
 *       yet gets one (the runtime creates it on the first message) and runs the census; a member
 *       whose first event is the steward's QUERY needs no HELLO. After a view change a member sends
 *       HELLO only if it cannot know that the new steward has an instance (it was not a member of the
 *       last census this member saw complete).</li>
 *   <li>The steward sends QUERY to every other member and waits for every REPORT
 *       ({@link CensusReport}). Then it decides ({@link #decide}): exactly one member holds the
 *       token: it keeps it; none: the token was lost with the old epoch (or the lock is used for the first
 *       time), and it is regenerated at the lowest waiting member if the algorithm allows it
 *       ({@link Port#regeneratesAnywhere()}), else at the steward;
 *       more than one (only after a partition heals): the one confirmed by the latest census (the
 *       highest {@link CensusReport#tokenEpoch()}: a token that waited on the non-primary side of a
 *       partition is stale, the primary side's is live), then the one in the critical section, then the
 *       highest token fence, then the lowest id; the others discard theirs. It sends
 *       DONE ({@link CensusOutcome}) to every other member.</li>
 *   <li>A steward that has finished the census of its epoch answers a late HELLO with DONE.</li>
 *   <li>While a census is {@linkplain #active() active} at a member, the member sends no token and
 *       enters no critical section with one (a member already in it stays there and keeps the token);
 *       algorithm messages that arrive meanwhile are {@linkplain #defer deferred} and redelivered
 *       after DONE; a request made meanwhile is the algorithm's to remember and send after DONE.</li>
 * </ul>
 * Cost: 3(N-1) messages per census (QUERY, REPORT, DONE), plus a HELLO per member that creates its
 * instance lazily or cannot know that the steward has one. None of it counts as per-entry cost.
 *
 * <h2>Robustness</h2>
 * Every census message names its epoch; messages of another epoch than the current view's, and
 * duplicates (a second REPORT, a DONE for a census already complete), are ignored. One census runs
 * per epoch. Fencing: the census owns no counter but updates the algorithm's own watermark
 * ({@link FencedMutexProtocol}): {@link FencedMutexProtocol#enterFenceEpoch} on every view, the reports'
 * fences at the steward, the outcome's floor at every member.
 *
 * <p>Not thread-safe: owned by one protocol instance and used only from its event loop. Pure: it acts
 * only through the {@link Port}.
 *
 * @param <M> the algorithm's message type (for the deferred messages)
 */
public final class TokenCensus<M> {

    /*
     * Overview.
     *
     * State: view (the current view); round (the census under way here, null once the census of
     * view.epoch() is complete here, which is the state of almost every lock almost all the time);
     * holder, regenerated and fenceFloor (the outcome of the census of view.epoch() once it is
     * complete here, kept as fields rather than a CensusOutcome object: one object fewer per lock).
     * A round holds what only a running census needs: its roster (the members whose REPORT the
     * steward awaits; the first-event step owed by an instance created with startsIdle = false that
     * has handled no event yet), whether this member collects (the steward) or waits for DONE, the
     * reports (steward), the deferred algorithm messages, instantiated (members known to have a
     * protocol instance) and basis (the epoch of the last census completed here, 0 if none: the
     * tokenEpoch of this member's REPORT). Without a round, instantiated is the whole view (every
     * member of the view of the last complete census, which is the current view) and the last census
     * completed here is the current view's.
     *
     * Invariants:
     *  - Only the steward of view.epoch() decides, at most once per epoch, and only when every other
     *    member has reported for this epoch. Since nobody sends the token while active, and a member
     *    reports only after installing the epoch (so old-epoch tokens can no longer reach it), "no
     *    report holds the token" means no token exists in this epoch: regenerating is safe.
     *  - A steward with no instance at epoch e implies no member has completed census e: members enter
     *    a round on onView / at creation, and only the steward's DONE ends it. So when a lazily
     *    created steward starts a census mid-epoch, nobody is moving the token.
     *  - A first-event step is owed only in the round an instance is created with (startsIdle =
     *    false), so active() is exactly round != null.
     */

    /** What the census needs from its algorithm. Calls happen only from within the census's methods. */
    public interface Port<M> {

        /** This member's state now, for the census of {@code epoch}. */
        CensusReport localReport(long epoch);

        /** Sends HELLO (the algorithm's record) for {@code epoch} to {@code steward}. */
        void sendHello(NodeId steward, long epoch);

        /** Sends QUERY for {@code epoch} to every other member of the current view. */
        void broadcastQuery(long epoch);

        /** Sends {@code report} to {@code steward}. */
        void sendReport(NodeId steward, CensusReport report);

        /** Sends DONE with {@code outcome} to {@code member}. */
        void sendDone(NodeId member, CensusOutcome outcome);

        /** Sends DONE with {@code outcome} to every other member of the current view. */
        void broadcastDone(CensusOutcome outcome);

        /**
         * The census of the current epoch is complete: rebuild the algorithm's state toward
         * {@code outcome.holder()}, discard a token this member holds if it is not the holder, create
         * the token if this member is the holder of a regenerated one, and send the requests that are
         * waiting. The deferred messages are redelivered after this returns.
         *
         * @param outcome the decision; its holder is the current view's own {@link NodeId} instance
         * @param reports the reports of the census, by member in ascending order, the steward's own
         *                included (read-only): at the steward, for rebuilding a regenerated token; empty
         *                at every other member. Not kept by the census afterwards
         */
        void censusDone(CensusOutcome outcome, Map<NodeId, CensusReport> reports);

        /** Redelivers a message deferred while the census was active. */
        void redeliver(NodeId from, M message);

        /**
         * Whether a regenerated token may be created at any member: then the census regenerates it at the
         * lowest waiting member (a lock used for the first time: the requester gets the token with DONE and
         * enters with no further message), else at the steward. False (the default) for an algorithm that
         * builds a regenerated token from the reports, which only the steward has.
         */
        default boolean regeneratesAnywhere() {
            return false;
        }
    }

    private final NodeId self;
    /** The algorithm whose highest fence the census raises (usually the port itself). */
    private final FencedMutexProtocol<?> protocol;
    private final Port<M> port;
    private View view;
    /** The census under way here; null once the census of the current epoch is complete here. */
    private Round<M> round;
    /** The last completed census's holder (a member of its view, that view's instance); null before any. */
    private NodeId holder;
    /** Whether the last completed census regenerated the token. */
    private boolean regenerated;
    /** The last completed census's fence floor. */
    private long fenceFloor;

    /**
     * What only a census under way needs, made when it starts (a view change, or the creation of an
     * instance with {@code startsIdle = false}) and dropped when it completes.
     */
    private static final class Round<M> {
        /** The round's view, the members whose REPORT is owed (steward, while collecting), the first-event step. */
        final EpochRoster roster;
        /** Members known to have a protocol instance (see the class overview). */
        final NodeSet instantiated;
        /** The epoch of the last census completed here (0: none): the basis of this member's token. */
        final long basis;
        /** The steward collects REPORTs; otherwise this member waits for DONE. */
        boolean collecting;
        /** The steward's reports, by member in ascending order; null until the first arrives. */
        Map<NodeId, CensusReport> reports;
        /** Algorithm messages received meanwhile; null while none. */
        List<Deferred<M>> deferred;

        Round(NodeId self, View view, NodeSet instantiated, long basis) {
            this.roster = new EpochRoster(self, view);
            this.instantiated = instantiated;
            this.basis = basis;
        }

        /** The reports, made at the first. */
        Map<NodeId, CensusReport> reports() {
            if (reports == null) {
                reports = new TreeMap<>();
            }
            return reports;
        }
    }

    private record Deferred<M>(NodeId from, M message) {
    }

    /**
     * @param self       this member
     * @param view       the view the protocol is created with
     * @param startsIdle whether every member starts idle with the token at the lowest member (the
     *                   simulator's genesis): then no census runs until the first view change and
     *                   the lowest member is the holder; otherwise a census runs at the first event
     * @param protocol   the algorithm, whose highest fence the census keeps above every reported fence
     * @param port       the algorithm's side
     */
    public TokenCensus(NodeId self, View view, boolean startsIdle, FencedMutexProtocol<?> protocol, Port<M> port) {
        this.self = self;
        this.view = view;
        this.protocol = protocol;
        this.port = port;
        if (startsIdle) {
            holder = stewardOf(view);
        } else {
            protocol.enterFenceEpoch(view.epoch());
            round = new Round<>(self, view, new NodeSet(), 0);
            round.roster.setFirstEventDue(true);
        }
    }

    /** The steward of {@code v}: its lowest member. */
    public static NodeId stewardOf(View v) {
        return v.member(0);
    }

    /** The steward of the current view. */
    public NodeId steward() {
        return stewardOf(view);
    }

    /** Whether this member is the steward of the current view. */
    public boolean isSteward() {
        return steward().equals(self);
    }

    /** The current view. */
    public View view() {
        return view;
    }

    /**
     * Whether a census is under way (or has yet to start) at this member: no token may be sent and no
     * critical section entered with it.
     */
    public boolean active() {
        return round != null;
    }

    /** The outcome of the current epoch's census, or null while it is active. */
    public CensusOutcome outcome() {
        return active() ? null : new CensusOutcome(view.epoch(), holder, regenerated, fenceFloor);
    }

    /**
     * Call at the start of every event handler except the census message handlers below (which do it
     * themselves): starts the census owed by an instance created with {@code startsIdle = false}.
     */
    public void beforeEvent() {
        if (round != null && round.roster.takeFirstEventDue()) {
            if (isSteward()) {
                startCensus();
            } else {
                port.sendHello(steward(), view.epoch());
            }
        }
    }

    /**
     * Routes a message: a census message (a {@link CensusCarrier}) goes to its handler; any other
     * message, while the census is {@linkplain #active() active}, is deferred. Either way it returns
     * true, and the algorithm is done with the message. It returns false (after {@link #beforeEvent})
     * for an algorithm message the algorithm must handle now.
     */
    public boolean onMessage(NodeId from, M message) {
        if (message instanceof CensusCarrier carrier) {
            CensusMessage census = carrier.message();
            if (census instanceof CensusMessage.Hello h) {
                onHello(from, h.epoch());
            } else if (census instanceof CensusMessage.Query q) {
                onQuery(from, q.epoch());
            } else if (census instanceof CensusMessage.Report r) {
                onReport(from, r.report());
            } else if (census instanceof CensusMessage.Done d) {
                onDone(from, d.outcome());
            }
        } else {
            beforeEvent();
            if (!active()) {
                return false;
            }
            defer(from, message);
        }
        return true;
    }

    /**
     * Keeps an algorithm message received while {@link #active()}; it is redelivered after DONE, unless a
     * view change comes first. Outside a census nothing is kept: a view change would drop the message
     * before any DONE could redeliver it.
     */
    public void defer(NodeId from, M message) {
        if (round == null) {
            return;
        }
        if (round.deferred == null) {
            round.deferred = new ArrayList<>();
        }
        round.deferred.add(new Deferred<>(from, message));
    }

    /** A new view: a new census (messages of the old epoch, deferred ones included, are lost). */
    public void onView(View newView) {
        // a member that left may come back as a new node with no instance: forget departed members
        NodeSet instantiated = instantiatedIn(newView);
        boolean stewardKnown = instantiated.contains(stewardOf(newView))
                && !(round != null && round.roster.firstEventDue());
        long basis = round == null ? view.epoch() : round.basis;
        view = newView;
        round = new Round<>(self, newView, instantiated, basis); // nothing owed, no first-event HELLO: the view change replaces it
        protocol.enterFenceEpoch(newView.epoch());
        if (isSteward()) {
            startCensus();
        } else if (!stewardKnown) {
            port.sendHello(steward(), newView.epoch());
        }
    }

    /** The members known to have an instance that are members of both the current view and {@code newView}. */
    private NodeSet instantiatedIn(View newView) {
        if (round == null) { // every member of the current view
            NodeSet known = new NodeSet();
            for (NodeId member : view.members()) {
                if (newView.contains(member)) {
                    known.add(member);
                }
            }
            return known;
        }
        round.instantiated.removeIf(member -> !newView.contains(member) || !view.contains(member));
        return round.instantiated;
    }

    /** HELLO from {@code from}: a steward not yet counting starts; a finished one answers DONE. */
    public void onHello(NodeId from, long epoch) {
        if (epoch != view.epoch() || !isSteward()) {
            beforeEvent();
            return;
        }
        if (round == null) {
            if (!from.equals(self)) {
                port.sendDone(from, outcome());
            }
        } else if (round.roster.takeFirstEventDue()) {
            startCensus(); // the QUERY reaches {@code from} too
        } // collecting: our QUERY is on its way to it
    }

    /** QUERY from the steward: report (once per epoch; a duplicate after DONE is ignored). */
    public void onQuery(NodeId from, long epoch) {
        if (epoch != view.epoch() || !from.equals(steward()) || isSteward()) {
            beforeEvent();
            return;
        }
        if (round == null) {
            return; // a duplicate of the query this census already answered
        }
        round.roster.setFirstEventDue(false); // the steward runs the census: no HELLO needed
        round.instantiated.add(from);
        port.sendReport(from, port.localReport(epoch).withTokenEpoch(round.basis));
    }

    /** REPORT at the steward; decides when every member has reported. */
    public void onReport(NodeId from, CensusReport report) {
        beforeEvent();
        if (round == null || !round.collecting || report.epoch() != view.epoch() || !round.roster.record(from)) {
            return; // not collecting, another epoch, or a duplicate
        }
        round.reports().put(from, report);
        if (round.roster.isComplete()) {
            decide();
        }
    }

    /** DONE from the steward: the census of this epoch is complete here. */
    public void onDone(NodeId from, CensusOutcome outcome) {
        if (outcome.epoch() != view.epoch() || !from.equals(steward()) || isSteward() || round == null) {
            beforeEvent();
            return; // another epoch, not from the steward, or a duplicate
        }
        complete(outcome);
    }

    private void startCensus() {
        round.collecting = true;
        round.roster.expectOthers();
        if (round.roster.isComplete()) {
            decide();
        } else {
            port.broadcastQuery(view.epoch());
        }
    }

    /**
     * The steward's decision, once every report is in: the holder (latest confirmed token first, then
     * in the critical section, then the highest token fence, then the lowest id), or a regenerated
     * token at the steward, and the fence floor.
     */
    private void decide() {
        Map<NodeId, CensusReport> reports = round.reports();
        reports.put(self, port.localReport(view.epoch()).withTokenEpoch(round.basis));
        NodeId chosen = null;
        CensusReport best = null;
        for (Map.Entry<NodeId, CensusReport> e : reports.entrySet()) {
            CensusReport r = e.getValue();
            protocol.observeFence(r.maxFence());
            protocol.observeFence(r.tokenFence());
            if (r.holdsToken() && (best == null || better(r, best))) {
                best = r;
                chosen = e.getKey();
            }
        }
        boolean regenerate = chosen == null;
        if (regenerate) {
            chosen = regenerationSite(reports);
        }
        CensusOutcome outcome = new CensusOutcome(view.epoch(), chosen, regenerate, protocol.highestFence());
        if (view.size() > 1) {
            port.broadcastDone(outcome);
        }
        complete(outcome);
    }

    /** Where a regenerated token is created: the lowest waiting member if the algorithm allows it, else here. */
    private NodeId regenerationSite(Map<NodeId, CensusReport> reports) {
        if (port.regeneratesAnywhere()) {
            for (Map.Entry<NodeId, CensusReport> e : reports.entrySet()) {
                if (e.getValue().waiting()) {
                    return e.getKey();
                }
            }
        }
        return self;
    }

    /** Whether holder report {@code a} beats {@code b} (reports are visited in ascending id order). */
    private static boolean better(CensusReport a, CensusReport b) {
        if (a.tokenEpoch() != b.tokenEpoch()) {
            return a.tokenEpoch() > b.tokenEpoch(); // the later primary epoch's token is the live one
        }
        if (a.inCS() != b.inCS()) {
            return a.inCS();
        }
        return a.tokenFence() > b.tokenFence();
    }

    /**
     * The census of the current epoch is complete here: remember its outcome (with the view's own
     * instance of the holder, so that a lock keeps no decoded copy of it), drop the round, tell the
     * algorithm, then redeliver what the round deferred.
     */
    private void complete(CensusOutcome outcome) {
        Round<M> finished = round;
        round = null;
        int rank = view.indexOf(outcome.holder());
        NodeId viewHolder = rank < 0 ? outcome.holder() : view.member(rank);
        CensusOutcome settled = viewHolder == outcome.holder() ? outcome
                : new CensusOutcome(outcome.epoch(), viewHolder, outcome.regenerated(), outcome.fenceFloor());
        holder = settled.holder();
        regenerated = settled.regenerated();
        fenceFloor = settled.fenceFloor();
        protocol.observeFence(settled.fenceFloor());
        port.censusDone(settled, finished.reports == null ? Map.of() : Collections.unmodifiableMap(finished.reports));
        if (finished.deferred != null) {
            for (Deferred<M> d : finished.deferred) {
                port.redeliver(d.from(), d.message());
            }
        }
    }

    @Override
    public String toString() {
        String state = round == null ? "COMPLETE"
                : round.roster.firstEventDue() ? "FIRST_EVENT_DUE" : round.collecting ? "COLLECTING" : "WAITING";
        return "Census[" + view.epoch() + " " + state
                + (round != null && round.collecting ? " awaiting=" + round.roster.owed() : "")
                + (round == null && holder != null ? " holder=" + holder : "") + "]";
    }
}
