package io.dlock.mutex.tokenring;

import io.dlock.mutex.common.CensusOutcome;
import io.dlock.mutex.common.CensusReport;
import io.dlock.mutex.common.EffectsCensusPort;
import io.dlock.mutex.common.FencingCounter;
import io.dlock.mutex.common.TokenCensus;
import io.dlock.mutex.tokenring.TokenRingMessage.Census;
import io.dlock.mutex.tokenring.TokenRingMessage.Token;
import io.dlock.mutex.tokenring.TokenRingMessage.TokenAck;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.spi.NodeId;
import io.dlock.spi.View;

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
 * <p><b>Cost.</b> 1 to infinity messages per entry (notes S0: "1から"): one TOKEN per hop, and the token
 * keeps circulating while nobody wants it (docs/algorithms.md F30); exactly 1 per entry under full load (TR-2), N
 * per idle circulation (TR-1). Synchronization delay T to (N-1)T; delay before entry 0 to N-1 hops.
 *
 * <p><b>Deviations from the source notes.</b>
 * <ul>
 *   <li>Option {@code idle-pause-ms} (default {@value TokenRingDefinition#DEFAULT_IDLE_PAUSE_MS}): a holder
 *       that does not want the critical section keeps the token that long before passing it on, so an
 *       idle cluster does not spin a core; 0 is docs/algorithms.md's behaviour. A request made while the token
 *       pauses here enters at once. A holder leaving the critical section passes at once (rule 3).</li>
 *   <li>Rule 5 ({@code init()} at {@code ring[0]}) runs on {@link #onStart()}, which the simulator
 *       calls at time 0 (a protocol may not act in its constructor), so the circulation starts then
 *       and a workload that never involves {@code ring[0]} is served; a driver that does not call
 *       {@code onStart} gets rule 5 at {@code ring[0]}'s first event.</li>
 *   <li>The token carries its epoch and a hop count; a receiver accepts only a hop above the last it
 *       accepted, so a duplicated TOKEN is ignored. It also carries the fencing counter.</li>
 *   <li>A one-member ring keeps the token (there is no one to pass it to).</li>
 *   <li>View changes and creation on first use: the census keeps exactly one token; the ring is
 *       rebuilt from the new view and hop counts restart.</li>
 * </ul>
 */
final class TokenRing implements MutexProtocol<TokenRingMessage> {

    /*
     * Overview.
     *
     * State: holding (the token is here) with tokenHop (its hop count when it arrived); lastHop
     * (highest hop accepted in this epoch); wantCS (onRequest until onRelease, docs/algorithms.md's wantCS);
     * inCS; pausing (an idle-pause timer runs); genesisPending (ring[0] of a simulation has not yet
     * run rule 5); fences; census.
     *
     * Invariants:
     *  - At most one token per epoch: it moves only by a TOKEN message, the sender drops it
     *    (holding = false) when it sends, the receiver takes it only if its hop is new, and the
     *    census regenerates one only when no member reports it.
     *  - inCS implies holding. pausing implies holding, !wantCS and no census active.
     *  - No starvation: a node that wants the CS enters at the token's next visit, and each visit
     *    lets at most one entry happen (rule 3 passes on exit).
     *
     * Fencing. Only the holder grants, taking fences.next(); the token carries the sender's
     * highest, so grants increase along the ring; across epochs the census floor and enterEpoch.
     */

    /** The idle-pause timer's name. */
    static final String PASS_TIMER = "token-ring-pass";
    /** The TOKEN_ACK timer's name (rule 6). */
    static final String ACK_TIMER = "token-ring-ack";

    private final NodeId self;
    private final MutexEffects<TokenRingMessage> effects;
    private final long idlePauseMillis;
    /** Rule 6's TOKEN_ACK timeout, 0 = off. */
    private final long tokenAckMillis;
    private final FencingCounter fences = new FencingCounter();
    private final TokenCensus<TokenRingMessage> census;

    private boolean holding;
    private long tokenHop;
    private long lastHop;
    private boolean wantCS;
    private boolean inCS;
    private boolean pausing;
    private boolean genesisPending;
    /** Rule 6: the last token sent and not yet acknowledged (its receiver and hop), or null. */
    private NodeId unackedTo;
    private long unackedHop;
    /** Rule 6: members this node found silent in this epoch; its pass skips them. */
    private final java.util.Set<NodeId> skipped = new java.util.TreeSet<>();

    TokenRing(ProtocolContext<TokenRingMessage> context, long idlePauseMillis, long tokenAckMillis) {
        this.self = context.self();
        this.effects = context.effects();
        this.idlePauseMillis = idlePauseMillis;
        this.tokenAckMillis = tokenAckMillis;
        this.census = new TokenCensus<>(self, context.view(), context.startsIdle(), fences, new Port());
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
        // rule 1: wantCS; the token is not parked, except during an idle pause (or a census)
        wantCS = true;
        if (holding && !census.active()) {
            enter();
        }
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
            if (tokenAckMillis > 0 && t.epoch() == view().epoch()) {
                effects.send(from, new TokenAck(t.epoch(), t.hop())); // rule 6, duplicates included
            }
            onToken(t);
        } else if (message instanceof TokenAck a) {
            if (unackedTo != null && unackedTo.equals(from) && a.epoch() == view().epoch() && a.hop() == unackedHop) {
                unackedTo = null;
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
        fences.observe(t.fence());
        arrived();
    }

    private void arrived() {
        if (wantCS) {
            enter();
        } else {
            idle();
        }
    }

    /** The holder does not want the token: pass it now, or after the idle pause. */
    private void idle() {
        if (idlePauseMillis == 0 || view().size() == 1) {
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
        } else if (ACK_TIMER.equals(name) && unackedTo != null) {
            NodeId silent = unackedTo;
            unackedTo = null;
            if (!holding && !census.active()) {
                // rule 6: the successor is silent: take it for crashed, take the token back (as the
                // only copy: the successor never acknowledged it) and send it on past the successor
                skipped.add(silent);
                holding = true;
                arrived();
            } // else the token is back here already: it went round, the successor is alive
        }
    }

    @Override
    public void onView(View newView) {
        stopPause();
        if (unackedTo != null) {
            unackedTo = null;
            effects.cancelTimer(ACK_TIMER);
        }
        skipped.clear(); // the membership decides from now on
        census.onView(newView); // census active: the token stays where it is until DONE
    }

    private void enter() {
        stopPause();
        inCS = true;
        effects.granted(fences.next());
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
            if (!skipped.contains(candidate)) {
                successor = candidate;
            }
        }
        if (successor == null) {
            return; // alone in the ring (or every other member silent): keep the token
        }
        holding = false;
        tokenHop++;
        effects.send(successor, new Token(v.epoch(), tokenHop, fences.highest()));
        if (tokenAckMillis > 0) {
            unackedTo = successor;
            unackedHop = tokenHop;
            effects.setTimer(ACK_TIMER, tokenAckMillis);
        }
    }

    // ---- census -----------------------------------------------------------------------------

    /** The census's view of this node, and the rebuild at its end. */
    private final class Port extends EffectsCensusPort<TokenRingMessage> {

        Port() {
            super(effects, Census::new);
        }

        @Override
        public CensusReport localReport(long epoch) {
            return new CensusReport(epoch, holding, inCS, holding ? fences.highest() : 0, fences.highest(), 0,
                    wantCS && !inCS);
        }

        @Override
        public void censusDone(CensusOutcome outcome) {
            genesisPending = false;
            holding = outcome.holder().equals(self); // keeps, regenerates or discards
            tokenHop = 0; // hops restart with the epoch: the ring is rebuilt from the new view
            lastHop = 0;
            if (holding && !inCS) {
                arrived();
            }
        }

        @Override
        public void redeliver(NodeId from, TokenRingMessage message) {
            onMessage(from, message);
        }
    }

    @Override
    public String toString() {
        return "TokenRing[" + self + (holding ? " TOKEN@" + tokenHop : "") + (inCS ? " IN_CS" : wantCS ? " WANT" : "")
                + (pausing ? " PAUSING" : "") + " " + census + "]";
    }
}
