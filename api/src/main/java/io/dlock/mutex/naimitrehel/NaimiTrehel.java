package io.dlock.mutex.naimitrehel;

import io.dlock.mutex.common.CensusMessage;
import io.dlock.mutex.common.CensusOutcome;
import io.dlock.mutex.common.CensusReport;
import io.dlock.mutex.common.EffectsCensusPort;
import io.dlock.mutex.common.FencedMutexProtocol;
import io.dlock.mutex.common.TokenCensus;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.CandidateElected;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Census;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Consult;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.ConsultReply;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Election;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Query;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Request;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Token;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.TokenPresent;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.ProtocolContext;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.HashMap;
import java.util.Map;

/**
 * Naimi-Trehel mutual exclusion by path reversal, with the source notes' token-loss recovery: every node
 * keeps only {@code LAST} (its guess of the root of a dynamic tree) and {@code NEXT} (who gets the
 * token after it); a request travels along {@code LAST} pointers to the root, and every node on the
 * way points its {@code LAST} at the requester.
 *
 * <p><b>Source.</b> Source notes S3 (docs/algorithms.md §0.6) (Алгоритм Naimi-Trehel), as restated in
 * docs/algorithms.md A9 (rules 1-4, recovery rules FT 5-17) and Part D F11-F14; M. Naimi, M. Trehel, A. Arnold,
 * "A log(N) distributed mutual exclusion algorithm based on path reversal", JPDC 34(1), 1996; M.
 * Naimi, M. Trehel, "How to detect a failure and regenerate the token in the log(n) distributed
 * algorithm for mutual exclusion", WDAG 1987.
 *
 * <p><b>Assumptions.</b> Fully connected, reliable within an epoch except for the faults the
 * recovery handles (a lost REQUEST or TOKEN, a crashed holder); FIFO not required (F11). Recovery
 * needs the source notes' timing: {@code telec} above twice the largest message delay, {@code twait} above
 * any legitimate wait that CONSULT does not cover (a request still being forwarded).
 *
 * <p><b>Cost.</b> O(log N) messages per entry on average, N at worst ((N-1) REQUEST hops and the
 * TOKEN), 0 for the idle root; synchronization delay T. Recovery: N-1 per broadcast phase plus the
 * answers (docs/algorithms.md NT-5: 17 messages for N = 5).
 *
 * <p><b>Ids.</b> docs/algorithms.md numbers nodes 1..N with {@code NEXT = 0} meaning nil; here nodes are the
 * view's {@link NodeId}s (node {@code k} of docs/algorithms.md is the member of rank {@code k-1}) and nil is
 * {@code null}. "The smallest candidate" (rule 14) is the smallest {@code NodeId}, i.e. the lowest
 * rank. The formulas are otherwise docs/algorithms.md's.
 *
 * <p><b>Deviations and additions.</b>
 * <ul>
 *   <li>Robustness: REQUESTs are numbered per origin and each node ignores a REQUEST whose number
 *       it has seen (duplicates); the TOKEN carries {@code (fence, hop)}, which grows with every
 *       send, and a node drops a TOKEN not above the last it accepted (a duplicate).</li>
 *   <li>Fencing: the token carries the highest fence granted with it. A regenerated token (rule 15)
 *       starts at {@code epoch * 2^32 + generation * 2^20}, above every fence of the previous
 *       generation (fewer than 2^20 grants per generation, fewer than 2^12 regenerations per epoch),
 *       because the source notes' recovery gathers no fence reports (NT-5's 17 messages leave no room).</li>
 *   <li>F12: a requesting root (waiting or in the CS) records NEXT; a second request reaching a root
 *       that already has a NEXT (only after a recovery re-request) is forwarded to that NEXT.</li>
 *   <li>Rules 12, 14, 16, 17 are docs/algorithms.md's GAP-FILLs (F13).</li>
 *   <li>View changes and creation on first use (not in the source notes) go through the shared
 *       {@linkplain io.dlock.mutex.common.TokenCensus token census}: the steward (lowest member) finds
 *       the token or regenerates it; then every node sets LAST to the holder and NEXT to nil, and each
 *       waiting node sends a new REQUEST to the holder. The census's 3(N-1) messages are not part of
 *       the per-entry cost.</li>
 *   <li>{@link CandidateElected} is acted on once per generation (duplicates are ignored); a node
 *       that still holds a token when it learns of a regenerated one drops it (docs/algorithms.md A9 rule 16);
 *       if it is in the CS (a holder paused longer than the recovery timers, which the source notes'
 *       timing assumptions exclude), it drops it when it leaves: the token carries its generation
 *       and a held token older than the newest announced one is never used again. That pause
 *       costs one overlap of two holders, as the source notes admit, and no more.</li>
 * </ul>
 */
