package io.dlock.mutex.centralized;

import io.dlock.mutex.centralized.CentralizedMessage.ClientState;
import io.dlock.mutex.centralized.CentralizedMessage.Denied;
import io.dlock.mutex.centralized.CentralizedMessage.Grant;
import io.dlock.mutex.centralized.CentralizedMessage.Release;
import io.dlock.mutex.centralized.CentralizedMessage.Request;
import io.dlock.mutex.centralized.CentralizedMessage.Sync;
import io.dlock.mutex.centralized.CentralizedMessage.SyncQuery;
import io.dlock.mutex.common.EpochRoster;
import io.dlock.mutex.common.FencedMutexProtocol;
import io.dlock.mutex.common.NodeLongMap;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.ProtocolContext;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Predicate;

/**
 * Centralized mutual exclusion: one coordinator keeps a FIFO queue of requests and grants the lock
 * to one client at a time. Every node is a client. Which member coordinates the lock depends on option
 * {@code coordinator} ({@link CoordinatorChoice}, docs/algorithms.md A1 rule 7):
 * <ul>
 *   <li>{@code per-name} (the default): the member of the view that owns the lock's name
 *       ({@link ProtocolContext#lockName()}) by rendezvous hashing ({@link io.dlock.mutex.common.RendezvousHash}),
 *       the same on every member; the locks of a cluster spread their coordination over its members;</li>
 *   <li>{@code leader}: the leader that the configured election ({@code dlock.election}) elects, for every
 *       lock. Until the election of a view has reported its leader ({@link #onLeader}), and in the simulator,
 *       which runs no election, the coordinator is the highest id of the view: the node every election elects
 *       (docs/algorithms.md F29).</li>
 * </ul>
 *
 * <p><b>Source.</b> Source notes S0 (docs/algorithms.md §0.6) (集中アルゴリズム), as restated in docs/algorithms.md
 * A1, rules 1-6; A. S. Tanenbaum and M. van Steen, <i>Distributed Systems: Principles and
 * Paradigms</i>, 2nd ed., 2007, §6.3.
 *
 * <p><b>Assumptions.</b> Reliable within an epoch; FIFO not required; all members agree on the
 * coordinator because they agree on the view (and, with {@code leader}, on the election's result). A
 * coordinator crash stops the grants of the names it coordinates until the view change that removes it; the
 * next coordinator of each such name (per name: the member with the next highest weight; leader: the next
 * leader) then takes over and rebuilds the queue.
 *
 * <p><b>Cost.</b> 3 messages per entry by another node (REQUEST, GRANT, RELEASE), 4 with option
 * {@code send-denied} when the request has to wait (DENIED); 0 for the coordinator's own requests,
 * which it handles locally. Synchronization delay 2T; delay before entry 2T.
 *
 * <p><b>Deviations from the source notes.</b>
 * <ul>
 *   <li>The coordinator is chosen per lock name (option {@code coordinator=per-name}, the default), not one for
 *       everything: with one lock per business key, a single coordinator's node would do the coordination of
 *       every name. The source notes' single coordinator is {@code coordinator=leader}. A view change that moves a
 *       name to another member hands it over by the sync below, as a leader change does.</li>
 *   <li>Each client numbers its requests (never reused: an instance created in epoch e counts e * 2^32 + 1,
 *       + 2, ..., so that a node restarted with the same id is not taken for its previous run) and every
 *       message names the request it concerns. The coordinator ignores a REQUEST or RELEASE it has already
 *       seen, and a client ignores a GRANT that is not for its current waiting request, so duplicated and late
 *       messages are harmless.</li>
 *   <li>With {@code send-denied}, DENIED answers every request that is not granted at once: while
 *       someone holds the lock (exactly the source notes' rule), and also while the coordinator is still
 *       collecting SYNCs after a view change.</li>
 *   <li>Fencing tokens: the coordinator's counter, incremented for every grant, raised to the
 *       epoch's floor on a view change (see {@link FencedMutexProtocol}).</li>
 *   <li>View changes (not in the source notes): the coordinator of the new view sends SYNC_QUERY to every
 *       other member, and issues no grant before every member has answered with SYNC (its current
 *       request, its state and the highest token it has seen). A coordinator that continues keeps
 *       its queue and drops departed members (a departed holder frees the lock); a new coordinator
 *       rebuilds the queue, the holder and the fencing counter from the SYNCs. A GRANT lost with
 *       the old epoch is sent again with the same token. The coordinator asks rather than waiting
 *       to be told because a member that never used this lock has no protocol instance to tell it:
 *       the runtime creates one when the first message for the lock arrives. Conversely a new coordinator
 *       without an instance (a member that just joined, or one that never used the lock) cannot ask: so a
 *       client that waits at a view change sends its SYNC unasked (also to a coordinator that stays one: it may
 *       have dropped the client's REQUEST as a message of the old epoch before it had an instance), which
 *       creates that coordinator's instance, whose first event queries everyone (without it, a client whose
 *       REQUEST or GRANT was lost with the old epoch waited until some other node used the lock). The same hand-over happens
 *       when the election changes the coordinator within an epoch ({@link #onLeader}); a client with a
 *       request then also sends its SYNC unasked, since a coordinator that was one before the change does not
 *       ask again and the client may have dropped its GRANT meanwhile.</li>
 *   <li>Start: created with {@link ProtocolContext#startsIdle()} (a simulation), the coordinator
 *       knows that nobody holds or waits and grants at once. Otherwise (a lock created on first use
 *       in a running cluster) the coordinator queries every member as after a view change, on its
 *       first event, before granting anything. These SYNC_QUERY and SYNC messages are not part of
 *       the per-entry count.</li>
 * </ul>
 */
