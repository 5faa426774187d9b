package io.dlock.mutex.raymond;

import io.dlock.mutex.common.CensusMessage;
import io.dlock.mutex.common.CensusOutcome;
import io.dlock.mutex.common.CensusReport;
import io.dlock.mutex.common.EffectsCensusPort;
import io.dlock.mutex.common.FencedMutexProtocol;
import io.dlock.mutex.common.NodeQueue;
import io.dlock.mutex.common.TokenCensus;
import io.dlock.mutex.raymond.RaymondMessage.Census;
import io.dlock.mutex.raymond.RaymondMessage.Privilege;
import io.dlock.mutex.raymond.RaymondMessage.Request;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.ProtocolContext;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.Map;
import java.util.TreeMap;

/**
 * Raymond's tree-based token algorithm: the members form a spanning tree; each node's {@code HOLDER}
 * points to the neighbour in the direction of the token; requests travel up the {@code HOLDER}
 * pointers and are queued at each node, and the token (PRIVILEGE) travels back down, reversing the
 * pointers as it goes.
 *
 * <p><b>Source.</b> Source notes S4 (docs/algorithms.md §0.6) §3.2, as restated in docs/algorithms.md A8
 * (ASSIGN_PRIVILEGE, MAKE_REQUEST, rules 1-4); K. Raymond, "A tree-based algorithm for distributed
 * mutual exclusion", ACM TOCS 7(1):61-77, 1989 (the {@code ASKED} and {@code USING} variables, docs/algorithms.md
 * F22 GAP-FILL).
 *
 * <p><b>Assumptions.</b> Messages only between tree neighbours; reliable within an epoch; FIFO not
 * required. The tree is the complete binary tree over the view's members in id order ({@link
 * TreeShape#BINARY}: rank 0 the root, parent of rank {@code i} is {@code (i-1)/2}): depth
 * {@code floor(log2 N)}, so the cost is O(log N), and every member derives the same tree from the view
 * without a message. In a simulation ({@link ProtocolContext#startsIdle()}) the token starts at the
 * root; otherwise the {@link TokenCensus} establishes it.
 *
 * <p><b>Cost.</b> At most 2D messages per entry (D = the tree's diameter, at most
 * {@code 2 floor(log2 N)}): a REQUEST climbs at most D edges and the PRIVILEGE descends at most D;
 * O(log N) on average; about 4 under heavy load (Raymond). 0 for an entry by the idle holder.
 * Synchronization delay at most D·T.
 *
 * <p><b>Deviations from the paper.</b>
 * <ul>
 *   <li>A REQUEST carries the sender's request number and a PRIVILEGE its epoch and hop count; a
 *       receiver ignores a number it has already taken from that sender and a hop it has already
 *       seen, so duplicated messages are harmless (Raymond's algorithm itself would queue a
 *       duplicated REQUEST twice and forward a duplicated PRIVILEGE).</li>
 *   <li>Fencing: the PRIVILEGE carries the highest fencing token its sender has seen; the node
 *       entering takes one more.</li>
 *   <li>View changes and creation on first use: the census keeps exactly one token; every member
 *       rebuilds the tree from the new view, points {@code HOLDER} along it toward the holder,
 *       empties its queue ({@code ASKED = false}), and a waiting member queues itself and requests
 *       again, as Raymond's initialisation with pending requests would.</li>
 * </ul>
 */
final class Raymond extends FencedMutexProtocol<RaymondMessage> implements EffectsCensusPort<RaymondMessage> {

    /*
     * Overview.
     *
     * State (the paper's names): holder (HOLDER: self, or the tree neighbour toward the token);
     * using (USING: in the CS); queue (REQUEST_Q: neighbours and/or self, FIFO); asked (ASKED: a
     * REQUEST to holder is unanswered). Ours: requesting (onRequest until the grant); hop (the
     * token's transfer count while we hold it) and lastHop (highest accepted this epoch);
     * requestSeq (numbers our REQUESTs) and lastRequest (per neighbour, highest number taken);
     * highestFence (inherited); census (this node is its port); shape.
     *
     * Invariants (Raymond 1989):
     *  - The holder pointers form a tree directed toward the token (or toward the edge it is
     *    crossing): exactly one node has holder == self, except while a PRIVILEGE is in flight.
     *  - using implies holder == self. A node is in queue at most once; self is in queue iff
     *    requesting and not using.
     *  - asked implies holder != self and queue non-empty; at most one REQUEST is in flight per
     *    directed edge (docs/algorithms.md RAY-3), so a node appears at most once in its neighbour's queue.
     *  - Each event runs: update; ASSIGN_PRIVILEGE; MAKE_REQUEST (in that order). While the census
     *    is active neither runs (no token moves, no request leaves), and messages are deferred.
     *
     * Fencing. Only the holder grants, with nextFence(); the PRIVILEGE carries the sender's
     * highest; across epochs the census floor and enterFenceEpoch.
     */

    private final NodeId self;
    private final MutexEffects<RaymondMessage> effects;
    private final TreeShape shape;
    private final TokenCensus<RaymondMessage> census;

    private NodeId holder;
    private boolean using;
    private final NodeQueue queue = new NodeQueue();
    private boolean asked;
    private boolean requesting;
    private long hop;
    private long lastHop;
    private long requestSeq;
    /** Per neighbour, the highest REQUEST number taken; null while none (a lock at rest mostly has none). */
    private Map<NodeId, Long> lastRequest;