final class NaimiTrehel extends FencedMutexProtocol<NaimiTrehelMessage> implements EffectsCensusPort<NaimiTrehelMessage> {

    /*
     * Overview.
     *
     * State: last (never null; last == self means root), next (null = nil), hasToken, requesting
     * (from onRequest to onRelease), inCS; the token's fence counter and hop count while held;
     * lastStamp, the (fence, hop) of the last token accepted; seq, the number of our latest REQUEST
     * (re-sends get new numbers); seen, the highest REQUEST number seen per origin (null while none);
     * recovery: ft, generation, minCandidate, and timeouts (null unless fault-tolerant). The view is the
     * census's; this node is the census's port.
     *
     * Invariants (failure-free, docs/algorithms.md A9):
     *  - Exactly one node has hasToken, or the token is in flight.
     *  - A node not requesting that is root holds the token (rule 1's root case enters at once).
     *  - The nodes waiting for the token form the chain holder -> NEXT -> NEXT ...; each requester is
     *    in it at most once because each REQUEST number is acted on once per node (seen).
     *  - The token is sent only by a holder that is not in the CS (rules 2 and 4), so at most one node
     *    is in the CS (ME1).
     *  - Generations (recovery): the token carries the generation it was regenerated in; a node
     *    knows the newest generation announced (CANDIDATE_ELECTED). A held token of an older
     *    generation is dropped as soon as its holder is out of the CS (rule 16 when idle, onRelease
     *    when the announcement arrived during the CS), so a holder slower than the recovery timers
     *    causes at most the one overlap the source notes admit, never a permanent second token.
     *
     * Recovery (rules 5-17) is driven by the timers TWAIT, TELEC and TOBS, all cancelled when the
     * token arrives (rule 6). It changes last/next only in rule 15/16 (everyone points at the elected
     * node) and re-sends requests with new numbers (rules 12, 16).
     *
     * Fencing: the holder grants nextFence(); the token carries highestFence(); the receiver
     * observes it. A regenerated token starts at the generation floor (see class comment).
     *
     * View changes and lazy creation (io.dlock.mutex.common.TokenCensus): while the census is active
     * no token is sent and nobody enters; algorithm messages are deferred and requests remembered.
     * At its end every node points LAST at the holder, clears NEXT, and a waiting node sends a new
     * REQUEST to the holder (so the NEXT chain is rebuilt from scratch; requests lost with the old
     * epoch cannot leave anyone waiting). Recovery timers stop at a view change.
     */

    static final String TWAIT = "twait";
    static final String TELEC = "telec";
    static final String TOBS = "tobs";

    /** Bits of the fence below the generation (grants per generation). */
    static final int GENERATION_SHIFT = 20;

    /** The recovery state of docs/algorithms.md A9 rule 5-17. */
    enum Ft { NORMAL, WAITING, CONSULTING, QUERY, CANDIDATE, OBSERVER }

    private final NodeId self;
    private final MutexEffects<NaimiTrehelMessage> effects;
    /** The recovery's timeouts (rules 5-17); null when recovery is off (option fault-tolerant = false). */
    private final RecoveryTimeouts timeouts;

    private NodeId last;
    private NodeId next;
    private long nextSeq;
    private boolean hasToken;
    private boolean requesting;
    private boolean inCS;
    private long tokenHop;
    private long lastStampFence = -1;
    private long lastStampHop = -1;
    private long seq;
    /** Per origin, the highest REQUEST number seen; null while none (made at the first). */
    private Map<NodeId, Long> seen;

    private Ft ft = Ft.NORMAL;
    /** The newest token generation this node knows of (rules 15, 16). */
    private long generation;
    /** The generation of the token this node holds (meaningful while hasToken); below generation = stale. */
    private long tokenGeneration;
    private NodeId minCandidate;

    private final TokenCensus<NaimiTrehelMessage> census;

    /**
     * The recovery's timeouts, in milliseconds (kept apart: a node without recovery keeps none).
     *
     * @param twait how long a waiting node waits before it consults (rule 7)
     * @param telec how long each recovery phase waits for answers (rules 10, 13, 15; TOBS is twice it)
     */
    private record RecoveryTimeouts(long twait, long telec) {
    }