final class Centralized extends FencedMutexProtocol<CentralizedMessage> {

    /*
     * Overview.
     *
     * Client state: state (IDLE, WAITING, HOLDING); requestCounter (never reset, so request ids are
     * unique per client); myRequestId (the current or last request); highestFence (inherited: the
     * highest token seen, and at the coordinator its token counter). Coordinator state (the inner
     * Coordinator, present iff this node is the coordinator of the current view, coordinatorId()):
     * latestRequest and released (per client, highest ids seen); queue (FIFO of tickets
     * (client, requestId)); holder (ticket and its token, or none).
     * roster (EpochRoster): the view; at the coordinator, the members whose SYNC for this epoch has
     * not arrived; and the first-event SYNC_QUERY a coordinator created without startsIdle owes
     * (effects are for handlers).
     *
     * Invariants:
     *  - At most one ticket is the holder, and a GRANT (or a local grant) is issued only when the
     *    holder slot is empty and no SYNC is outstanding: ME1 within an epoch (rule 2/6).
     *  - A ticket (c, r) is queued at most once, never with r <= released[c]; at most one ticket per
     *    client is live, since a client's requests are sequential.
     *  - Grants follow queue order, which is arrival order of REQUESTs (docs/algorithms.md CEN-3), then SYNC
     *    arrival order for requests rebuilt after a view change.
     *  - A client is HOLDING only for myRequestId, and only after a grant naming it.
     *  - Across a view change: in-flight messages of the old epoch are lost, and a client's SYNC
     *    describes its state when it answers the query. A holder says so (the coordinator
     *    records it as the holder and grants nobody else); a waiting client is queued again or, if
     *    its grant was lost, granted again with the same token; an idle client's SYNC releases
     *    every older request of it, which also covers a RELEASE lost with the old epoch. Because
     *    nothing is granted until every SYNC is in, the coordinator knows the holder before granting.
     *    A SYNC and the client's other messages may arrive in any order (no FIFO, duplicates): a
     *    SYNC releases only requests older than the one it names (up to it, if idle), and names a
     *    released request only if the RELEASE overtook it, which the check r > released[c] catches;
     *    a request it names that the coordinator has seen already is not queued twice.
     *  - Two holders can only be reported after a partition heals; the first one recorded is kept
     *    (partitions are out of scope here).
     *
     * Fencing. Tokens come from one counter per coordinator, so they increase within an epoch: the
     * node's highest fence (FencedMutexProtocol), which at a client is the highest token it has seen
     * and at the coordinator the highest it has issued or seen (as a client it sees only its own
     * coordinator's grants, so one watermark serves both halves). A
     * new coordinator starts from the highest token any member reports in its SYNC (a holder
     * reports its own, a former coordinator its counter), and every coordinator raises its counter
     * to the new epoch's floor (enterFenceEpoch), which is above every token of earlier
     * epochs, including those of members that left or crashed. A GRANT re-sent after a view change
     * keeps its token: nothing was granted after it.
     *
     * Incarnations. A node restarted with the same id while its previous run was still listed joins a view that
     * keeps that id, so a coordinator that stays keeps the previous run's requests (maybe as the holder) and would
     * take the new run's small request ids for duplicates. So an instance numbers its requests from its creation
     * epoch * 2^32 on, and until its first request reports that number in its SYNC: an instance created in a later
     * epoch than another instance of the same node starts above all of the other's ids (fewer than 2^32 requests
     * per instance and epoch), its idle SYNC releases the previous run's requests, and its REQUESTs are new.
     */