    Raymond(ProtocolContext<RaymondMessage> context, TreeShape shape) {
        super(context.fencingFloor());
        this.self = context.self();
        this.effects = context.effects();
        this.shape = shape;
        this.census = new TokenCensus<>(self, context.view(), context.startsIdle(), this, this);
        // initialisation: HOLDER toward the root (rank 0), where a simulation's token starts
        this.holder = shape.nextHop(context.view(), self, TokenCensus.stewardOf(context.view()));
    }

    private View view() {
        return census.view();
    }

    // ---- procedures -------------------------------------------------------------------------

    /** ASSIGN_PRIVILEGE: the idle holder gives the token to the head of its queue (or enters). */
    private void assignPrivilege() {
        if (census.active() || !holder.equals(self) || using || queue.isEmpty()) {
            return;
        }
        holder = queue.pollFirst();
        asked = false;
        if (holder.equals(self)) {
            using = true;
            requesting = false;
            effects.granted(nextFence());
        } else {
            effects.send(holder, new Privilege(view().epoch(), hop + 1, highestFence()));
        }
    }

    /** MAKE_REQUEST: ask the holder once for a non-empty queue. */
    private void makeRequest() {
        if (census.active() || holder.equals(self) || queue.isEmpty() || asked) {
            return;
        }
        effects.send(holder, new Request(++requestSeq));
        asked = true;
    }

    private void assignThenRequest() {
        assignPrivilege();
        makeRequest();
    }

    // ---- events -----------------------------------------------------------------------------

    @Override
    public void onRequest() {
        census.beforeEvent();
        if (requesting || using) {
            throw new IllegalStateException(self + " already has an outstanding request");
        }
        // rule 1
        requesting = true;
        queue.addLast(self);
        assignThenRequest();
    }

    /** The holder of the idle privilege with an empty queue and no census running enters at once (rules 1, 2). */
    @Override
    public boolean canEnterLocally() {
        return !requesting && !using && holder.equals(self) && queue.isEmpty() && !census.active();
    }

    /**
     * At rest: not requesting, not using the token, nobody queued here, no REQUEST sent on our behalf or a
     * neighbour's ({@code asked}), no census running. The idle token (if here) may go: the next use's census
     * regenerates it once.
     */
    @Override
    public boolean atRest() {
        return !requesting && !using && queue.isEmpty() && !asked && !census.active();
    }

    @Override
    public void onRelease() {
        census.beforeEvent();
        if (!using) {
            throw new IllegalStateException(self + " is not in the critical section");
        }
        // rule 4
        using = false;
        assignThenRequest();
    }

    @Override
    public void onMessage(NodeId from, RaymondMessage message) {
        if (census.onMessage(from, message)) {
            return;
        }
        if (!shape.adjacent(view(), self, from)) {
            return; // only tree neighbours talk
        }
        if (message instanceof Request r) {
            // rule 2 (a number already taken from this neighbour is a duplicate)
            if (r.seq() <= lastRequestFrom(from) || queue.contains(from)) {
                return;
            }
            if (lastRequest == null) {
                lastRequest = new TreeMap<>();
            }
            lastRequest.put(from, r.seq());
            queue.addLast(from);
            assignThenRequest();
        } else if (message instanceof Privilege p) {
            // rule 3 (another epoch, a hop already seen, or a token already here: a duplicate)
            if (p.epoch() != view().epoch() || p.hop() <= lastHop || holder.equals(self)) {
                return;
            }
            hop = p.hop();
            lastHop = p.hop();
            observeFence(p.fence());
            holder = self;
            assignThenRequest();
        }
    }

    /** The highest REQUEST number taken from {@code neighbour}, 0 if none. */
    private long lastRequestFrom(NodeId neighbour) {
        return lastRequest == null ? 0 : lastRequest.getOrDefault(neighbour, 0L);
    }

    @Override
    public void onView(View newView) {
        census.onView(newView); // census active: nothing moves until DONE
    }

    // ---- census: this node is its port (what it reports, and the rebuild at its end) --------

    @Override
    public MutexEffects<RaymondMessage> censusEffects() {
        return effects;
    }

    @Override
    public RaymondMessage carryCensus(CensusMessage message) {
        return new Census(message);
    }

    /** The token carries nothing built from the reports: a regenerated one may start at a waiting member. */
    @Override
    public boolean regeneratesAnywhere() {
        return true;
    }

    @Override
    public CensusReport localReport(long epoch) {
        boolean holds = holder.equals(self);
        return new CensusReport(epoch, holds, using, holds ? highestFence() : 0, highestFence(), 0,
                requesting);
    }

    @Override
    public void censusDone(CensusOutcome outcome, Map<NodeId, CensusReport> reports) {
        // the tree of the new view, HOLDER toward the holder; queues restart from our own request
        holder = shape.nextHop(view(), self, outcome.holder());
        queue.clear();
        asked = false;
        if (requesting) {
            queue.addLast(self);
        }
        hop = 0;
        lastHop = 0;
        lastRequest = null;
        assignThenRequest();
    }

    @Override
    public void redeliver(NodeId from, RaymondMessage message) {
        onMessage(from, message);
    }

    @Override
    public String toString() {
        return "Raymond[" + self + " holder=" + holder + (using ? " USING" : requesting ? " WAITING" : "")
                + " Q=" + queue + (asked ? " ASKED" : "") + " " + census + "]";
    }
}