    NaimiTrehel(ProtocolContext<NaimiTrehelMessage> context, boolean faultTolerant, long twait, long telec) {
        super(context.fencingFloor());
        this.self = context.self();
        this.effects = context.effects();
        this.timeouts = faultTolerant ? new RecoveryTimeouts(twait, telec) : null;
        // decision in docs/algorithms.md: node 1 (the lowest member) is the initial root and holder
        NodeId root = context.view().member(0);
        this.last = root;
        this.hasToken = context.startsIdle() && root.equals(self);
        this.census = new TokenCensus<>(self, context.view(), context.startsIdle(), this, this);
    }

    private View view() {
        return census.view();
    }

    // ---- application --------------------------------------------------------------------------

    @Override
    public void onRequest() {
        if (requesting) {
            throw new IllegalStateException(self + " already has an outstanding request");
        }
        census.beforeEvent();
        requesting = true;
        if (census.active()) {
            return; // remembered: sent (or served) when the census ends
        }
        if (hasToken) {
            // rule 1, root case: a non-requesting root holds the idle token: enter with no message
            enter();
            return;
        }
        if (last.equals(self)) {
            // a root without the token (only after a recovery anomaly): wait, recovery will act
            startWaiting();
            return;
        }
        sendRequest(last);
    }

    /** A non-requesting root with the idle token and no census running enters at once (rule 1, root case). */
    @Override
    public boolean canEnterLocally() {
        return !requesting && hasToken && !census.active();
    }

    /**
     * At rest: not requesting, not in the critical section, no successor waiting ({@code next}), no recovery in
     * progress and no census running. The idle token (if here) may go: the next use's census regenerates it once.
     */
    @Override
    public boolean atRest() {
        return !requesting && !inCS && next == null && ft == Ft.NORMAL && !census.active();
    }

    @Override
    public void onRelease() {
        if (!inCS) {
            throw new IllegalStateException(self + " is not in the critical section");
        }
        // rule 4: pass the token to NEXT, or keep it idle
        census.beforeEvent();
        inCS = false;
        requesting = false;
        ft = Ft.NORMAL;
        if (hasToken && tokenGeneration < generation) {
            // a token was regenerated while we were in the CS (we were slower than the
            // recovery timers): ours is a stale duplicate; drop it so that we do not keep a second
            // token for good. Rule 16 pointed LAST at the new holder and cleared NEXT.
            hasToken = false;
            return;
        }
        if (next != null && !census.active()) {
            sendToken(next, nextSeq);
        }
    }

    /** Rule 1 (and 12, 16): sends a new REQUEST of ours to {@code to}; LAST = me; rule 5: WAITING. */
    private void sendRequest(NodeId to) {
        seq++;
        markSeen(self, seq);
        effects.send(to, new Request(self, seq));
        last = self;
        startWaiting();
    }

    /** Rule 5: WAITING, timer Twait. */
    private void startWaiting() {
        ft = Ft.WAITING;
        if (timeouts != null) {
            effects.cancelTimer(TELEC);
            effects.cancelTimer(TOBS);
            effects.setTimer(TWAIT, timeouts.twait());
        }
    }

    private void enter() {
        inCS = true;
        ft = Ft.NORMAL;
        cancelTimers();
        effects.granted(nextFence());
    }

    private void sendToken(NodeId to, long forSeq) {
        hasToken = false;
        next = null;
        nextSeq = 0;
        tokenHop++;
        effects.send(to, new Token(forSeq, highestFence(), tokenHop, tokenGeneration));
    }

    private void cancelTimers() {
        if (timeouts != null) {
            effects.cancelTimer(TWAIT);
            effects.cancelTimer(TELEC);
            effects.cancelTimer(TOBS);
        }
    }

    // ---- messages -----------------------------------------------------------------------------

    @Override
    public void onMessage(NodeId from, NaimiTrehelMessage message) {
        if (census.onMessage(from, message)) {
            return; // a census message, or deferred until the census ends
        }
        if (message instanceof Request r) {
            onRequestMessage(r);
        } else if (message instanceof Token t) {
            onToken(t);
        } else if (message instanceof Consult c) {
            // rule 8: tell the consulting node that its request is recorded here
            if (from.equals(next)) {
                effects.send(from, new ConsultReply(c.seq()));
            }
        } else if (message instanceof ConsultReply r) {
            // rule 9: a live predecessor has us as NEXT: keep waiting
            if (ft == Ft.CONSULTING && r.seq() == seq) {
                startWaiting();
            }
        } else if (message instanceof Query q) {
            // rule 11
            if (hasToken) {
                effects.send(from, new TokenPresent(q.seq()));
            }
        } else if (message instanceof TokenPresent p) {
            // rule 12 (GAP-FILL): the token exists but our request was lost: ask its holder again
            if ((ft == Ft.QUERY || ft == Ft.CANDIDATE) && p.seq() == seq && requesting && !inCS) {
                sendRequest(from);
            }
        } else if (message instanceof Election e) {
            onElection(from, e);
        } else if (message instanceof CandidateElected c) {
            onCandidateElected(from, c);
        }
    }