    /** Request ids of an instance created in epoch e start at e * 2^32 (see "Incarnations" above). */
    private static final int EPOCH_SHIFT = 32;
    /** Largest epoch whose first request id fits in a positive long. */
    private static final long MAX_EPOCH = (1L << (63 - EPOCH_SHIFT)) - 1;

    private final NodeId self;
    private final MutexEffects<CentralizedMessage> effects;
    private final boolean sendDenied;
    /** How the coordinator is chosen: by the lock's name, or the election's leader (option {@code coordinator}). */
    private final CoordinatorChoice choice;
    /** The lock's name, the same on every member: the key of the per-name choice. */
    private final String lockName;
    /** The coordinator of {@link EpochRoster#view()} unless the election names another ({@link #coordinatorId}). */
    private NodeId viewCoordinator;
    /**
     * The sync's roster: the current view; at the coordinator, the members whose SYNC for this epoch
     * has not arrived; and the SYNC_QUERY a coordinator created without startsIdle owes at its first
     * event (effects are for handlers).
     */
    private final EpochRoster roster;

    private ClientState state = ClientState.IDLE;
    private long requestCounter;
    private long myRequestId;

    /** Present iff this node is the coordinator of the current view. */
    private Coordinator coordinator;
    /** The leader the runtime's election reported ({@link #onLeader}), and its epoch; null before any. */
    private NodeId elected;
    private long electedEpoch = -1;
    /**
     * A member that sent this epoch's SYNC_QUERY before this node knew it as the coordinator (the
     * election's result reaches members at different times); answered as soon as it is known, else
     * that coordinator would wait for this node's SYNC forever and grant nothing.
     */
    private NodeId unansweredQueryFrom;

    Centralized(ProtocolContext<CentralizedMessage> context, boolean sendDenied, CoordinatorChoice choice) {
        super(context.fencingFloor()); // every token of this instance's coordinators stays above it (docs/algorithms.md R3)
        this.self = context.self();
        this.effects = context.effects();
        this.roster = new EpochRoster(self, context.view());
        this.sendDenied = sendDenied;
        this.choice = choice;
        this.lockName = context.lockName();
        this.viewCoordinator = choice.coordinatorWithoutLeader(lockName, context.view());
        // request ids of this instance start above those of every earlier instance of this node (see "Incarnations")
        this.requestCounter = Math.min(context.view().epoch(), MAX_EPOCH) << EPOCH_SHIFT;
        this.myRequestId = requestCounter;
        if (isCoordinator()) {
            coordinator = new Coordinator();
            if (!context.startsIdle()) {
                // members may hold or wait for the lock already: learn their state before granting
                View view = roster.view();
                enterFenceEpoch(view.epoch());
                roster.expectOthers();
                roster.setFirstEventDue(view.size() > 1);
            }
        }
    }

    /** Sends the SYNC_QUERY a coordinator created without startsIdle owes, at its first event. */
    private void beforeEvent() {
        if (roster.takeFirstEventDue()) {
            effects.broadcast(new SyncQuery());
        }
    }

