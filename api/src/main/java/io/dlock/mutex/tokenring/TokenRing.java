package io.dlock.mutex.tokenring;

import io.dlock.mutex.common.CensusMessage;
import io.dlock.mutex.common.CensusOutcome;
import io.dlock.mutex.common.CensusReport;
import io.dlock.mutex.common.EffectsCensusPort;
import io.dlock.mutex.common.FencedMutexProtocol;
import io.dlock.mutex.common.TokenCensus;
import io.dlock.mutex.tokenring.TokenRingMessage.Census;
import io.dlock.mutex.tokenring.TokenRingMessage.Parked;
import io.dlock.mutex.tokenring.TokenRingMessage.Token;
import io.dlock.mutex.tokenring.TokenRingMessage.TokenAck;
import io.dlock.mutex.tokenring.TokenRingMessage.Wake;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.ProtocolContext;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.Map;

/**
 * The token ring: one token travels along the logical ring of the view's members, in ascending id
 * order; only its holder may enter the critical section, and it passes the token on when it leaves,
 * or at once if it does not want it.
 *
 * <p><b>Source.</b> Source notes S0 (docs/algorithms.md §0.6) (Token Ring Algorithm), as restated in docs/algorithms.md
 * A5, rules 1-5; A. S. Tanenbaum and M. van Steen, <i>Distributed Systems</i>, §6.3; G. Le Lann, 1977.
 *
 * <p><b>Assumptions.</b> The ring is the current {@link View}'s members in ascending id order (member
 * of rank {@code k} is {@code ring[k]}, its successor rank {@code k+1 mod N}); reliable within an epoch;
 * FIFO irrelevant (one token). In a simulation ({@link ProtocolContext#startsIdle()}) the token starts at
 * {@code ring[0]} (decision in docs/algorithms.md); otherwise the {@link TokenCensus} establishes it. Crashes are
 * handled by view changes; in addition, option {@code token-ack-ms} turns on the TOKEN_ACK crash
 * variant (rule 6, docs/algorithms.md TR-5): a sender that gets no TOKEN_ACK within the timeout skips its
 * successor (and every member it skipped before in this epoch) and sends the token on, so a crashed
 * member still in the view does not stop the ring. Its timing assumption: the timeout exceeds every
 * round trip, or a slow successor gets a second token.
 *
 * <p><b>Cost.</b> One TOKEN per hop; exactly 1 per entry under full load (TR-2), N per idle circulation (TR-1).
 * The published token circulates for ever (docs/algorithms.md F30); here it parks after one idle round (rule 7
 * below), so an idle lock costs N hops and N-1 PARKED once, then nothing, and a request while it is parked
 * costs a WAKE and one TOKEN (0 on the parker). Synchronization delay T to (N-1)T; delay before entry 0 to
 * N-1 hops, or 2 messages from a parked token.
 *
 * <p><b>Deviations from the source notes.</b>
 * <ul>
 *   <li>Option {@code idle-pause-ms} (default {@value TokenRingDefinition#DEFAULT_IDLE_PAUSE_MS}): a holder
 *       that does not want the critical section keeps the token that long before passing it on, to send
 *       fewer messages while one node uses the lock and the others do not; 0 is docs/algorithms.md's
 *       behaviour (an idle cluster falls silent anyway: rule 7). A request made while the token pauses here
 *       enters at once. A holder leaving the critical section passes at once (rule 3).</li>
 *   <li>Rule 5 ({@code init()} at {@code ring[0]}) runs on {@link #onStart()}, which the simulator
 *       calls at time 0 (a protocol may not act in its constructor), so the circulation starts then
 *       and a workload that never involves {@code ring[0]} is served; a driver that does not call
 *       {@code onStart} gets rule 5 at {@code ring[0]}'s first event.</li>
 *   <li>The token carries its epoch and a hop count; a receiver accepts only a hop above the last it
 *       accepted, so a duplicated TOKEN is ignored. It also carries the fencing counter.</li>
 *   <li>A one-member ring keeps the token (there is no one to pass it to): it is parked there.</li>
 *   <li><b>Parking (rule 7).</b> The token counts the holders in a row that did not want it; a holder that
 *       receives it after N-1 such and does not want it either keeps it (parked) and broadcasts PARKED once;
 *       every member remembers the newest parking it heard of (by hop). A request at the parker enters with
 *       no message; elsewhere it sends WAKE to the parker, which sends the token straight to the requester
 *       (mutual exclusion is the one token's; round-robin order resumes from there, and a member that asked
 *       meanwhile is served as the token passes it). A member still waiting when PARKED arrives sends WAKE
 *       then (the token parked just before its request). A WAKE that finds no parked token is ignored. So an
 *       idle lock sends nothing, and its state can be reclaimed ({@link #atRest()}).</li>
 *   <li>View changes and creation on first use: the census keeps exactly one token; the ring is
 *       rebuilt from the new view and hop counts restart.</li>
 * </ul>
 */
