package io.dlock.mutex.suzukikasami;

import io.dlock.mutex.common.CensusMessage;
import io.dlock.mutex.common.CensusOutcome;
import io.dlock.mutex.common.CensusReport;
import io.dlock.mutex.common.EffectsCensusPort;
import io.dlock.mutex.common.FencedMutexProtocol;
import io.dlock.mutex.common.NodeLongMap;
import io.dlock.mutex.common.NodeQueue;
import io.dlock.mutex.common.TokenCensus;
import io.dlock.mutex.suzukikasami.SuzukiKasamiMessage.Census;
import io.dlock.mutex.suzukikasami.SuzukiKasamiMessage.Request;
import io.dlock.mutex.suzukikasami.SuzukiKasamiMessage.Token;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.ProtocolContext;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.Map;

/**
 * Suzuki and Kasami's broadcast token algorithm: a node that wants the critical section broadcasts a
 * numbered REQUEST; the token carries, per node, the number of its last request served ({@code LN})
 * and a FIFO queue {@code Q} of nodes waiting; a node leaving the critical section appends every node
 * with a newer outstanding request to {@code Q} and sends the token to its head.
 *
 * <p><b>Source.</b> Source notes S4 (docs/algorithms.md §0.6) §3.1, as restated in docs/algorithms.md A7, rules 1-4;
 * I. Suzuki and T. Kasami, "A distributed mutual exclusion algorithm", ACM TOCS 3(4):344-349, 1985.
 *
 * <p><b>Assumptions.</b> Fully connected; reliable within an epoch; FIFO <em>not</em> required
 * (request numbers discard outdated requests). Node {@code i} of the source notes is the member of rank
 * {@code i} in the current {@link View}; {@code RN} and {@code LN} are kept per {@link NodeId}, so they
 * survive a change of ranks. In a simulation ({@link ProtocolContext#startsIdle()}) the lowest member
 * starts with the token (decision in docs/algorithms.md); otherwise the {@link TokenCensus} establishes it.
 *
 * <p><b>Cost.</b> N messages per entry by a node without the token (N-1 REQUEST, 1 TOKEN), 0 when the
 * requester holds the idle token (docs/algorithms.md SK-1). Synchronization delay T; delay before entry 2T.
 *
 * <p><b>Deviations from the source notes.</b>
 * <ul>
 *   <li>GAP-FILL (docs/algorithms.md F21, rule 2): an idle holder that receives a request it has not served
 *       sends the token at once; without it, a request made while the token is idle elsewhere waits
 *       forever (SK-5).</li>
 *   <li>The token carries its epoch and a hop count; a node accepts only a hop above the last it
 *       accepted, so a duplicated TOKEN is ignored. Duplicated REQUESTs are harmless already
 *       ({@code RN} is a maximum, SK-3).</li>
 *   <li>The test {@code RN[j] == LN[j] + 1} is written {@code RN[j] > LN[j]} (the same while numbers
 *       grow by one); a node created in a running cluster starts numbering at its epoch times 2^32,
 *       so that a node rejoining under the id of one that left is not mistaken for it.</li>
 *   <li>Fencing: the token carries the highest fencing token its sender has seen; the node entering
 *       takes one more.</li>
 *   <li>View changes and creation on first use: the census (see {@link TokenCensus}) keeps exactly one
 *       token. Its holder drops departed members from {@code LN} and {@code Q}; a regenerated token
 *       gets {@code LN[j]} from each member's report (its {@code RN[j]}, minus one if that request is
 *       still waiting). Waiting members broadcast their request again with the same number.</li>
 * </ul>
 */
final class SuzukiKasami extends FencedMutexProtocol<SuzukiKasamiMessage> implements EffectsCensusPort<SuzukiKasamiMessage> {

    /*
     * Overview.
     *
     * State: rn (RN, per member, highest request number heard; rn[self] is ours); token (the token
     * while we hold it: last = LN, queue = Q), requesting (onRequest until the grant), inCS;
     * numbered (rn[self] is the number of the current outstanding request: false while a request
     * made during a census waits to be numbered and sent); highestFence (inherited); census (this node is its port).
     *
     * Invariants:
     *  - At most one token exists per epoch: it moves only by a TOKEN message (the sender drops it),
     *    and the census regenerates one only when no member reports it (see TokenCensus).
     *  - The token is sent to j only when j has a request it has not served (rn[j] > last[j],
     *    rules 2 and 4); since only the token serves requests, j is still waiting when it arrives
     *    (unless j is a new node under the id of one that left: then j keeps it idle, rule 2).
     *    Each transfer numbers the token (hop); j accepts only a hop above the last it accepted, so
     *    a duplicated or late copy is never used (rule 3).
     *  - requesting && token != null && !inCS happens only while a census is active (otherwise
     *    rule 1 or 3 enters at once).
     *  - Starvation freedom (notes S4): a waiting node's request reaches every member; the next exit
     *    of a holder that has heard it appends it to Q (once), and Q is FIFO.
     *
     * Fencing. Grants happen only at the token holder; each takes nextFence(), and the token
     * carries the sender's highest to the next holder, so grants increase along the token's path.
     * Across epochs the census floor and enterFenceEpoch keep them increasing.
     */

