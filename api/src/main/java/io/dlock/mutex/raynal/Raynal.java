package io.dlock.mutex.raynal;

import io.dlock.mutex.common.EpochBarrier;
import io.dlock.mutex.common.FencedMutexProtocol;
import io.dlock.mutex.common.NodeSet;
import io.dlock.mutex.common.PeerState;
import io.dlock.mutex.raynal.RaynalMessage.Inform;
import io.dlock.mutex.raynal.RaynalMessage.Reply;
import io.dlock.mutex.raynal.RaynalMessage.Request;
import io.dlock.mutex.raynal.RaynalMessage.State;
import io.dlock.mutex.raynal.RaynalMessage.Wake;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.ProtocolContext;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Raynal's prime-number mutual exclusion: node {@code i} has an attribute {@code A_i} (pairwise
 * coprime numbers, here the odd primes 3, 5, 7, ... by rank) and a rational {@code X_i}; the product
 * of all X is always {@code Q / A_h} where {@code Q = Π A_k} and {@code h} is the privileged node,
 * and a node may enter iff that product equals {@code Q / A_i}. Leaving, node {@code i} multiplies
 * its X by {@code A_i / A_(i+1 mod N)}, which passes the right to its successor on the ring with no
 * token and no message.
 *
 * <p><b>Source.</b> Source notes S3 (docs/algorithms.md §0.6) (Алгоритм Raynal: the original with
 * REQUEST/REPLY, the worked example, and the modification with INFORM messages), as restated in
 * docs/algorithms.md A11 (errata F15-F18); M. Raynal, "Prime numbers as a tool to design distributed
 * algorithms", Information Processing Letters 33(1):53-58, 1989.
 *
 * <p><b>Variants.</b>
 * <ul>
 *   <li>Default: the source notes' modification. Every node keeps a replica of every X; nobody sends
 *       requests (the permission of non-privileged nodes is implicit); the privileged node enters if
 *       it wants to, and passes the right on (new X to everyone in an INFORM) when it leaves or if it
 *       does not want it. It cannot deadlock and serves requests round-robin. Cost: one pass is
 *       {@code N-1} INFORMs; a requester at ring distance d from the right waits d passes,
 *       {@code d(N-1)} messages, at most {@code (N-1)^2}. In the source notes the right circulates for
 *       ever, also in an idle cluster (docs/algorithms.md F18, F30); here it <b>parks after one idle
 *       round</b> (rule 11 below), so an idle lock costs at most N passes and then nothing. A privileged
 *       node that does not want the CS may wait option {@code idle-pass-ms} (default 0: pass at once)
 *       before an idle pass, so the round before parking costs at most {@code N(N-1)} INFORMs, spread over
 *       about {@code N · idle-pass-ms}. A request while the right is parked costs nothing at the parker,
 *       elsewhere one WAKE and {@code d(N-1)} INFORMs for a requester d hops after the parker, with no
 *       idle pause on the way.</li>
 *   <li>Option {@code original}: Raynal's algorithm as published. A requester asks everyone for
 *       their X (REQUEST/REPLY, {@code 2(N-1)} messages per attempt) and retries after option
 *       {@code retry-ms} (default 10) until the product says it is privileged. It <b>deadlocks</b>
 *       when the node after the last holder never requests (the right stays there; docs/algorithms.md RN-4). At
 *       most {@code N-1} attempts per entry if retries are spaced so the right advances between them
 *       (the source notes' bound {@code 2(N-1)^2}); unbounded otherwise.</li>
 * </ul>
 *
 * <p><b>Exactness and size.</b> X values are exact: {@link PrimeRatio} keeps the exponent vector
 * over the attributes (unique because they are pairwise coprime), never a float. An X has at most
 * two non-zero exponents, so messages stay a few bytes and the privilege test costs O(N) additions
 * whatever the number of entries; N is limited only by int ranks. As BigInteger fractions the same
 * values would grow by about {@code log2(A_i)} bits per pass of node i (Q alone has about 730 bits
 * for N = 100), which is why the exponent form is used.
 *
 * <p><b>Assumptions.</b> Reliable within an epoch; FIFO not required (each INFORM carries the
 * sender's pass count and receivers keep the newest, decision in docs/algorithms.md A11); ring order = rank order
 * in the view; the initially privileged node is rank 0.
 *
 * <p><b>Deviations.</b>
 * <ul>
 *   <li>REQUEST and REPLY carry an attempt number, so a duplicated REPLY of an earlier attempt is not
 *       mixed into the current one.</li>
 *   <li><b>Parking (rule 11, INFORM variant).</b> Every INFORM carries the hop of the pass in the epoch
 *       and how many privileged nodes in a row passed without entering ({@code idle}); every node keeps
 *       the newest pass it heard of, so every node knows where the right is and whether it is parked. A
 *       privileged node that receives the right with {@code idle >= N-1} (a whole round nobody wanted it)
 *       and does not want it keeps it: it is parked, and no message is sent. A request there enters with
 *       no message; a node that requests (or is waiting) when it learns that the right is parked
 *       elsewhere sends one WAKE, tagged with the parking hop, to the parker, which passes the right to
 *       its successor as usual but marked {@code hurry}: nodes that do not want it pass it on at once
 *       (no idle pause) and it reaches the requester within N-1 passes, which the requester's own
 *       wish keeps from completing another idle round. A WAKE whose hop is no longer the newest (the
 *       right moved since) is ignored; the requester hears of the move by its INFORM. Passes stay
 *       between ring neighbours, so X keeps at most two non-zero exponents. Safety is unchanged: only
 *       the privileged node changes its X, and parking only withholds a pass.</li>
 *   <li>Fencing tokens: REPLY and INFORM carry the sender's highest token; the node entering takes
 *       one more than the highest it has seen. The privilege test only passes with the new X of the
 *       node that had the right before, which that node sent after leaving (REPLY) or passing
 *       (INFORM), so the chain of messages carries the last holder's token.</li>
 *   <li>Start: effects are only allowed in handlers, so the initial check of the INFORM variant
 *       (rule 5) happens on {@link #onStart()}, which the simulator calls at time 0 (the initially
 *       privileged node passes the right at once if it does not want it, so a workload that never
 *       involves it is served), or else at each node's first event.</li>
 *   <li>View changes and start on first use: the {@link EpochBarrier}. Attributes depend on the
 *       ranks of the view, so every node announces its state; once all have, every node rebuilds
 *       the same X values: the privileged node is the announced holder if any, else the waiting
 *       node of lowest rank, else rank 0 (its X is 1, every other X is its attribute). Nobody
 *       enters, replies or passes in the new epoch before its barrier is complete, and an INFORM
 *       received earlier in the epoch is kept (it is newer than the rebuilt value).</li>
 * </ul>
 */
final class Raynal extends FencedMutexProtocol<RaynalMessage> {

    /*
     * Overview.
     *
     * Common: requesting (onRequest to onRelease), inCS, highestFence (inherited), barrier; announcedHolder and
     * announcedWaiting (what the barrier's announcements said); checkDue (the first event must
     * evaluate rule 5/8).
     * Original (the OriginalVariant side object, null in the INFORM variant): x (our X), attempt (never
     * reused), attemptOpen, replies (member -> X for the current attempt), deferred (requests received
     * while our barrier holds).
     * INFORM: xs (replica of every X, by rank), seen (newest pass count per rank in this epoch),
     * passes (our pass count in this epoch), passTimer (an idle pass is scheduled).
     *
     * Invariants:
     *  - RN-1: the product of the true X values is Q / A_h, h the privileged node; it changes only
     *    when h leaves or passes, and then to Q / A_(h+1). A node's own X changes only when it holds
     *    the right, so any snapshot (REPLYs, or the INFORM replica) whose product is Q / A_i shows
     *    that i holds the right: ME1, even with stale values.
     *  - Nothing is entered, replied or passed in an epoch before its barrier is complete; every node
     *    rebuilds from the same announcements, so they agree on the X values.
     *  - INFORM: xs[k] only moves to values with a larger pass count of k (no regression under
     *    reordering or duplicates).
     *  - Rule 11: hop, lastTo, lastIdle, lastHurry describe the pass with the largest hop heard of. INFORMs
     *    are not FIFO, so a requester may hear of a parking before the parker does: the parker keeps the
     *    WAKE (wakeAsked) and acts when its own view catches up (check). Liveness: a requester that is
     *    waiting when the right parks elsewhere sends a WAKE for that parking; the parker passes the right
     *    on (hurried) once it sees itself parked, or it entered meanwhile and passes with idle 0 on exit;
     *    either way the right moves again and cannot complete an idle round before the requester.
     */

    static final String RETRY = "retry";
    static final String PASS = "pass";
    /** No WAKE sent in this epoch. */
    private static final long NO_WAKE = -1;

    private final NodeId self;
    private final MutexEffects<RaynalMessage> effects;
    /** The original variant's state; null in the INFORM variant (the default), which has none of it. */
    private final OriginalVariant original;
    private final long idlePassMs;
    private final EpochBarrier barrier;
    private View view;
    private int me;

    private boolean requesting;
    private boolean inCS;
    private boolean checkDue = true;
    private NodeId announcedHolder;
    /** The members announced WAITING to the current barrier; null while none is (nearly always). */
    private NodeSet announcedWaiting;

    /** We left the CS while our barrier held (after announcing HOLDING): the pass is applied after the rebuild. */
    private boolean exitedDuringBarrier;

    // INFORM
    private PrimeRatio[] xs;
    /**
     * Rule 8's product {@code Π_k xs[k]}, kept as it changes (one INFORM changes one factor) instead of
     * multiplied out on every INFORM (O(N) each, O(N^3) per round of N passes: nearly all of a 1 024-node run):
     * {@code xsSum[r]} the exponent of {@code A_r} for {@code r < N}; {@code xsOutOfRange} the number of non-zero
     * exponents of ranks {@code >= N} among the factors; {@code xsMismatched} the number of ranks whose exponent
     * is not that of {@code Q / A_me}. Recounted whenever {@code xs}, N or {@code me} change wholesale.
     */
    private long[] xsSum;
    private int xsOutOfRange;
    private int xsMismatched;
    private long[] seen;
    private long passes;
    private boolean passTimer;
    /** Rule 11: the hop of the newest pass this node heard of in this epoch (0: the rebuilt position). */
    private long hop;
    /** Rule 11: the rank the newest pass went to. */
    private int lastTo;
    /** Rule 11: the idle count of the newest pass (the right is parked at lastTo when it is at least N-1). */
    private long lastIdle;
    /** Rule 11: whether the newest pass answers a WAKE. */
    private boolean lastHurry;
    /** Rule 11: the hop of the parking this node last sent a WAKE for. */
    private long wokeHop = NO_WAKE;
    /**
     * Rule 11: the newest parking hop a WAKE asked this node about; kept when the WAKE comes before this node
     * knows it holds the parked right (its own INFORMs may still be on their way), acted on once it does.
     */
    private long wakeAsked = NO_WAKE;

    /** A REQUEST received while our barrier holds, answered when it completes. */
    private record Deferred(NodeId from, long attempt) {
    }

    /**
     * What only the original REQUEST/REPLY variant keeps (rules 1-4): made only for that variant, so that an
     * INFORM instance, the default, carries none of it.
     */
    private static final class OriginalVariant {
        /** The delay before a new attempt. */
        final long retryMs;
        /** Our X. */
        PrimeRatio x;
        /** The current or last attempt (never reused). */
        long attempt;
        boolean attemptOpen;
        /** The X of every member that replied to the open attempt; null while no attempt is open. */
        Map<NodeId, PrimeRatio> replies;
        /** Null while no REQUEST is deferred (always, outside a barrier). */
        List<Deferred> deferred;

        OriginalVariant(long retryMs) {
            this.retryMs = retryMs;
        }

        /** A new epoch: the open attempt and the deferred requests are void. */
        void startEpoch() {
            attemptOpen = false;
            replies = null;
            deferred = null;
        }

        /** Whether no attempt is open and no request deferred. */
        boolean quiet() {
            return !attemptOpen && deferred == null;
        }
    }

    Raynal(ProtocolContext<RaynalMessage> context, boolean original, long retryMs, long idlePassMs) {
        super(context.fencingFloor());
        this.self = context.self();
        this.effects = context.effects();
        this.original = original ? new OriginalVariant(retryMs) : null;
        this.idlePassMs = idlePassMs;
        this.view = context.view();
        this.me = view.indexOf(self);
        this.barrier = new EpochBarrier(self, view, context.startsIdle());
        if (!context.startsIdle()) {
            enterFenceEpoch(view.epoch());
        }
        rebuild(0, false);
    }

    /** Sets every X as if {@code h} held the right (X_h = 1, X_k = A_k); with keepInforms, keeps X values already informed. */
    private void rebuild(int h, boolean keepInforms) {
        int n = view.size();
        if (original != null) {
            original.x = base(me, h);
        }
        if (!keepInforms || xs == null || xs.length != n) {
            xs = new PrimeRatio[n];
            seen = new long[n];
        }
        for (int k = 0; k < n; k++) {
            if (seen[k] == 0) {
                xs[k] = base(k, h);
            }
        }
        recountXs();
        if (hop == 0) {
            lastTo = h; // no pass heard of in this epoch: the right is where the rebuild put it
        }
    }

    private static PrimeRatio base(int k, int h) {
        return k == h ? PrimeRatio.ONE : PrimeRatio.attribute(k);
    }

    private int successor() {
        return (me + 1) % view.size();
    }

    // ---- events -------------------------------------------------------------------------------

    private void beginEvent() {
        if (barrier.takeFirstEventDue()) {
            announce();
        }
        if (checkDue) {
            checkDue = false;
            if (original == null) {
                check(); // rule 5
            }
        }
    }

    /** Rule 5: the run starts; the privileged node passes the right on if it does not want it. */
    @Override
    public void onStart() {
        beginEvent();
    }

    @Override
    public void onRequest() {
        if (requesting) {
            throw new IllegalStateException(self + " already has an outstanding request");
        }
        requesting = true; // before the first-event announcement: it says WAITING, so the rebuild puts the right here
        beginEvent();
        if (original != null) {
            startAttempt(); // rule 1
        } else {
            check(); // rule 6: enter at once if privileged, else wait (no message)
            wakeIfParkedElsewhere(); // rule 11
        }
    }

    /**
     * At rest when nothing is wanted, held or owed, no timer runs, the epoch barrier is settled and (INFORM
     * variant) the newest pass this node heard of parked the right: a parked right sends nothing, so the
     * state may be dropped everywhere and rebuilt by the barrier of the next incarnation. A right still
     * circulating is not at rest. A node that has had no event yet is in its initial state.
     */
    @Override
    public boolean atRest() {
        boolean quiet = !requesting && !inCS && !passTimer && !exitedDuringBarrier
                && (original == null || original.quiet()) && barrier.settled();
        return quiet && (original != null || checkDue || view.size() == 1 || parkedAt(lastTo));
    }

    @Override
    public void onRelease() {
        beginEvent();
        if (!inCS) {
            throw new IllegalStateException(self + " is not in the critical section");
        }
        inCS = false;
        requesting = false;
        if (original != null) {
            original.x = original.x.timesRatio(me, successor()); // rule 4: the right passes, logically
            exitedDuringBarrier = !barrier.isComplete();
        } else if (barrier.isComplete()) {
            pass(0, false); // rule 9
        } else {
            exitedDuringBarrier = true; // our X is rebuilt when the barrier completes: pass then
        }
    }

    @Override
    public void onMessage(NodeId from, RaynalMessage message) {
        beginEvent();
        if (message instanceof Request r) {
            if (original == null) {
                return; // only the original variant sends REQUEST
            } else if (barrier.isComplete()) {
                effects.send(from, new Reply(r.attempt(), original.x, highestFence())); // rule 2
            } else {
                if (original.deferred == null) {
                    original.deferred = new ArrayList<>();
                }
                original.deferred.add(new Deferred(from, r.attempt()));
            }
        } else if (message instanceof Reply r) {
            onReply(from, r);
        } else if (message instanceof Inform i) {
            onInform(from, i);
        } else if (message instanceof Wake w) {
            onWake(w);
        } else if (message instanceof State s) {
            observeFence(s.fence());
            if (barrier.record(from)) {
                applyState(from, s.state());
                finishBarrierIfComplete();
            }
        }
    }

    @Override
    public void onTimer(String name) {
        beginEvent();
        if (RETRY.equals(name) && original != null && requesting && !inCS && barrier.isComplete()) {
            startAttempt();
        } else if (PASS.equals(name) && original == null) {
            passTimer = false;
            if (barrier.isComplete() && privileged()) {
                if (requesting) {
                    check();
                } else {
                    pass(incomingIdle() + 1, false);
                }
            }
        }
    }

    @Override
    public void onView(View newView) {
        view = newView;
        me = newView.indexOf(self);
        enterFenceEpoch(newView.epoch());
        barrier.startEpoch(newView);
        effects.cancelTimer(RETRY);
        effects.cancelTimer(PASS);
        passTimer = false;
        if (original != null) {
            original.startEpoch();
        }
        announcedHolder = null;
        announcedWaiting = null;
        passes = 0;
        hop = 0;
        lastIdle = 0;
        lastHurry = false;
        wokeHop = NO_WAKE;
        wakeAsked = NO_WAKE;
        exitedDuringBarrier = false;
        xs = null; // rebuilt when the barrier is complete
        rebuild(0, false);
        checkDue = false;
        announce();
        finishBarrierIfComplete();
    }

    // ---- original -------------------------------------------------------------------------------

    private void startAttempt() {
        if (!barrier.isComplete()) {
            return; // started when the barrier completes
        }
        original.attempt++;
        original.attemptOpen = true;
        original.replies = new TreeMap<>();
        effects.broadcast(new Request(original.attempt));
        evaluateIfAllReplied(); // N = 1
    }

    /** Rule 3: collect the X of every other node; enter iff the product is Q / A_me, else retry later. */
    private void onReply(NodeId from, Reply r) {
        observeFence(r.fence());
        if (original == null || !original.attemptOpen || r.attempt() != original.attempt || !view.contains(from)) {
            return;
        }
        original.replies.put(from, r.x());
        evaluateIfAllReplied();
    }

    private void evaluateIfAllReplied() {
        if (original.replies.size() < view.size() - 1) {
            return;
        }
        original.attemptOpen = false;
        PrimeRatio t = original.x;
        for (PrimeRatio xj : original.replies.values()) {
            t = t.times(xj);
        }
        original.replies = null;
        if (t.isQOver(me, view.size())) {
            inCS = true;
            effects.granted(nextFence());
        } else {
            effects.setTimer(RETRY, original.retryMs);
        }
    }

    // ---- INFORM -----------------------------------------------------------------------------------

    /** Rule 7. */
    private void onInform(NodeId from, Inform i) {
        observeFence(i.fence());
        int k = view.indexOf(from);
        if (k < 0 || original != null || i.pass() <= seen[k]) {
            return;
        }
        seen[k] = i.pass();
        setX(k, i.x());
        if (i.hop() > hop) {
            hop = i.hop();
            lastTo = (k + 1) % view.size();
            lastIdle = i.idle();
            lastHurry = i.hurry();
        }
        check();
        wakeIfParkedElsewhere();
    }

    /**
     * Rule 8: enter if privileged and requesting; if privileged and idle, keep the right when a whole round
     * did not want it (rule 11, parked), pass it at once when a WAKE hurries it, else after the idle pause.
     */
    private void check() {
        if (original != null || !barrier.isComplete() || inCS || !privileged()) {
            return;
        }
        if (requesting) {
            inCS = true;
            effects.cancelTimer(PASS);
            passTimer = false;
            effects.granted(nextFence());
        } else if (view.size() > 1 && parkedAt(me)) {
            if (wakeAsked == hop) {
                pass(0, true); // rule 11: a requester asked for the parked right
            }
        } else if (view.size() > 1) {
            boolean hurried = lastTo == me && lastHurry;
            if (idlePassMs == 0 || hurried) {
                effects.cancelTimer(PASS);
                passTimer = false;
                pass(incomingIdle() + 1, hurried);
            } else if (!passTimer) {
                passTimer = true;
                effects.setTimer(PASS, idlePassMs);
            }
        }
    }

    /** How many nodes in a row passed the right to this node without entering (0 after a rebuild). */
    private long incomingIdle() {
        return lastTo == me ? lastIdle : 0;
    }

    /** Rule 11: whether the newest pass heard of parked the right at {@code rank} (a whole idle round). */
    private boolean parkedAt(int rank) {
        return original == null && lastTo == rank && lastIdle >= view.size() - 1;
    }

    /** Rule 11: a waiting node asks the parker, once per parking, to move the right again. */
    private void wakeIfParkedElsewhere() {
        if (requesting && !inCS && barrier.isComplete() && hop != wokeHop && lastTo != me && parkedAt(lastTo)) {
            wokeHop = hop;
            effects.send(view.member(lastTo), new Wake(hop));
        }
    }

    /**
     * Rule 11: the parker moves the right on (hurried) if it is still parked where the requester saw it. A WAKE
     * for a parking this node has not yet heard of, or while it does not yet see itself privileged, is kept
     * until it does ({@link #check}); one for an older parking is stale (the right moved, and the requester
     * hears of it by INFORM).
     */
    private void onWake(Wake w) {
        if (original != null || w.hop() < hop) {
            return;
        }
        wakeAsked = Math.max(wakeAsked, w.hop());
        check();
    }

    /** Rule 8's test {@code Π_k X_k == Q / A_me}: no factor has a rank beyond N, and every exponent is right. */
    private boolean privileged() {
        return xsOutOfRange == 0 && xsMismatched == 0;
    }

    /** {@code xs[k] := value}, keeping the product's counts. */
    private void setX(int k, PrimeRatio value) {
        addToProduct(xs[k], -1);
        xs[k] = value;
        addToProduct(value, 1);
    }

    /** Adds {@code sign ·} the exponents of {@code factor} to the product's counts. */
    private void addToProduct(PrimeRatio factor, int sign) {
        int n = xsSum.length;
        for (int t = 0; t < factor.size(); t++) {
            int rank = factor.rankAt(t);
            if (rank >= n) {
                xsOutOfRange += sign;
                continue;
            }
            long target = rank == me ? 0 : 1;
            boolean wasRight = xsSum[rank] == target;
            xsSum[rank] += sign * factor.exponentAt(t);
            boolean isRight = xsSum[rank] == target;
            if (wasRight != isRight) {
                xsMismatched += isRight ? -1 : 1;
            }
        }
    }

    /** Recounts the product of {@code xs} for the current N and {@code me}. */
    private void recountXs() {
        int n = view.size();
        xsSum = new long[n];
        xsOutOfRange = 0;
        for (PrimeRatio xk : xs) {
            for (int t = 0; t < xk.size(); t++) {
                int rank = xk.rankAt(t);
                if (rank >= n) {
                    xsOutOfRange++;
                } else {
                    xsSum[rank] += xk.exponentAt(t);
                }
            }
        }
        xsMismatched = 0;
        for (int k = 0; k < n; k++) {
            if (xsSum[k] != (k == me ? 0 : 1)) {
                xsMismatched++;
            }
        }
    }

    /**
     * Rule 10: X_me := X_me · A_me / A_next, and tell everyone, with the pass's hop, idle count and hurry
     * flag (rule 11).
     */
    private void pass(long idle, boolean hurry) {
        if (view.size() == 1) {
            return; // the right has nowhere to go
        }
        setX(me, xs[me].timesRatio(me, successor()));
        passes++;
        hop++;
        lastTo = successor();
        lastIdle = idle;
        lastHurry = hurry;
        effects.broadcast(new Inform(xs[me], passes, highestFence(), hop, idle, hurry));
    }

    // ---- epoch barrier -----------------------------------------------------------------------------

    private void announce() {
        PeerState s = inCS ? PeerState.HOLDING : requesting ? PeerState.WAITING : PeerState.IDLE;
        effects.broadcast(new State(s, highestFence()));
        applyState(self, s);
    }

    private void applyState(NodeId member, PeerState s) {
        if (s == PeerState.HOLDING && announcedHolder == null) {
            announcedHolder = member; // two holders can only be announced after a partition
        } else if (s == PeerState.WAITING) {
            if (announcedWaiting == null) {
                announcedWaiting = new NodeSet();
            }
            announcedWaiting.add(member);
        }
    }

    private void finishBarrierIfComplete() {
        if (!barrier.isComplete()) {
            return;
        }
        NodeId h = announcedHolder != null ? announcedHolder
                : announcedWaiting == null ? view.member(0) : announcedWaiting.first();
        rebuild(view.indexOf(h), true);
        boolean owedPass = exitedDuringBarrier && h.equals(self);
        exitedDuringBarrier = false;
        if (owedPass && original != null) {
            original.x = original.x.timesRatio(me, successor()); // we left the CS after announcing HOLDING: the right moves on
        } else if (owedPass) {
            pass(0, false);
        }
        announcedHolder = null;
        announcedWaiting = null;
        if (original != null && original.deferred != null) {
            for (Deferred d : original.deferred) {
                effects.send(d.from(), new Reply(d.attempt(), original.x, highestFence()));
            }
            original.deferred = null;
        }
        if (original != null) {
            if (requesting && !inCS) {
                startAttempt();
            }
        } else {
            check();
        }
    }

    // ---- introspection for tests ----------------------------------------------------------------

    /** The node's own X (original) or its replica of it (INFORM). */
    PrimeRatio ownX() {
        return original != null ? original.x : xs[me];
    }

    @Override
    public String toString() {
        return "Raynal[" + self + (original != null ? " original" : " inform") + (inCS ? " in CS" : requesting ? " waiting" : " idle")
                + " X=" + ownX() + (original != null ? " attempt=" + original.attempt : " xs=" + Arrays.toString(xs) + " passes=" + passes)
                + " " + barrier + "]";
    }
}