final class TokenRing extends FencedMutexProtocol<TokenRingMessage> implements EffectsCensusPort<TokenRingMessage> {

    /*
     * Overview.
     *
     * State: holding (the token is here) with tokenHop (its hop count when it arrived); lastHop
     * (highest hop accepted in this epoch); wantCS (onRequest until onRelease, docs/algorithms.md's wantCS);
     * inCS; pausing (an idle-pause timer runs); genesisPending (ring[0] of a simulation has not yet
     * run rule 5); highestFence (inherited); census (this node is its port); acks (rule 6's state, only with the
     * option on).
     *
     * Invariants:
     *  - At most one token per epoch: it moves only by a TOKEN message, the sender drops it
     *    (holding = false) when it sends, the receiver takes it only if its hop is new, and the
     *    census regenerates one only when no member reports it.
     *  - inCS implies holding. pausing implies holding, !wantCS and no census active.
     *  - No starvation: a node that wants the CS enters at the token's next visit, and each visit
     *    lets at most one entry happen (rule 3 passes on exit).
     *
     * Fencing. Only the holder grants, taking nextFence(); the token carries the sender's
     * highest, so grants increase along the ring; across epochs the census floor and enterEpoch.
     */

    /** The idle-pause timer's name. */
    static final String PASS_TIMER = "token-ring-pass";
    /** The TOKEN_ACK timer's name (rule 6). */
    static final String ACK_TIMER = "token-ring-ack";

    private final NodeId self;
    private final MutexEffects<TokenRingMessage> effects;
    private final long idlePauseMillis;
    /** Rule 6's state (TOKEN_ACK awaited, members found silent); null when the option is off. */
    private final TokenAckWatch acks;
    private final TokenCensus<TokenRingMessage> census;

    private boolean holding;
    private long tokenHop;
    private long lastHop;
    private boolean wantCS;
    private boolean inCS;
    private boolean pausing;
    private boolean genesisPending;
    /** Rule 7: holders in a row that did not want the token, as it arrived here (while holding). */
    private long idleHolders;
    /** Rule 7: this node entered with the token since it last arrived (its pass then counts no idle holder). */
    private boolean usedHere;
    /** Rule 7: the token is parked here. */
    private boolean parked;
    /** Rule 7: where the token is parked, as far as this member knows (null: moving or unknown). */
    private NodeId parkedAt;
    /** Rule 7: the hop of the newest token position this member knows of (a parking or its own receipt). */
    private long knownHop;

    TokenRing(ProtocolContext<TokenRingMessage> context, long idlePauseMillis, long tokenAckMillis) {
        super(context.fencingFloor());
        this.self = context.self();
        this.effects = context.effects();
        this.idlePauseMillis = idlePauseMillis;
        this.acks = tokenAckMillis > 0 ? new TokenAckWatch(tokenAckMillis) : null;
        this.census = new TokenCensus<>(self, context.view(), context.startsIdle(), this, this);
        if (context.startsIdle() && TokenCensus.stewardOf(context.view()).equals(self)) {
            holding = true; // decision in docs/algorithms.md: the token starts at ring[0]
            genesisPending = true; // rule 5 runs at the first event
        }
    }

    private View view() {
        return census.view();
    }

    /** Rule 5 at ring[0] of a simulation, on its first event: behave as on TOKEN receipt. */
    private void genesis() {
        if (genesisPending) {
            genesisPending = false;
            if (holding && !wantCS && !inCS && !census.active()) {
                idle();
            }
        }
    }

    // ---- events -----------------------------------------------------------------------------