    private final NodeId self;
    private final MutexEffects<SuzukiKasamiMessage> effects;
    /** Rule 2's GAP-FILL (idle holder hands the token over on a request); false only in SK-5's regression test. */
    private final boolean idleHandOff;
    private final TokenCensus<SuzukiKasamiMessage> census;

    private final NodeLongMap rn = new NodeLongMap();
    private TokenState token;
    /** Highest token hop accepted in this epoch (duplicates have one already seen). */
    private long lastHop;
    private boolean requesting;
    private boolean numbered;
    private boolean inCS;

    /** The token while this node holds it. */
    private static final class TokenState {
        final NodeLongMap last = new NodeLongMap();
        final NodeQueue queue = new NodeQueue();
        long hop;

        long last(NodeId member) {
            return last.getOrDefault(member, 0L);
        }
    }

    SuzukiKasami(ProtocolContext<SuzukiKasamiMessage> context, boolean idleHandOff) {
        super(context.fencingFloor());
        this.self = context.self();
        this.effects = context.effects();
        this.idleHandOff = idleHandOff;
        this.census = new TokenCensus<>(self, context.view(), context.startsIdle(), this, this);
        if (context.startsIdle() && TokenCensus.stewardOf(context.view()).equals(self)) {
            token = new TokenState(); // decision in docs/algorithms.md: the token starts at the lowest member
        }
        if (!context.startsIdle()) {
            // a node created in a running cluster may reuse the id of a member that left: number our
            // requests above every number that member can have used (fewer than 2^32 per epoch)
            rn.put(self, Math.min(context.view().epoch(), Integer.MAX_VALUE) << 32);
        }
    }

    private View view() {
        return census.view();
    }

    private long rn(NodeId member) {
        return rn.getOrDefault(member, 0L);
    }

    // ---- events -----------------------------------------------------------------------------

    @Override
    public void onRequest() {
        census.beforeEvent();
        if (requesting || inCS) {
            throw new IllegalStateException(self + " already has an outstanding request");
        }
        requesting = true;
        numbered = false;
        if (!census.active()) {
            ask();
        } // else: remembered; the census's end sends it
    }

    /** Rule 1: enter with the idle token, else number the request and broadcast it. */
    private void ask() {
        if (token != null) {
            enter();
            return;
        }
        if (!numbered) {
            rn.put(self, rn(self) + 1);
            numbered = true;
        }
        if (view().size() > 1) {
            effects.broadcast(new Request(rn(self)));
        }
    }

    /** With the idle token here and no census running, rule 1 enters at once and sends nothing. */
    @Override
    public boolean canEnterLocally() {
        return !requesting && !inCS && token != null && !census.active();
    }

    /**
     * At rest: not requesting, not in the critical section, no census running, and the token, if it is here,
     * has nobody queued. The idle token may go with the rest: the next use's census finds no token and
     * regenerates it once (above the fencing floor); RN may go because every member drops it at once.
     */
    @Override
    public boolean atRest() {
        return !requesting && !inCS && !census.active() && (token == null || token.queue.isEmpty());
    }

    @Override
    public void onRelease() {
        census.beforeEvent();
        if (!inCS) {
            throw new IllegalStateException(self + " is not in the critical section");
        }
        // rule 4: record our request as served, queue every newer request heard, pass the token on
        inCS = false;
        requesting = false;
        if (token == null) {
            return; // a census gave the token to another member (only after a partition)
        }
        token.last.put(self, rn(self));
        for (NodeId j : view().members()) {
            if (!j.equals(self) && !token.queue.contains(j) && pending(j)) {
                token.queue.addLast(j);
            }
        }
        if (!census.active()) {
            passToQueueHead();
        } // else: keep it until the census ends
    }

    @Override
    public void onMessage(NodeId from, SuzukiKasamiMessage message) {
        if (census.onMessage(from, message)) {
            return;
        }
        if (message instanceof Request request) {
            onRequestMessage(from, request.sn());
        } else if (message instanceof Token t) {
            onToken(t);
        }
    }

    /** Rule 2: remember the request number; an idle holder sends the token at once (GAP-FILL). */
    private void onRequestMessage(NodeId from, long sn) {
        if (!view().contains(from) || from.equals(self)) {
            return;
        }
        rn.mergeMax(from, sn);
        if (idleHandOff && token != null && !inCS && pending(from)) {
            sendToken(from);
        }
    }

