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
 * per epoch. Fencing: the census owns no counter but updates the algorithm's {@link FencingCounter}:
 * {@link FencingCounter#enterEpoch} on every view, the reports' fences at the steward, the outcome's
 * floor at every member.
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
     * State: roster (the current view; the members whose REPORT the steward awaits; the first-event
     * step owed by an instance created with startsIdle = false that has handled no event yet), phase
     * (COMPLETE: the census of view.epoch() is done here; WAITING: a member waits for DONE;
     * COLLECTING: the steward waits for REPORTs), reports (steward), lastOutcome
     * (the decision of the current epoch, once COMPLETE), instantiated (members known to have a
     * protocol instance: every member of the view of the last complete census, plus a steward that
     * queried us), deferred (algorithm messages received while active).
     *
     * Invariants:
     *  - Only the steward of view.epoch() decides, at most once per epoch, and only when every other
     *    member has reported for this epoch. Since nobody sends the token while active, and a member
     *    reports only after installing the epoch (so old-epoch tokens can no longer reach it), "no
     *    report holds the token" means no token exists in this epoch: regenerating is safe.
     *  - A steward with no instance at epoch e implies no member has completed census e: members enter
     *    WAITING on onView / on their first event, and only the steward's DONE ends it. So when a
     *    lazily created steward starts a census mid-epoch, nobody is moving the token.
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
         * the token if this member is the holder of a regenerated one (the steward can read
         * {@link TokenCensus#reports()}), and send the requests that are waiting. The deferred
         * messages are redelivered after this returns.
         */
        void censusDone(CensusOutcome outcome);

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

    private enum Phase { COMPLETE, WAITING, COLLECTING }

    private final NodeId self;
    private final FencingCounter fences;
    private final Port<M> port;
    /** The view, the members whose REPORT is owed (steward, while collecting), the first-event HELLO or QUERY. */
    private final EpochRoster roster;
    private Phase phase;
    /** Null until this member runs a census as steward (most members of most locks never do). */
    private Map<NodeId, CensusReport> reports;
    private CensusOutcome lastOutcome;
    /** The epoch of the last census completed here (0: none): the basis of this member's token. */
    private long completedEpoch;
    private final NodeSet instantiated = new NodeSet();
    /** Null while nothing is deferred (the census is seldom active). */
    private List<Deferred<M>> deferred;

    private record Deferred<M>(NodeId from, M message) {
    }

    /**
     * @param self       this member
     * @param view       the view the protocol is created with
     * @param startsIdle whether every member starts idle with the token at the lowest member (the
     *                   simulator's genesis): then no census runs until the first view change and
     *                   the lowest member is the holder; otherwise a census runs at the first event
     * @param fences     the algorithm's counter, which the census keeps above every reported fence
     * @param port       the algorithm's side
     */
    public TokenCensus(NodeId self, View view, boolean startsIdle, FencingCounter fences, Port<M> port) {
        this.self = self;
        this.roster = new EpochRoster(self, view);
        this.fences = fences;
        this.port = port;
        if (startsIdle) {
            phase = Phase.COMPLETE;
            lastOutcome = new CensusOutcome(view.epoch(), steward(), false, 0);
            completedEpoch = view.epoch();
            view.members().forEach(instantiated::add);
        } else {
            fences.enterEpoch(view.epoch());
            phase = Phase.WAITING;
            roster.setFirstEventDue(true);
        }
    }

    /** The steward of {@code v}: its lowest member. */
    public static NodeId stewardOf(View v) {
        return v.member(0);
    }

    /** The steward of the current view. */
    public NodeId steward() {
        return stewardOf(roster.view());
    }

    /** Whether this member is the steward of the current view. */
    public boolean isSteward() {
        return steward().equals(self);
    }

    /** The current view. */
    public View view() {
        return roster.view();
    }

    /**
     * Whether a census is under way (or has yet to start) at this member: no token may be sent and no
     * critical section entered with it.
     */
    public boolean active() {
        return phase != Phase.COMPLETE || roster.firstEventDue();
    }

    /** The outcome of the current epoch's census, or null while it is active. */
    public CensusOutcome outcome() {
        return active() ? null : lastOutcome;
    }

    /**
     * The reports of the last census this member ran as steward, by member, its own included
     * (read-only; valid in {@link Port#censusDone} at the steward, for rebuilding a regenerated token; empty
     * afterwards: every live lock of a token algorithm has a census, so it keeps no reports it no longer needs).
     */
    public Map<NodeId, CensusReport> reports() {
        return reports == null ? Map.of() : Collections.unmodifiableMap(reports);
    }

    /**
     * Call at the start of every event handler except the census message handlers below (which do it
     * themselves): starts the census owed by an instance created with {@code startsIdle = false}.
     */
    public void beforeEvent() {
        if (roster.takeFirstEventDue()) {
            if (isSteward()) {
                startCensus();
            } else {
                port.sendHello(steward(), roster.view().epoch());
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

    /** Keeps an algorithm message received while {@link #active()}; it is redelivered after DONE. */
    public void defer(NodeId from, M message) {
        if (deferred == null) {
            deferred = new ArrayList<>();
        }
        deferred.add(new Deferred<>(from, message));
    }

    /** A new view: a new census (messages of the old epoch, deferred ones included, are lost). */
    public void onView(View newView) {
        // a member that left may come back as a new node with no instance: forget departed members
        instantiated.removeIf(member -> !newView.contains(member) || !roster.view().contains(member));
        boolean stewardKnown = instantiated.contains(stewardOf(newView)) && !roster.firstEventDue();
        roster.enter(newView); // nothing owed, no first-event HELLO: the view change replaces it
        deferred = null;
        fences.enterEpoch(newView.epoch());
        if (isSteward()) {
            startCensus();
        } else {
            phase = Phase.WAITING;
            if (!stewardKnown) {
                port.sendHello(steward(), newView.epoch());
            }
        }
    }

    /** HELLO from {@code from}: a steward not yet counting starts; a finished one answers DONE. */
    public void onHello(NodeId from, long epoch) {
        if (!roster.isCurrent(epoch) || !isSteward()) {
            beforeEvent();
            return;
        }
        if (roster.takeFirstEventDue()) {
            startCensus(); // the QUERY reaches {@code from} too
        } else if (phase == Phase.COMPLETE && !from.equals(self)) {
            port.sendDone(from, lastOutcome);
        } // COLLECTING: our QUERY is on its way to it
    }

    /** QUERY from the steward: report (once per epoch; a duplicate after DONE is ignored). */
    public void onQuery(NodeId from, long epoch) {
        if (!roster.isCurrent(epoch) || !from.equals(steward()) || isSteward()) {
            beforeEvent();
            return;
        }
        roster.setFirstEventDue(false); // the steward runs the census: no HELLO needed
        instantiated.add(from);
        if (phase == Phase.COMPLETE) {
            return; // a duplicate of the query this census already answered
        }
        phase = Phase.WAITING;
        port.sendReport(from, port.localReport(epoch).withTokenEpoch(completedEpoch));
    }

    /** REPORT at the steward; decides when every member has reported. */
    public void onReport(NodeId from, CensusReport report) {
        beforeEvent();
        if (phase != Phase.COLLECTING || !roster.isCurrent(report.epoch()) || !roster.record(from)) {
            return; // not collecting, another epoch, or a duplicate
        }
        stewardReports().put(from, report);
        if (roster.isComplete()) {
            decide();
        }
    }

    /** DONE from the steward: the census of this epoch is complete here. */
    public void onDone(NodeId from, CensusOutcome outcome) {
        if (!roster.isCurrent(outcome.epoch()) || !from.equals(steward()) || isSteward()
                || phase == Phase.COMPLETE) {
            beforeEvent();
            return; // another epoch, not from the steward, or a duplicate
        }
        roster.setFirstEventDue(false);
        complete(outcome);
    }

    /** The reports of the census this member runs as steward, made at the first. */
    private Map<NodeId, CensusReport> stewardReports() {
        if (reports == null) {
            reports = new TreeMap<>();
        }
        return reports;
    }

    private void startCensus() {
        phase = Phase.COLLECTING;
        reports = null;
        roster.expectOthers();
        if (roster.isComplete()) {
            decide();
        } else {
            port.broadcastQuery(roster.view().epoch());
        }
    }

    /**
     * The steward's decision, once every report is in: the holder (latest confirmed token first, then
     * in the critical section, then the highest token fence, then the lowest id), or a regenerated
     * token at the steward, and the fence floor.
     */
    private void decide() {
        View view = roster.view();
        stewardReports().put(self, port.localReport(view.epoch()).withTokenEpoch(completedEpoch));
        NodeId holder = null;
        CensusReport best = null;
        for (Map.Entry<NodeId, CensusReport> e : reports.entrySet()) {
            CensusReport r = e.getValue();
            fences.observe(r.maxFence());
            fences.observe(r.tokenFence());
            if (r.holdsToken() && (best == null || better(r, best))) {
                best = r;
                holder = e.getKey();
            }
        }
        boolean regenerated = holder == null;
        if (regenerated) {
            holder = regenerationSite();
        }
        CensusOutcome outcome = new CensusOutcome(view.epoch(), holder, regenerated, fences.highest());
        if (view.size() > 1) {
            port.broadcastDone(outcome);
        }
        complete(outcome);
    }

    /** Where a regenerated token is created: the lowest waiting member if the algorithm allows it, else here. */
    private NodeId regenerationSite() {
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

    private void complete(CensusOutcome outcome) {
        phase = Phase.COMPLETE;
        completedEpoch = outcome.epoch();
        lastOutcome = outcome;
        roster.clear();
        instantiated.clear();
        roster.view().members().forEach(instantiated::add);
        fences.observe(outcome.fenceFloor());
        port.censusDone(outcome);
        reports = null; // read in censusDone only
        List<Deferred<M>> due = deferred == null ? List.of() : deferred;
        deferred = null;
        for (Deferred<M> d : due) {
            port.redeliver(d.from(), d.message());
        }
    }

    @Override
    public String toString() {
        return "Census[" + roster.view().epoch() + " " + (roster.firstEventDue() ? "FIRST_EVENT_DUE" : phase)
                + (phase == Phase.COLLECTING ? " awaiting=" + roster.owed() : "")
                + (lastOutcome != null && !active() ? " holder=" + lastOutcome.holder() : "") + "]";
    }
}