    /** Rule 5 at ring[0] of a simulation: the run starts, the idle token leaves (after the idle pause). */
    @Override
    public void onStart() {
        census.beforeEvent();
        genesis();
    }

    @Override
    public void onRequest() {
        census.beforeEvent();
        if (wantCS) {
            throw new IllegalStateException(self + " already has an outstanding request");
        }
        genesisPending = false;
        // rule 1: wantCS; with the token here (parked, pausing) enter, else wake a parked token (rule 7)
        wantCS = true;
        if (holding && !census.active()) {
            enter();
        } else if (parkedAt != null && !census.active()) {
            effects.send(parkedAt, new Wake(view().epoch()));
        }
    }

    /**
     * At rest: not wanting or in the critical section, no census, no TOKEN_ACK awaited, and the token, if here,
     * parked (a moving or pausing token is not at rest). A parked token may be dropped with everything else: the
     * next use's census regenerates it once.
     */
    @Override
    public boolean atRest() {
        return !wantCS && !inCS && !census.active() && (acks == null || !acks.awaiting()) && (!holding || parked);
    }

    /** With the token here (parked or passing through) and no census running, rule 1 enters at once. */
    @Override
    public boolean canEnterLocally() {
        return !wantCS && holding && !census.active();
    }

    @Override
    public void onRelease() {
        census.beforeEvent();
        if (!inCS) {
            throw new IllegalStateException(self + " is not in the critical section");
        }
        // rule 3: leave and pass the token on (during a census: keep it until DONE)
        inCS = false;
        wantCS = false;
        if (holding && !census.active()) {
            pass();
        }
    }

    @Override
    public void onMessage(NodeId from, TokenRingMessage message) {
        if (census.onMessage(from, message)) {
            return;
        }
        genesis();
        if (message instanceof Token t) {
            if (acks != null && t.epoch() == view().epoch()) {
                effects.send(from, new TokenAck(t.epoch(), t.hop())); // rule 6, duplicates included
            }
            onToken(t);
        } else if (message instanceof Parked p) {
            if (p.epoch() == view().epoch() && p.hop() > knownHop && !from.equals(self)) {
                knownHop = p.hop();
                parkedAt = from;
                if (wantCS && !holding) {
                    effects.send(from, new Wake(p.epoch())); // it parked just before our request
                }
            }
        } else if (message instanceof Wake w) {
            if (w.epoch() == view().epoch() && holding && parked && !inCS && !census.active()) {
                parked = false;
                usedHere = true; // a requester waits: the token goes as wanted, not as idle
                sendToken(from); // straight to the requester; the ring order resumes from there
            }
        } else if (message instanceof TokenAck a) {
            if (acks != null && acks.awaits(from, a.hop()) && a.epoch() == view().epoch()) {
                acks.stopAwaiting();
                effects.cancelTimer(ACK_TIMER);
            }
        }
    }

    /** Rule 2: take a new token; enter if we want the CS, else pass it on (after the idle pause). */
    private void onToken(Token t) {
        if (t.epoch() != view().epoch() || t.hop() <= lastHop || holding) {
            return; // another epoch, or a duplicate
        }
        holding = true;
        tokenHop = t.hop();
        lastHop = t.hop();
        idleHolders = t.idle();
        usedHere = false;
        knownHop = Math.max(knownHop, t.hop());
        parkedAt = null; // it moves
        observeFence(t.fence());
        arrived();
    }

    private void arrived() {
        if (wantCS) {
            enter();
        } else {
            idle();
        }
    }

    /** The holder does not want the token: park it after a whole idle round (rule 7), else pass it now or after the pause. */
    private void idle() {
        if (idleHolders >= view().size() - 1) {
            park();
            return;
        }
        if (idlePauseMillis == 0) {
            pass();
        } else {
            pausing = true;
            effects.setTimer(PASS_TIMER, idlePauseMillis);
        }
    }

    @Override
    public void onTimer(String name) {
        census.beforeEvent();
        genesis();
        if (PASS_TIMER.equals(name) && pausing) {
            pausing = false;
            if (holding && !inCS && !wantCS && !census.active()) {
                pass();
            }
        } else if (ACK_TIMER.equals(name) && acks != null && acks.awaiting()) {
            NodeId silent = acks.stopAwaiting();
            if (!holding && !census.active()) {
                // rule 6: the successor is silent: take it for crashed, take the token back (as the
                // only copy: the successor never acknowledged it) and send it on past the successor
                acks.markSilent(silent);
                holding = true;
                arrived();
            } // else the token is back here already: it went round, the successor is alive
        }
    }