    /** Rule 2: serve, queue or forward a request; path reversal. */
    private void onRequestMessage(Request r) {
        NodeId j = r.origin();
        if (r.seq() <= seenFrom(j) || j.equals(self) || !view().contains(j)) {
            return; // a duplicate, our own request come back, or a departed node
        }
        markSeen(j, r.seq());
        if (last.equals(self)) {
            if (requesting) {
                if (next == null) {
                    next = j; // F12: a requesting root (waiting or in the CS) records NEXT
                    nextSeq = r.seq();
                } else {
                    effects.send(next, r); // only after a re-request: queue it behind our NEXT
                }
            } else if (hasToken) {
                sendToken(j, r.seq()); // idle root: hand the token over
            } else {
                next = j; // a root without token nor request (recovery anomaly): remember the request
                nextSeq = r.seq();
            }
        } else {
            effects.send(last, r); // not the root: forward toward it
        }
        last = j; // path reversal
    }

    /** The highest REQUEST number seen from {@code origin}, 0 if none. */
    private long seenFrom(NodeId origin) {
        return seen == null ? 0 : seen.getOrDefault(origin, 0L);
    }

    /** Records {@code seq} as the highest REQUEST number seen from {@code origin}. */
    private void markSeen(NodeId origin, long seq) {
        if (seen == null) {
            seen = new HashMap<>();
        }
        seen.put(origin, seq);
    }

    /** Rules 3 and 6: accept a token (unless it is a copy of one already had) and enter. */
    private void onToken(Token t) {
        if (t.fence() < lastStampFence || (t.fence() == lastStampFence && t.hop() <= lastStampHop)) {
            return; // a duplicate or an older token
        }
        if (t.generation() < generation) {
            return; // a token of a generation that was regenerated since: stale
        }
        lastStampFence = t.fence();
        lastStampHop = t.hop();
        hasToken = true;
        tokenHop = t.hop();
        generation = t.generation();
        tokenGeneration = t.generation();
        observeFence(t.fence());
        if (requesting && !inCS) {
            enter();
        } else if (next != null) {
            sendToken(next, nextSeq); // a token for a request already served: pass it on
        }
    }

    /** Rule 14. */
    private void onElection(NodeId from, Election e) {
        if (hasToken) {
            effects.send(from, new TokenPresent(e.seq())); // GAP-FILL: no regeneration needed
            return;
        }
        if (ft == Ft.CANDIDATE && self.compareTo(from) < 0) {
            return; // the smallest candidate wins; we are smaller
        }
        ft = Ft.OBSERVER;
        if (minCandidate == null || from.compareTo(minCandidate) < 0) {
            minCandidate = from;
        }
        if (timeouts != null) {
            effects.cancelTimer(TWAIT);
            effects.cancelTimer(TELEC);
            effects.setTimer(TOBS, 2 * timeouts.telec());
        }
    }

    /** Rule 16. */
    private void onCandidateElected(NodeId from, CandidateElected c) {
        if (c.generation() <= generation) {
            return; // a duplicate, or older than the token we know
        }
        generation = c.generation();
        minCandidate = null;
        cancelTimers();
        if (hasToken && !inCS) {
            hasToken = false; // two tokens: keep the regenerated one (unreachable under the timing assumptions)
        }
        last = from;
        next = null;
        nextSeq = 0;
        if (requesting && !inCS) {
            sendRequest(from); // GAP-FILL: our queue position was erased: request again
        } else {
            ft = Ft.NORMAL;
        }
    }

    // ---- timers -------------------------------------------------------------------------------

