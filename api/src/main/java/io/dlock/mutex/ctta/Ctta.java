package io.dlock.mutex.ctta;

import io.dlock.mutex.common.CensusMessage;
import io.dlock.mutex.common.CensusOutcome;
import io.dlock.mutex.common.CensusReport;
import io.dlock.mutex.common.EffectsCensusPort;
import io.dlock.mutex.common.FencedMutexProtocol;
import io.dlock.mutex.common.TokenCensus;
import io.dlock.mutex.ctta.CttaMessage.Ack;
import io.dlock.mutex.ctta.CttaMessage.Census;
import io.dlock.mutex.ctta.CttaMessage.CrReq;
import io.dlock.mutex.ctta.CttaMessage.Jdcg;
import io.dlock.mutex.ctta.CttaMessage.Nack;
import io.dlock.mutex.ctta.CttaMessage.Partition;
import io.dlock.mutex.ctta.CttaMessage.Token;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.ProtocolContext;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * CTTA, the Control Token Transfer Algorithm, with token regeneration (REGENERATE): requests are
 * broadcast with per-site numbers, the token carries how often each site has entered the critical
 * section, and the holder passes it to the first site in ring order whose latest request is newer
 * than its entry count. A site that waits too long regenerates the token; ages on sites and on the
 * token guarantee that at most one token survives.
 *
 * <p><b>Source.</b> Source notes S1 (docs/algorithms.md §0.6): 室 章治郎, 加藤 直樹, 寒浦 敏美, 長谷川 利治
 * (S. Muro, N. Katoh, T. Minoura, T. Hasegawa), 「分散型システムにおける相互排除のためのトークンを用いた
 * スキームについて」, as restated in docs/algorithms.md A6 (rules 1-11) and Part D F3-F9.
 *
 * <p><b>Assumptions.</b> Every site reaches every other; FIFO not required; within an epoch the
 * only fault handled is the loss (or long delay) of the token, by REGENERATE.
 *
 * <p><b>Cost.</b> N messages per entry when the token is elsewhere ((N-1) CRREQ and 1 TOKEN), N-1
 * when the idle token is already at the requester (F5: the CRREQs are still broadcast).
 * Synchronization delay T. A REGENERATE attempt costs 2(N-1) (JDCG and ACK/NACK).
 *
 * <p><b>Ids.</b> docs/algorithms.md numbers sites 1..N; here site {@code i} is the member of rank {@code i-1}
 * of the view. The candidate age keeps docs/algorithms.md's arithmetic on 1-based {@code i}
 * ({@link #candidateAge}); arrays are indexed by rank.
 *
 * <p><b>Deviations and additions.</b>
 * <ul>
 *   <li>F3: the lowest member (site 1) starts with the token; F4: {@code LR[j] = max(LR[j], n)};
 *       F7: accepting a token sets {@code CG = TG}; F8: regenerate only if {@code CG == g} at
 *       completion.</li>
 *   <li>Robustness: the token carries {@code (fence, hop)}, which grows with every send; a site
 *       drops a token not above the last it accepted (a duplicate). ACK and NACK name the age they
 *       answer; the regenerating site counts the first answer of each site only, and a site answers a
 *       repeated JDCG as it answered the first.</li>
 *   <li>JDCG carries the sender's request number and is merged as a CRREQ: a holder that missed the
 *       CRREQ learns of the request (F9's re-request, without extra messages).</li>
 *   <li>A REGENERATE attempt whose answers do not all arrive before the next timeout is abandoned
 *       and a new one (with a higher age) starts. After a failed attempt the timeout doubles (up to
 *       2^10 times); after 16 failed attempts in a row the site stops trying until a token or a new
 *       view arrives (reachable only when messages other than the token are lost, which the
 *       runtime's transports do not do within an epoch).</li>
 *   <li>Fencing: the token carries the highest fence granted with it; every ACK carries the
 *       acknowledging site's highest seen fence, so a regenerated token's first grant is above every
 *       fence granted before (all other sites acknowledged, including the last holder).</li>
 *   <li>View changes and creation on first use (not in the source notes) go through the shared
 *       {@linkplain io.dlock.mutex.common.TokenCensus token census}: {@code LR} and the token's
 *       {@code HR} are re-indexed by the new ranks (joiners start at 0), ages restart at 0, the
 *       steward finds the token or regenerates it with {@code HR(j) = LR_j[j]} (minus 1 while j
 *       waits, CT-3), and waiting sites broadcast their request again with the same number (F9).</li>
 *   <li>The failure-mode modifications of Muro et al. §5, for failures reported within a view (the
 *       source notes' failure detector, Minoura 1982, which tells a site that it failed or that one of its
 *       links did; dlock's runtime has none and relies on views and the census above, so only a
 *       harness drives these modes, through {@link #siteFailed()}, {@link #siteRepaired()},
 *       {@link #failureReported}, {@link #repairReported}, {@link #linkFailed()} and
 *       {@link #linkRepaired()}):
 *       <ul>
 *         <li>a <em>failed</em> site still receives and forwards messages but updates none of
 *             {@code HR}, {@code CG}, {@code LR}: a TOKEN reaching it is forwarded unchanged
 *             (decision in docs/algorithms.md: to the first site in ring order whose request its frozen LR shows
 *             pending, else to its successor), a CRREQ changes nothing, a JDCG gets NACK
 *             unconditionally (the source notes' "UDCG"), and it neither enters nor regenerates; the other
 *             sites, told of the failure, leave it out of PASS until its repair is reported (else
 *             the token would bounce between it and a site that sees its request pending);</li>
 *         <li>an end of a failed link that splits the sites sends PARTITION to every site; a site
 *             in <em>partition mode</em> runs CTTA but no REGENERATE and answers every JDCG with
 *             NACK, so neither side can make a second token;</li>
 *         <li>re-requests: a requesting site that is failed or in partition mode re-sends its
 *             CRREQ with the <em>same</em> number when its REGENERATE timer fires instead of
 *             regenerating, and re-sends it when a repair is reported (a CRREQ may
 *             have missed sites, and a repaired site's LR is behind: the site itself and every site
 *             told of the repair re-send); rule 2 takes a repeated
 *             number as a no-op, so an idle holder that had missed it passes the token on.</li>
 *       </ul>
 *       A site fails and recovers only outside its critical section (the source notes' failed site has no
 *       process that could use the CS).</li>
 * </ul>
 */
final class Ctta extends FencedMutexProtocol<CttaMessage> implements EffectsCensusPort<CttaMessage> {

    /*
     * Overview.
     *
     * State (site i = rank me): lr[j] (LR_i, by rank), hrOwn (HRown_i), cg (CG_i), requesting, inCR,
     * token (hr[], tg, hop, or null), highestFence (inherited: highest fence seen), lastStamp (fence, hop) of the last
     * token accepted, regen (the attempt in progress: g, answers by rank, nacked, collected HRs),
     * answered[j] (the last JDCG age answered per site and whether it was ACKed; null while none);
     * failedSites (null while none); regeneration (REGENERATE's settings, null when it is off). The
     * view, and so N, is the census's, and me is our rank in it; this node is the census's port.
     *
     * Invariants:
     *  - Failure-free: one token, held (idle or in the CR) or in flight; only its holder enters (ME1).
     *  - A holder has TG == CG (F7, rule 8's NACK path re-ages both).
     *  - CG never decreases; candidate ages of site i are congruent to i mod N and strictly increase.
     *  - A token is created (rule 11) only when every other site acknowledged g, i.e. raised its CG to
     *    g, and our own CG is still g: every older token is then discarded on arrival (TG < CG), and a
     *    concurrent candidate with a smaller age was refused by us (NACK) or has seen our larger age.
     *  - The token leaves a site only by PASS, never while the site is in the CR, with one exception:
     *    the census of a healed partition may give the token to another site while we are in the CR
     *    (censusDone sets token = null); onRelease then counts and passes nothing (as Suzuki-Kasami's
     *    release does when its token is gone) and only records our request as served in hrOwn.
     */

    static final String REGEN_TIMER = "regen";
    /** Consecutive failed REGENERATE attempts after which a site stops trying until the token or a view comes. */
    static final int MAX_FAILED_ATTEMPTS = 16;
    /** The timeout doubles after each failed attempt, up to 2^this times the base. */
    static final int MAX_BACKOFF_SHIFT = 10;

    private final NodeId self;
    private final MutexEffects<CttaMessage> effects;
    /** REGENERATE's settings; null when it is off (option regenerate = false). */
    private final Regeneration regeneration;
    private int me;

    private long[] lr;
    private long hrOwn;
    private long cg;
    private boolean requesting;
    private boolean inCR;
    private long[] tokenHr;
    private long tokenTg;
    private long tokenHop;
    private long lastStampFence = -1;
    private long lastStampHop = -1;

    private Regen regen;
    private int failedAttempts;
    /** Muro et al. §5: this site is failed (it forwards, but updates nothing). */
    private boolean failed;
    /** Muro et al. §5: a PARTITION was received (no REGENERATE, NACK to every JDCG). */
    private boolean partitionMode;
    /** Muro et al. §5: ranks of the sites reported failed (PASS skips them until their repair is reported). */
    private Set<Integer> failedSites;
    /** Per site, the last JDCG age answered and whether it was ACKed (1) or not (0); null while none. */
    private Map<NodeId, long[]> answered;

    private final TokenCensus<CttaMessage> census;

    /**
     * REGENERATE's settings (kept apart: a site without REGENERATE keeps none).
     *
     * @param timeout         rule 6's timeout, in milliseconds, before back-off
     * @param completionCheck F8's {@code CG == g} test at completion (false only for CT-9's counterexample)
     */
    private record Regeneration(long timeout, boolean completionCheck) {
    }

    /** A REGENERATE attempt in progress (rule 7). */
    private static final class Regen {
        final long g;
        final long[] hr;
        final boolean[] replied;
        int replies;
        boolean nacked;
        long maxFence;

        Regen(long g, int n) {
            this.g = g;
            this.hr = new long[n];
            this.replied = new boolean[n];
        }
    }

    Ctta(ProtocolContext<CttaMessage> context, boolean regenerate, long regenTimeout) {
        this(context, regenerate, regenTimeout, true);
    }

    /** {@code completionCheck = false} drops F8's {@code CG == g} test: only for CT-9's counterexample. */
    Ctta(ProtocolContext<CttaMessage> context, boolean regenerate, long regenTimeout, boolean completionCheck) {
        super(context.fencingFloor());
        this.self = context.self();
        this.effects = context.effects();
        this.regeneration = regenerate ? new Regeneration(regenTimeout, completionCheck) : null;
        View view = context.view();
        this.me = view.indexOf(self);
        this.lr = new long[view.size()];
        if (me == 0 && context.startsIdle()) {
            tokenHr = new long[view.size()]; // F3: site 1 starts with the token
        }
        this.census = new TokenCensus<>(self, view, context.startsIdle(), this, this);
    }

    private View view() {
        return census.view();
    }

    /** The number of sites: the view's size. */
    private int n() {
        return census.view().size();
    }

    /**
     * Rule 7: {@code g = min{ l | l = mu*N + i, mu >= 0, l > CG(i) }} for docs/algorithms.md's 1-based site
     * {@code i}.
     *
     * @param cg the site age {@code CG(i)}
     * @param i  the site, 1..n
     * @param n  the number of sites
     */
    static long candidateAge(long cg, int i, int n) {
        if (i < 1 || i > n) {
            throw new IllegalArgumentException("site must be in 1.." + n + ", got " + i);
        }
        return cg < i ? i : i + n * ((cg - i) / n + 1);
    }

    // ---- application --------------------------------------------------------------------------

    @Override
    public void onRequest() {
        if (requesting) {
            throw new IllegalStateException(self + " already has an outstanding request");
        }
        if (failed) {
            throw new IllegalStateException(self + " is failed (Muro et al. §5): it cannot request");
        }
        // rule 1: number the request and broadcast it (even with the idle token here: F5)
        census.beforeEvent();
        requesting = true;
        lr[me]++;
        if (census.active()) {
            return; // broadcast when the census ends
        }
        effects.broadcast(new CrReq(lr[me]));
        if (tokenHr != null && !inCR) {
            enter();
        } else {
            armRegenTimer(); // rule 6's timer
        }
    }

    /**
     * At rest: not requesting, not in the critical region, no REGENERATE round or failure-mode state, no census
     * running. HR/CG/LR may go because every member drops its state at once; an idle token here is regenerated
     * once by the next use's census.
     */
    @Override
    public boolean atRest() {
        return !requesting && !inCR && regen == null && !failed && !partitionMode && !census.active();
    }

    @Override
    public void onRelease() {
        if (!inCR) {
            throw new IllegalStateException(self + " is not in the critical section");
        }
        // rule 4: count the entry, then PASS
        census.beforeEvent();
        inCR = false;
        requesting = false;
        if (tokenHr == null) {
            // a census gave the token to another site during our CS (only after a partition heals):
            // there is nothing to count on or pass; our request is served, as the census counted it
            hrOwn = Math.max(hrOwn, lr[me]);
            return;
        }
        tokenHr[me]++;
        hrOwn = tokenHr[me];
        if (!census.active()) {
            pass();
        }
    }

    /** Rule 6's timer, backing off after failed attempts. */
    private void armRegenTimer() {
        if (regeneration != null && failedAttempts < MAX_FAILED_ATTEMPTS) {
            effects.setTimer(REGEN_TIMER, regeneration.timeout() << Math.min(failedAttempts, MAX_BACKOFF_SHIFT));
        }
    }

    private void enter() {
        failedAttempts = 0;
        inCR = true;
        effects.cancelTimer(REGEN_TIMER);
        effects.granted(nextFence());
    }

    /** Rule 5: send the token to the first site after us in ring order with LR[j] > HR[j]. */
    private void pass() {
        int n = n();
        for (int k = 1; k < n; k++) {
            int j = (me + k) % n;
            if (lr[j] > tokenHr[j] && !reportedFailed(j)) {
                tokenHop++;
                List<Long> hr = new ArrayList<>(n);
                for (long h : tokenHr) {
                    hr.add(h);
                }
                effects.send(view().member(j), new Token(hr, tokenTg, highestFence(), tokenHop));
                tokenHr = null;
                return;
            }
        }
    }

    // ---- messages -----------------------------------------------------------------------------

    @Override
    public void onMessage(NodeId from, CttaMessage message) {
        if (census.onMessage(from, message)) {
            return; // a census message, or deferred until the census ends
        }
        int j = view().indexOf(from);
        if (j < 0) {
            return;
        }
        if (message instanceof CrReq r) {
            onCrReq(j, r.n());
        } else if (message instanceof Token t) {
            onToken(t);
        } else if (message instanceof Jdcg d) {
            onJdcg(from, j, d);
        } else if (message instanceof Ack a) {
            onAnswer(j, a.g(), false, a.hr(), a.fence());
        } else if (message instanceof Nack k) {
            onAnswer(j, k.g(), true, 0, 0);
        } else if (message instanceof Partition) {
            enterPartitionMode();
        }
    }

    // ---- Muro et al. §5: failure modes, driven by the failure detector (a harness) ---------------------

    /**
     * §5: a token is at this failed site: send it on as it is (its hop aside, {@code hop} is the last)
     * to the first site whose request the frozen LR shows pending, else to the successor.
     */
    private void forwardUnchanged(List<Long> hr, long tg, long fence, long hop) {
        int n = n();
        int target = (me + 1) % n;
        for (int k = 1; k < n; k++) {
            int j = (me + k) % n;
            if (lr[j] > hr.get(j) && !reportedFailed(j)) {
                target = j;
                break;
            }
        }
        lastStampFence = fence;
        lastStampHop = hop + 1;
        effects.send(view().member(target), new Token(hr, tg, fence, hop + 1));
    }

    /**
     * Muro et al. §5: this site has failed. From now on it forwards tokens unchanged, updates no LR, CG or
     * HR, answers every JDCG with NACK and regenerates nothing, until {@link #siteRepaired()}. An
     * idle token held here is sent on at once. Not while in the critical section.
     *
     * @throws IllegalStateException in the critical section
     */
    void siteFailed() {
        if (inCR) {
            throw new IllegalStateException(self + " is in the critical section");
        }
        failed = true;
        regen = null;
        if (tokenHr != null) {
            List<Long> hr = new ArrayList<>(n());
            for (long h : tokenHr) {
                hr.add(h);
            }
            tokenHr = null;
            forwardUnchanged(hr, tokenTg, highestFence(), tokenHop);
        }
    }

    /** Muro et al. §5: this site is repaired; a requesting site re-sends its CRREQ (same number). */
    void siteRepaired() {
        failed = false;
        reRequestIfWaiting();
    }

    /**
     * Muro et al. §5: the failure detector reports that {@code site} failed: PASS skips it (a failed site
     * would only forward the token) until its repair is reported.
     */
    void failureReported(NodeId site) {
        int j = view().indexOf(site);
        if (j >= 0 && j != me) {
            if (failedSites == null) {
                failedSites = new TreeSet<>();
            }
            failedSites.add(j);
        }
    }

    /**
     * Muro et al. §5: the failure detector reports that {@code site} was repaired (its LR may be behind): PASS
     * considers it again, and a requesting site re-sends its CRREQ with the same number; an idle
     * holder passes the token if the repaired site waits.
     */
    void repairReported(NodeId site) {
        if (failedSites != null) {
            failedSites.remove(view().indexOf(site));
        }
        reRequestIfWaiting();
        if (tokenHr != null && !inCR && !census.active()) {
            pass();
        }
    }

    /**
     * Muro et al. §5: a link of this site failed and split the sites: tell every site (those still reachable
     * get it) and enter partition mode.
     */
    /** Whether the failure of the site of rank {@code j} was reported and its repair not yet. */
    private boolean reportedFailed(int j) {
        return failedSites != null && failedSites.contains(j);
    }

    void linkFailed() {
        effects.broadcast(new Partition());
        enterPartitionMode();
    }

    /** Muro et al. §5: the link is repaired (the harness tells every site): REGENERATE is allowed again; re-request. */
    void linkRepaired() {
        partitionMode = false;
        reRequestIfWaiting();
    }

    private void enterPartitionMode() {
        partitionMode = true;
        regen = null; // an attempt in progress can no longer succeed: every site NACKs
    }

    private void reRequestIfWaiting() {
        if (requesting && !inCR && tokenHr == null && !census.active()) {
            effects.broadcast(new CrReq(lr[me])); // the same number: a no-op where it had arrived
        }
    }

    /** Rule 2: record the request number (max: channels are not FIFO); an idle holder passes. */
    private void onCrReq(int j, long number) {
        if (failed) {
            return; // §5: a failed site updates no LR (and holds no token: it forwards tokens at once)
        }
        if (number > lr[j]) {
            lr[j] = number;
        }
        if (tokenHr != null && !inCR) {
            pass();
        }
    }

    /** Rule 3 with REGENERATE's staleness test and F7. */
    private void onToken(Token t) {
        if (t.fence() < lastStampFence || (t.fence() == lastStampFence && t.hop() <= lastStampHop)) {
            return; // a copy of a token we already had
        }
        int n = n();
        if (t.tg() < cg || t.hr().size() != n || tokenHr != null) {
            return; // stale: a newer token was regenerated (rule 3); or not of this view
        }
        if (failed) {
            forwardUnchanged(t.hr(), t.tg(), t.fence(), t.hop()); // §5: it cannot update CG or HR, nor use it
            return;
        }
        lastStampFence = t.fence();
        lastStampHop = t.hop();
        cg = t.tg(); // F7
        tokenTg = t.tg();
        tokenHop = t.hop();
        tokenHr = new long[n];
        for (int k = 0; k < n; k++) {
            tokenHr[k] = t.hr().get(k);
        }
        observeFence(t.fence());
        acceptToken();
    }

    /** After accepting (or regenerating) a token: enter if requesting, else PASS. */
    private void acceptToken() {
        if (requesting) {
            enter();
        } else {
            pass();
        }
    }

    /** Rule 8 (with the request number merged as a CRREQ). */
    private void onJdcg(NodeId from, int i, Jdcg d) {
        if (failed || partitionMode) {
            answer(from, d.g(), false); // §5: NACK unconditionally, and update nothing
            return;
        }
        if (d.n() > lr[i]) {
            lr[i] = d.n();
        }
        long[] last = answered == null ? null : answered.get(from);
        if (last != null && last[0] == d.g()) {
            answer(from, d.g(), last[1] == 1); // a repeated JDCG: the same answer
        } else if (d.g() <= cg) {
            remember(from, d.g(), false);
            answer(from, d.g(), false);
        } else if (tokenHr != null) {
            cg = d.g(); // the token survives, re-aged (CT-10)
            tokenTg = d.g();
            remember(from, d.g(), false);
            answer(from, d.g(), false);
        } else {
            cg = d.g();
            remember(from, d.g(), true);
            answer(from, d.g(), true);
        }
        if (tokenHr != null && !inCR) {
            pass(); // rule 2 for the merged request
        }
    }

    /** Records the answer given to {@code site}'s JDCG of age {@code g}, to repeat it for a repeated JDCG. */
    private void remember(NodeId site, long g, boolean ack) {
        if (answered == null) {
            answered = new HashMap<>();
        }
        answered.put(site, new long[] {g, ack ? 1 : 0});
    }

    private void answer(NodeId to, long g, boolean ack) {
        effects.send(to, ack ? new Ack(g, hrOwn, highestFence()) : new Nack(g));
    }

    /** Rules 9-11: count the first answer of each site; complete when all N-1 are in. */
    private void onAnswer(int j, long g, boolean nack, long hr, long fence) {
        Regen r = regen;
        if (r == null || r.g != g || r.replied[j] || j == me) {
            return;
        }
        r.replied[j] = true;
        r.replies++;
        if (nack) {
            r.nacked = true;
        } else {
            r.hr[j] = hr;
            r.maxFence = Math.max(r.maxFence, fence);
        }
        completeIfAllAnswered();
    }

    /** Rule 11: when all N-1 answers are in, regenerate or abort. */
    private void completeIfAllAnswered() {
        Regen r = regen;
        if (r.replies < n() - 1) {
            return;
        }
        regen = null;
        // rule 11 with F8: only if nobody refused and nobody raised our age meanwhile
        if (!r.nacked && (cg == r.g || !regeneration.completionCheck()) && tokenHr == null) {
            tokenHr = r.hr;
            tokenHr[me] = hrOwn;
            tokenTg = r.g;
            tokenHop = 0;
            observeFence(r.maxFence);
            lastStampFence = highestFence();
            lastStampHop = 0;
            acceptToken();
        } else if (requesting && tokenHr == null) {
            failedAttempts++;
            armRegenTimer(); // aborted: try again later
        }
    }

    // ---- timers -------------------------------------------------------------------------------

    @Override
    public void onTimer(String name) {
        census.beforeEvent();
        if (census.active() || regeneration == null || !name.equals(REGEN_TIMER) || !requesting || tokenHr != null) {
            return;
        }
        if (failed || partitionMode) {
            // §5: no REGENERATE here; re-request instead (same number), in case a CRREQ was missed
            regen = null;
            effects.broadcast(new CrReq(lr[me]));
            armRegenTimer();
            return;
        }
        // rule 6 (an attempt still missing answers is abandoned), rule 7
        if (regen != null) {
            regen = null;
            failedAttempts++;
            if (failedAttempts >= MAX_FAILED_ATTEMPTS) {
                return; // give up until the token or a new view arrives
            }
        }
        long g = candidateAge(cg, me + 1, n());
        cg = g;
        regen = new Regen(g, n());
        effects.broadcast(new Jdcg(g, lr[me]));
        armRegenTimer();
        completeIfAllAnswered(); // a site alone in its view needs no answer
    }

    // ---- view ---------------------------------------------------------------------------------

    @Override
    public void onView(View newView) {
        failedSites = null; // §5 reports were by rank; the membership decides from now on
        View oldView = view(); // the census moves to the new one below
        // re-index LR and the token's HR by the new ranks; departed sites go, joiners start at 0
        long[] newLr = new long[newView.size()];
        long[] newHr = tokenHr == null ? null : new long[newView.size()];
        for (int k = 0; k < newView.size(); k++) {
            int old = oldView.indexOf(newView.member(k));
            if (old >= 0) {
                newLr[k] = lr[old];
                if (newHr != null) {
                    newHr[k] = tokenHr[old];
                }
            }
        }
        me = newView.indexOf(self);
        lr = newLr;
        tokenHr = newHr;
        regen = null;
        failedAttempts = 0;
        answered = null;
        effects.cancelTimer(REGEN_TIMER);
        census.onView(newView);
    }

    // ---- census: this node is its port (what it reports, and the rebuild toward the holder) -

    @Override
    public MutexEffects<CttaMessage> censusEffects() {
        return effects;
    }

    @Override
    public CttaMessage carryCensus(CensusMessage message) {
        return new Census(message);
    }

    @Override
    public CensusReport localReport(long epoch) {
        boolean holds = tokenHr != null;
        return new CensusReport(epoch, holds, inCR, holds ? highestFence() : 0, highestFence(), lr[me],
                requesting && !inCR);
    }

    /**
     * Ages restart at 0 in the new epoch (no token of an older epoch can arrive); the holder keeps
     * or gets the token (a regenerated one with HR(j) = LR_j[j], minus 1 while j waits: CT-3);
     * waiting sites broadcast their request again (F9's re-request, same number).
     */
    @Override
    public void censusDone(CensusOutcome outcome, Map<NodeId, CensusReport> reports) {
        cg = 0;
        tokenTg = 0;
        if (outcome.holder().equals(self)) {
            if (outcome.regenerated()) { // rebuilt from the reports, replacing a stale token
                View view = view();
                tokenHr = new long[view.size()];
                for (Map.Entry<NodeId, CensusReport> e : reports.entrySet()) {
                    int k = view.indexOf(e.getKey());
                    if (k >= 0) {
                        CensusReport r = e.getValue();
                        tokenHr[k] = Math.max(0, r.requestNumber() - (r.waiting() ? 1 : 0));
                    }
                }
                tokenHop = 0;
                lastStampFence = highestFence();
                lastStampHop = 0;
            }
        } else {
            tokenHr = null; // only after a partition: another site keeps its token
        }
        if (requesting && !inCR) {
            effects.broadcast(new CrReq(lr[me]));
            if (tokenHr != null) {
                enter();
            } else {
                armRegenTimer();
            }
        } else if (tokenHr != null && !inCR) {
            pass();
        }
    }

    @Override
    public void redeliver(NodeId from, CttaMessage message) {
        onMessage(from, message);
    }

    // ---- inspection (tests) ----------------------------------------------------------------

    boolean hasToken() {
        return tokenHr != null;
    }

    long cg() {
        return cg;
    }

    long tokenTg() {
        return tokenTg;
    }

    long[] lr() {
        return lr.clone();
    }

    long[] tokenHr() {
        return tokenHr == null ? null : tokenHr.clone();
    }

    long hrOwn() {
        return hrOwn;
    }

    @Override
    public String toString() {
        return "Ctta[" + self + " LR=" + Arrays.toString(lr) + " HRown=" + hrOwn + " CG=" + cg
                + (tokenHr == null ? "" : " token HR=" + Arrays.toString(tokenHr) + " TG=" + tokenTg)
                + (requesting ? " requesting" : "") + (inCR ? " inCR" : "") + " fence=" + highestFence() + " " + census
                + "]";
    }
}