    private boolean isCoordinator() {
        return coordinatorId().equals(self);
    }

    /**
     * The coordinator of the current view. Per name: the member that owns the lock's name by rendezvous
     * hashing (docs/algorithms.md A1 rule 7), the same on every member of the view. Leader: the leader the
     * configured election reported for this epoch ({@link #onLeader}), else, until it has, the highest id of
     * the view, which is what every election of dlock elects (docs/algorithms.md F29), so both agree once the
     * election is over.
     */
    private NodeId coordinatorId() {
        View view = roster.view();
        return elected != null && electedEpoch == view.epoch() && view.contains(elected) ? elected : viewCoordinator;
    }

    /**
     * The runtime's election of this cluster elected {@code leader} in {@code epoch}: it becomes the
     * coordinator of that epoch. If that changes the coordinator of the current view, the protocol
     * hands over exactly as on a view change (the new coordinator queries every member's state), and a
     * client also tells the new coordinator its state at once: the election's result can change more than
     * once in an epoch (a member whose messages are late elects itself, then learns of a higher one), and a
     * coordinator that has been one all along does not ask again, though this client may have dropped its
     * GRANT while it took another node for the coordinator.
     */
    @Override
    public void onLeader(NodeId leader, long epoch) {
        if (choice == CoordinatorChoice.PER_NAME) {
            return; // the coordinator follows from the name and the view alone
        }
        if (epoch < roster.view().epoch() || (epoch == electedEpoch && leader.equals(elected))) {
            return;
        }
        NodeId before = coordinatorId();
        elected = leader;
        electedEpoch = epoch;
        NodeId now = coordinatorId();
        if (roster.isCurrent(epoch) && !now.equals(before)) {
            boolean queryAnswered = now.equals(unansweredQueryFrom); // onView answers the query it sent already
            onView(roster.view());
            // a waiting client's SYNC went out in onView; a holder's is sent here
            if (!isCoordinator() && !queryAnswered && state == ClientState.HOLDING) {
                effects.send(now, clientSync()); // an idle client has no GRANT to lose; a new coordinator asks anyway
            }
        }
    }

    // ---- client ---------------------------------------------------------------------------

    @Override
    public void onRequest() {
        beforeEvent();
        if (state != ClientState.IDLE) {
            throw new IllegalStateException(self + " already has an outstanding request");
        }
        // rule 1: ask the coordinator; our own coordinator handles it locally, with no message
        myRequestId = ++requestCounter;
        state = ClientState.WAITING;
        if (coordinator != null) {
            coordinator.onRequest(self, myRequestId);
        } else {
            effects.send(coordinatorId(), new Request(myRequestId));
        }
    }

    /**
     * On the coordinator's own node, with the lock free, nobody queued and every member's state known,
     * rules 1-2 grant at once with no message.
     */
    @Override
    public boolean canEnterLocally() {
        return state == ClientState.IDLE && coordinator != null && !roster.firstEventDue() && coordinator.canGrantNow();
    }

    /**
     * At rest: the client is idle, no SYNC_QUERY is left unanswered, the epoch's sync is complete (or this
     * instance has handled no event), and, on the coordinator, nobody holds the lock or waits for it. Request
     * ids may go because every member drops its state at once; the coordinator's counter is carried by the
     * round's floor.
     */
    @Override
    public boolean atRest() {
        return state == ClientState.IDLE && unansweredQueryFrom == null
                && (roster.isComplete() || roster.firstEventDue())
                && (coordinator == null || (coordinator.holder == null && coordinator.queueIsEmpty()));
    }

    @Override
    public void onRelease() {
        beforeEvent();
        if (state != ClientState.HOLDING) {
            throw new IllegalStateException(self + " does not hold the lock");
        }
        // rule 5: give the grant back
        state = ClientState.IDLE;
        if (coordinator != null) {
            coordinator.onRelease(self, myRequestId);
        } else {
            effects.send(coordinatorId(), new Release(myRequestId));
        }
    }