    @Override
    public void onView(View newView) {
        stopPause();
        if (acks != null) {
            if (acks.stopAwaiting() != null) {
                effects.cancelTimer(ACK_TIMER);
            }
            acks.forgetSilent(); // the membership decides from now on
        }
        census.onView(newView); // census active: the token stays where it is until DONE
    }

    /** Rule 7: keep the idle token here and tell every member once. */
    private void park() {
        stopPause();
        parked = true;
        parkedAt = self;
        knownHop = Math.max(knownHop, tokenHop);
        if (view().size() > 1) {
            effects.broadcast(new Parked(view().epoch(), Math.max(1, tokenHop)));
        }
    }

    private void enter() {
        stopPause();
        parked = false;
        usedHere = true;
        inCS = true;
        effects.granted(nextFence());
    }

    private void stopPause() {
        if (pausing) {
            pausing = false;
            effects.cancelTimer(PASS_TIMER);
        }
    }

    /**
     * Rule 4: send the token to the successor (a one-member ring keeps it); with rule 6, to the next
     * member not found silent, and wait for its TOKEN_ACK.
     */
    private void pass() {
        View v = view();
        int me = v.indexOf(self);
        NodeId successor = null;
        for (int k = 1; k < v.size() && successor == null; k++) {
            NodeId candidate = v.member((me + k) % v.size());
            if (acks == null || !acks.isSilent(candidate)) {
                successor = candidate;
            }
        }
        if (successor == null) {
            parked = true; // alone in the ring (or every other member silent): keep the token, parked
            return;
        }
        sendToken(successor);
    }

    /** Sends the token to {@code to}, counting this holder as idle unless it just used it (rule 7). */
    private void sendToken(NodeId to) {
        View v = view();
        long idle = usedHere ? 0 : idleHolders + 1;
        holding = false;
        parked = false;
        if (self.equals(parkedAt)) {
            parkedAt = null; // it leaves: a request here must not WAKE this node (it is not parked anywhere known)
        }
        tokenHop++;
        NodeId successor = to;
        effects.send(successor, new Token(v.epoch(), tokenHop, highestFence(), idle));
        if (acks != null) {
            acks.await(successor, tokenHop);
            effects.setTimer(ACK_TIMER, acks.timeoutMillis());
        }
    }

    // ---- census: this node is its port (what it reports, and the rebuild at its end) --------

    @Override
    public MutexEffects<TokenRingMessage> censusEffects() {
        return effects;
    }

    @Override
    public TokenRingMessage carryCensus(CensusMessage message) {
        return new Census(message);
    }

    /** The token carries nothing built from the reports: a regenerated one may start at a waiting member. */
    @Override
    public boolean regeneratesAnywhere() {
        return true;
    }

    @Override
    public CensusReport localReport(long epoch) {
        return new CensusReport(epoch, holding, inCS, holding ? highestFence() : 0, highestFence(), 0,
                wantCS && !inCS);
    }

    @Override
    public void censusDone(CensusOutcome outcome, Map<NodeId, CensusReport> reports) {
        genesisPending = false;
        holding = outcome.holder().equals(self); // keeps, regenerates or discards
        tokenHop = 0; // hops restart with the epoch: the ring is rebuilt from the new view
        lastHop = 0;
        parked = false; // rule 7 starts again in the new epoch: one idle round, then it parks
        parkedAt = null;
        knownHop = 0;
        idleHolders = 0;
        usedHere = false;
        if (holding && !inCS) {
            arrived();
        }
    }

    @Override
    public void redeliver(NodeId from, TokenRingMessage message) {
        onMessage(from, message);
    }

    @Override
    public String toString() {
        return "TokenRing[" + self + (holding ? " TOKEN@" + tokenHop + (parked ? " PARKED" : "") : "") + (inCS ? " IN_CS" : wantCS ? " WANT" : "")
                + (pausing ? " PAUSING" : "") + " " + census + "]";
    }
}