    @Override
    public void onTimer(String name) {
        census.beforeEvent();
        if (timeouts == null || census.active()) {
            return; // the census settles the token; waiting requesters re-request after it
        }
        if (name.equals(TWAIT) && ft == Ft.WAITING) {
            consult(); // rule 7
        } else if (name.equals(TELEC) && ft == Ft.CONSULTING) {
            // rule 10
            ft = Ft.QUERY;
            effects.broadcast(new Query(seq));
            effects.setTimer(TELEC, timeouts.telec());
        } else if (name.equals(TELEC) && ft == Ft.QUERY) {
            // rule 13
            ft = Ft.CANDIDATE;
            effects.broadcast(new Election(seq));
            effects.setTimer(TELEC, timeouts.telec());
        } else if (name.equals(TELEC) && ft == Ft.CANDIDATE) {
            regenerate(); // rule 15
        } else if (name.equals(TOBS) && ft == Ft.OBSERVER) {
            // rule 17 (GAP-FILL)
            minCandidate = null;
            if (requesting && !inCS) {
                consult();
            } else {
                ft = Ft.NORMAL;
            }
        }
    }

    /** Rule 7: suspected failure: does anyone have NEXT = me? */
    private void consult() {
        if (seq == 0) {
            seq = 1; // a root that never sent a request (anomaly): give the recovery messages a number
            markSeen(self, seq);
        }
        ft = Ft.CONSULTING;
        effects.broadcast(new Consult(seq));
        effects.setTimer(TELEC, timeouts.telec());
    }

    /** Rule 15: elected: regenerate the token, become the root, announce it, enter. */
    private void regenerate() {
        generation++;
        tokenGeneration = generation;
        long floor = (Math.min(view().epoch(), (1L << 31) - 1) << 32) + (generation << GENERATION_SHIFT);
        observeFence(floor);
        hasToken = true;
        tokenHop = 0;
        lastStampFence = highestFence();
        lastStampHop = 0;
        last = self;
        next = null;
        nextSeq = 0;
        minCandidate = null;
        effects.broadcast(new CandidateElected(generation));
        enter();
    }

    // ---- view ---------------------------------------------------------------------------------

    @Override
    public void onView(View newView) {
        // messages of the old epoch are lost: the census finds (or remakes) the token; recovery stops
        cancelTimers();
        ft = Ft.NORMAL;
        minCandidate = null;
        if (seen != null) {
            seen.keySet().removeIf(member -> !newView.contains(member));
        }
        census.onView(newView);
    }

    // ---- census: this node is its port (what it reports, and the rebuild toward the holder) -

    @Override
    public MutexEffects<NaimiTrehelMessage> censusEffects() {
        return effects;
    }

    @Override
    public NaimiTrehelMessage carryCensus(CensusMessage message) {
        return new Census(message);
    }

    /** The token carries nothing built from the reports: a regenerated one may start at a waiting member. */
    @Override
    public boolean regeneratesAnywhere() {
        return true;
    }

    @Override
    public CensusReport localReport(long epoch) {
        return new CensusReport(epoch, hasToken, inCS, hasToken ? highestFence() : 0, highestFence(), seq,
                requesting && !inCS);
    }

    /** Every node: LAST = holder, NEXT = nil; the holder has the token; waiting nodes request again. */
    @Override
    public void censusDone(CensusOutcome outcome, Map<NodeId, CensusReport> reports) {
        NodeId holder = outcome.holder();
        generation = 0;
        tokenGeneration = 0;
        if (holder.equals(self)) {
            if (outcome.regenerated()) { // regenerated by the census (replacing a stale token)
                hasToken = true;
                tokenHop = 0;
                lastStampFence = highestFence();
                lastStampHop = 0;
            }
        } else {
            hasToken = false; // only after a partition: another member keeps its token
        }
        last = holder;
        next = null;
        nextSeq = 0;
        if (requesting && !inCS) {
            if (hasToken) {
                enter();
            } else {
                sendRequest(holder);
            }
        }
    }

    @Override
    public void redeliver(NodeId from, NaimiTrehelMessage message) {
        onMessage(from, message);
    }

    // ---- inspection (tests) ----------------------------------------------------------------

    NodeId last() {
        return last;
    }

    NodeId next() {
        return next;
    }

    boolean hasToken() {
        return hasToken;
    }

    @Override
    public String toString() {
        return "NaimiTrehel[" + self + " last=" + last + " next=" + next + (hasToken ? " token" : "")
                + (requesting ? " requesting" : "") + (inCS ? " inCS" : "") + " ft=" + ft + " seq=" + seq
                + " gen=" + generation + (hasToken ? "/" + tokenGeneration : "") + " fence=" + highestFence() + " " + census + "]";
    }
}