    /** Rule 3: enter, if the grant is for the request we are waiting for (else it is stale). */
    private void onGrant(long requestId, long fence) {
        if (state == ClientState.WAITING && requestId == myRequestId) {
            state = ClientState.HOLDING;
            observeFence(fence);
            effects.granted(fence);
        }
    }

    /** What this client tells a coordinator that asks (SYNC_QUERY). */
    private Sync clientSync() {
        return new Sync(myRequestId, state, highestFence());
    }

    // ---- events -----------------------------------------------------------------------------

    @Override
    public void onMessage(NodeId from, CentralizedMessage message) {
        beforeEvent();
        if (message instanceof Grant grant) {
            if (from.equals(coordinatorId())) {
                onGrant(grant.requestId(), grant.fence());
            }
        } else if (message instanceof SyncQuery) {
            if (from.equals(coordinatorId())) {
                effects.send(from, clientSync());
            } else {
                unansweredQueryFrom = from; // maybe the coordinator the election names next
            }
        } else if (message instanceof Denied) {
            // rule 4: the coordinator is alive and has queued us; keep waiting, do not ask again
            return;
        } else if (coordinator == null) {
            return; // a request, release or sync for a coordinator we no longer are
        } else if (message instanceof Request request) {
            coordinator.onRequest(from, request.requestId());
        } else if (message instanceof Release release) {
            coordinator.onRelease(from, release.requestId());
        } else if (message instanceof Sync sync) {
            coordinator.onSync(from, sync);
        }
    }

    @Override
    public void onView(View newView) {
        if (!roster.isCurrent(newView.epoch())) {
            unansweredQueryFrom = null; // queries of older epochs are void; the new coordinator asks again
        }
        roster.enter(newView); // no SYNC owed, no first-event query: the query below replaces it
        viewCoordinator = choice.coordinatorWithoutLeader(lockName, newView);
        if (isCoordinator()) {
            if (coordinator == null) {
                coordinator = new Coordinator();
            } else {
                coordinator.retainMembersOf(newView);
            }
            enterFenceEpoch(newView.epoch());
            roster.expectOthers();
            effects.broadcast(new SyncQuery());
            coordinator.onSync(self, clientSync());
        } else {
            if (coordinator != null) {
                coordinator = null; // no longer the coordinator: our counter travels in our SYNC to the new one
            }
            if (coordinatorId().equals(unansweredQueryFrom)) {
                unansweredQueryFrom = null;
                effects.send(coordinatorId(), clientSync()); // its query came before we knew it
            } else if (state == ClientState.WAITING) {
                // the coordinator may have no instance for the lock (a member that just joined, one that never
                // used the lock, or one that dropped our REQUEST as a message of the old epoch before it had made
                // one): it would not ask, and our REQUEST or GRANT may be lost with the old epoch; our SYNC creates
                // its instance, whose first event then queries everyone. A coordinator that asks anyway gets the
                // same SYNC twice, which changes nothing.
                effects.send(coordinatorId(), clientSync());
            }
        }
    }

    @Override
    public String toString() {
        return "Centralized[" + self + " " + state + " request=" + myRequestId + ", maxFence="
                + highestFence() + (coordinator == null ? "" : ", " + coordinator) + "]";
    }

    // ---- coordinator --------------------------------------------------------------------------

    /** A client's request as the coordinator tracks it. */
    private record Ticket(NodeId client, long requestId) {
    }

    /** The coordinator's half; exists only on the coordinator of the current view. */
    private final class Coordinator {

        private final NodeLongMap latestRequest = new NodeLongMap();
        private final NodeLongMap released = new NodeLongMap();
        /** The waiting tickets, in arrival order; null while there is none (nearly always, for most locks). */
        private Deque<Ticket> queue;
        private Ticket holder;
        private long holderFence;

        void onRequest(NodeId client, long requestId) {
            if (requestId <= latestRequest.getOrDefault(client, 0L)
                    || requestId <= released.getOrDefault(client, 0L)) {
                return; // a duplicate or a request already served
            }
            // rule 2: queue the request; grant it if the lock is free
            latestRequest.put(client, requestId);
            Ticket ticket = new Ticket(client, requestId);
            enqueue(ticket);
            grantNext();
            if (sendDenied && !ticket.equals(holder) && !client.equals(self)) {
                effects.send(client, new Denied(requestId));
            }
        }