    /**
     * Rule 3: the token, which is sent only to a node with an outstanding request; a copy with a hop
     * already seen (a duplicate) or of another epoch is ignored. Should it reach a node that does not
     * want it (the sender's knowledge of a member that left and came back under the same id was
     * stale), the node keeps it as an idle holder and hands it on by rule 2, so it is never lost.
     */
    private void onToken(Token t) {
        if (t.epoch() != view().epoch() || t.hop() <= lastHop || token != null) {
            return;
        }
        lastHop = t.hop();
        token = new TokenState();
        token.hop = t.hop();
        t.last().forEach(token.last::put);
        token.queue.addAll(t.queue());
        observeFence(t.fence());
        forget(view());
        useOrHandOff();
    }

    /** The holder, not in the CS: enter if we want it, else pass to Q's head or to a request heard. */
    private void useOrHandOff() {
        if (requesting) {
            enter();
        } else if (!token.queue.isEmpty()) {
            passToQueueHead();
        } else {
            handOffToAPendingRequest();
        }
    }

    /** Drops what we know of members that are not in {@code v} (they left). */
    private void forget(View v) {
        rn.removeKeysIf(m -> !v.contains(m));
        if (token != null) {
            token.last.removeKeysIf(m -> !v.contains(m));
            token.queue.removeIf(m -> !v.contains(m));
        }
    }

    @Override
    public void onView(View newView) {
        forget(newView); // at once: a member that left may rejoin under its id before the census ends
        census.onView(newView); // census active now: the token stays where it is until DONE
    }

    /**
     * Whether {@code j} has a request the token has not served: the source notes' {@code RN[j] == LN[j] + 1}.
     * Written {@code RN[j] > LN[j]}, which is the same while numbers grow by one ({@code RN[j]} never
     * exceeds {@code LN[j] + 1}: one outstanding request per node) and also serves a node that
     * rejoined under the same id and numbers its requests from a higher start.
     */
    private boolean pending(NodeId j) {
        return rn(j) > token.last(j);
    }

    private void enter() {
        inCS = true;
        effects.granted(nextFence());
    }

    private void passToQueueHead() {
        NodeId next = token.queue.pollFirst();
        if (next != null) {
            sendToken(next);
        }
    }

    private void sendToken(NodeId to) {
        TokenState t = token;
        token = null;
        t.queue.remove(to);
        effects.send(to, new Token(view().epoch(), t.hop + 1, highestFence(), t.last.toSortedMap(),
                t.queue.toList()));
    }

    // ---- census: this node is its port (what it reports, and the rebuild at its end) --------

    @Override
    public MutexEffects<SuzukiKasamiMessage> censusEffects() {
        return effects;
    }

    @Override
    public SuzukiKasamiMessage carryCensus(CensusMessage message) {
        return new Census(message);
    }

    @Override
    public CensusReport localReport(long epoch) {
        return new CensusReport(epoch, token != null, inCS, token != null ? highestFence() : 0,
                highestFence(), rn(self), requesting && numbered);
    }

    @Override
    public void censusDone(CensusOutcome outcome, Map<NodeId, CensusReport> reports) {
        lastHop = 0; // hops restart with the epoch
        if (token != null) {
            token.hop = 0;
        }
        if (!outcome.holder().equals(self)) {
            token = null; // another member keeps the token (more than one only after a partition)
        } else if (outcome.regenerated()) { // replacing a stale token this member may hold
            // regenerated here: LN from every member's report, so served requests stay served
            token = new TokenState();
            for (Map.Entry<NodeId, CensusReport> e : reports.entrySet()) {
                CensusReport r = e.getValue();
                rn.mergeMax(e.getKey(), r.requestNumber());
                token.last.put(e.getKey(), r.waiting() ? r.requestNumber() - 1 : r.requestNumber());
            }
        }
        if (token != null && !inCS) {
            useOrHandOff();
        } else if (requesting && !inCS) {
            ask(); // our REQUEST may have been lost with the old epoch: same number again
        }
    }

    @Override
    public void redeliver(NodeId from, SuzukiKasamiMessage message) {
        onMessage(from, message);
    }

    /** An idle holder after a census: rule 2 for a request heard before (lowest member first). */
    private void handOffToAPendingRequest() {
        if (!idleHandOff) {
            return;
        }
        for (NodeId j : view().members()) {
            if (!j.equals(self) && pending(j)) {
                sendToken(j);
                return;
            }
        }
    }

    @Override
    public String toString() {
        return "SuzukiKasami[" + self + (token != null ? " TOKEN" + token.last + "Q" + token.queue : "")
                + (inCS ? " IN_CS" : requesting ? " WAITING" : "") + " RN=" + rn + " " + census + "]";
    }
}