        void onRelease(NodeId client, long requestId) {
            // rule 6: free the lock and grant the next request in the queue
            releaseUpTo(client, requestId);
            grantNext();
        }

        void onSync(NodeId client, Sync sync) {
            observeFence(sync.maxFence());
            roster.record(client);
            long requestId = sync.requestId();
            if (sync.state() == ClientState.IDLE) {
                releaseUpTo(client, requestId); // covers a RELEASE lost with the old epoch
            } else {
                releaseUpTo(client, requestId - 1); // requests are sequential: older ones are done
                if (requestId > released.getOrDefault(client, 0L)) {
                    resume(new Ticket(client, requestId), sync);
                }
            }
            grantNext();
        }

        /** Rebuilds the coordinator's view of a request that a client reports as live. */
        private void resume(Ticket ticket, Sync sync) {
            if (sync.state() == ClientState.HOLDING) {
                dequeueIf(ticket::equals);
                if (holder == null) {
                    holder = ticket;
                    holderFence = sync.maxFence();
                } // else: a second holder, only possible after a partition; keep the first
            } else if (ticket.equals(holder)) {
                deliverGrant(ticket, holderFence); // our GRANT was lost with the old epoch
            } else if (queue == null || !queue.contains(ticket)) {
                enqueue(ticket); // our copy of the REQUEST was lost, or we are new
            }
            latestRequest.mergeMax(ticket.client(), ticket.requestId());
        }

        /** Marks every request of {@code client} up to {@code requestId} as released. */
        private void releaseUpTo(NodeId client, long requestId) {
            if (requestId <= 0) {
                return;
            }
            released.mergeMax(client, requestId);
            if (holder != null && holder.client().equals(client) && holder.requestId() <= requestId) {
                holder = null;
            }
            dequeueIf(t -> t.client().equals(client) && t.requestId() <= requestId);
        }

        /** Queues {@code ticket} last. */
        private void enqueue(Ticket ticket) {
            if (queue == null) {
                queue = new ArrayDeque<>(4);
            }
            queue.addLast(ticket);
        }

        /** Removes every queued ticket that {@code filter} accepts. */
        private void dequeueIf(Predicate<Ticket> filter) {
            if (queue != null && queue.removeIf(filter) && queue.isEmpty()) {
                queue = null;
            }
        }

        /** Whether no ticket waits. */
        boolean queueIsEmpty() {
            return queue == null;
        }

        /** Whether a request made now would be granted at once: the lock is free, nobody queued, no SYNC awaited. */
        boolean canGrantNow() {
            return roster.isComplete() && holder == null && queueIsEmpty();
        }

        /** Rules 2 and 6: grant the head of the queue if the lock is free and no SYNC is awaited. */
        private void grantNext() {
            if (!roster.isComplete() || holder != null || queueIsEmpty()) {
                return;
            }
            holder = queue.pollFirst();
            if (queue.isEmpty()) {
                queue = null;
            }
            holderFence = nextFence();
            deliverGrant(holder, holderFence);
        }

        private void deliverGrant(Ticket ticket, long fence) {
            if (ticket.client().equals(self)) {
                onGrant(ticket.requestId(), fence);
            } else {
                effects.send(ticket.client(), new Grant(ticket.requestId(), fence));
            }
        }

        void retainMembersOf(View newView) {
            latestRequest.removeKeysIf(member -> !newView.contains(member));
            released.removeKeysIf(member -> !newView.contains(member));
            dequeueIf(t -> !newView.contains(t.client()));
            if (holder != null && !newView.contains(holder.client())) {
                holder = null; // the holder left: the lock is free
            }
        }

        @Override
        public String toString() {
            return "coordinator[holder=" + holder + ", queue=" + (queue == null ? "[]" : queue) + ", awaitingSync=" + roster.owed() + "]";
        }
    }
}
