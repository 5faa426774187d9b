package io.dlock.mutex.raynal;

import io.dlock.mutex.common.EpochBarrier;
import io.dlock.mutex.common.FencingCounter;
import io.dlock.mutex.common.PeerState;
import io.dlock.mutex.raynal.RaynalMessage.Inform;
import io.dlock.mutex.raynal.RaynalMessage.Reply;
import io.dlock.mutex.raynal.RaynalMessage.Request;
import io.dlock.mutex.raynal.RaynalMessage.State;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.spi.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

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
 *       {@code d(N-1)} messages, at most {@code (N-1)^2}. The right circulates forever, also in an
 *       idle cluster (docs/algorithms.md F18, F30): a privileged node that does not want the CS waits option
 *       {@code idle-pass-ms} (default 20 ms) before passing, so an idle cluster costs about
 *       {@code (N-1) · 1000 / (idle-pass-ms + one-way delay)} messages per second per lock used
 *       (about 200/s for N = 5 on a fast LAN), and a requester waits up to about
 *       {@code (N-1)(idle-pass-ms + delay)} when everyone else is idle.</li>
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
final class Raynal implements MutexProtocol<RaynalMessage> {

    /*
     * Overview.
     *
     * Common: requesting (onRequest to onRelease), inCS, fences, barrier; announcedHolder and
     * announcedWaiting (what the barrier's announcements said); checkDue (the first event must
     * evaluate rule 5/8).
     * Original: x (our X), attempt (never reused), attemptOpen, replies (member -> X for the
     * current attempt), deferred (requests received while our barrier holds).
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
     */

    static final String RETRY = "retry";
    static final String PASS = "pass";

    private final NodeId self;
    private final MutexEffects<RaynalMessage> effects;
    private final boolean original;
    private final long retryMs;
    private final long idlePassMs;
    private final EpochBarrier barrier;
    private final FencingCounter fences = new FencingCounter();
    private View view;
    private int me;

    private boolean requesting;
    private boolean inCS;
    private boolean checkDue = true;
    private NodeId announcedHolder;
    private final TreeSet<NodeId> announcedWaiting = new TreeSet<>();

    // original
    private PrimeRatio x;
    private long attempt;
    private boolean attemptOpen;
    /** We left the CS while our barrier held (after announcing HOLDING): the pass is applied after the rebuild. */
    private boolean exitedDuringBarrier;
    private final Map<NodeId, PrimeRatio> replies = new TreeMap<>();
    private final List<Deferred> deferred = new ArrayList<>();

    // INFORM
    private PrimeRatio[] xs;
    private long[] seen;
    private long passes;
    private boolean passTimer;

    /** A REQUEST received while our barrier holds, answered when it completes. */
    private record Deferred(NodeId from, long attempt) {
    }

    Raynal(ProtocolContext<RaynalMessage> context, boolean original, long retryMs, long idlePassMs) {
        this.self = context.self();
        this.effects = context.effects();
        this.original = original;
        this.retryMs = retryMs;
        this.idlePassMs = idlePassMs;
        this.view = context.view();
        this.me = view.indexOf(self);
        this.barrier = new EpochBarrier(self, view, context.startsIdle());
        if (!context.startsIdle()) {
            fences.enterEpoch(view.epoch());
        }
        rebuild(0, false);
    }

    /** Sets every X as if {@code h} held the right (X_h = 1, X_k = A_k); with keepInforms, keeps X values already informed. */
    private void rebuild(int h, boolean keepInforms) {
        int n = view.size();
        x = base(me, h);
        if (!keepInforms || xs == null || xs.length != n) {
            xs = new PrimeRatio[n];
            seen = new long[n];
        }
        for (int k = 0; k < n; k++) {
            if (seen[k] == 0) {
                xs[k] = base(k, h);
            }
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
            if (!original) {
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
        beginEvent();
        if (requesting) {
            throw new IllegalStateException(self + " already has an outstanding request");
        }
        requesting = true;
        if (original) {
            startAttempt(); // rule 1
        } else {
            check(); // rule 6: enter at once if privileged, else wait (no message)
        }
    }

    @Override
    public void onRelease() {
        beginEvent();
        if (!inCS) {
            throw new IllegalStateException(self + " is not in the critical section");
        }
        inCS = false;
        requesting = false;
        if (original) {
            x = x.timesRatio(me, successor()); // rule 4: the right passes, logically
            exitedDuringBarrier = !barrier.isComplete();
        } else if (barrier.isComplete()) {
            pass(); // rule 9
        } else {
            exitedDuringBarrier = true; // our X is rebuilt when the barrier completes: pass then
        }
    }

    @Override
    public void onMessage(NodeId from, RaynalMessage message) {
        beginEvent();
        if (message instanceof Request r) {
            if (barrier.isComplete()) {
                effects.send(from, new Reply(r.attempt(), x, fences.highest())); // rule 2
            } else {
                deferred.add(new Deferred(from, r.attempt()));
            }
        } else if (message instanceof Reply r) {
            onReply(from, r);
        } else if (message instanceof Inform i) {
            onInform(from, i);
        } else if (message instanceof State s) {
            fences.observe(s.fence());
            if (barrier.record(from)) {
                applyState(from, s.state());
                finishBarrierIfComplete();
            }
        }
    }

    @Override
    public void onTimer(String name) {
        beginEvent();
        if (RETRY.equals(name) && original && requesting && !inCS && barrier.isComplete()) {
            startAttempt();
        } else if (PASS.equals(name) && !original) {
            passTimer = false;
            if (barrier.isComplete() && privileged()) {
                if (requesting) {
                    check();
                } else {
                    pass();
                }
            }
        }
    }

    @Override
    public void onView(View newView) {
        view = newView;
        me = newView.indexOf(self);
        fences.enterEpoch(newView.epoch());
        barrier.startEpoch(newView);
        effects.cancelTimer(RETRY);
        effects.cancelTimer(PASS);
        passTimer = false;
        attemptOpen = false;
        replies.clear();
        deferred.clear();
        announcedHolder = null;
        announcedWaiting.clear();
        passes = 0;
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
        attempt++;
        attemptOpen = true;
        replies.clear();
        effects.broadcast(new Request(attempt));
        evaluateIfAllReplied(); // N = 1
    }

    /** Rule 3: collect the X of every other node; enter iff the product is Q / A_me, else retry later. */
    private void onReply(NodeId from, Reply r) {
        fences.observe(r.fence());
        if (!attemptOpen || r.attempt() != attempt || !view.contains(from)) {
            return;
        }
        replies.put(from, r.x());
        evaluateIfAllReplied();
    }

    private void evaluateIfAllReplied() {
        if (replies.size() < view.size() - 1) {
            return;
        }
        attemptOpen = false;
        PrimeRatio t = x;
        for (PrimeRatio xj : replies.values()) {
            t = t.times(xj);
        }
        if (t.isQOver(me, view.size())) {
            inCS = true;
            effects.granted(fences.next());
        } else {
            effects.setTimer(RETRY, retryMs);
        }
    }

    // ---- INFORM -----------------------------------------------------------------------------------

    /** Rule 7. */
    private void onInform(NodeId from, Inform i) {
        fences.observe(i.fence());
        int k = view.indexOf(from);
        if (k < 0 || original || i.pass() <= seen[k]) {
            return;
        }
        seen[k] = i.pass();
        xs[k] = i.x();
        check();
    }

    /** Rule 8: enter if privileged and requesting; pass (after the idle pause) if privileged and idle. */
    private void check() {
        if (original || !barrier.isComplete() || inCS || !privileged()) {
            return;
        }
        if (requesting) {
            inCS = true;
            effects.cancelTimer(PASS);
            passTimer = false;
            effects.granted(fences.next());
        } else if (view.size() > 1) {
            if (idlePassMs == 0) {
                pass();
            } else if (!passTimer) {
                passTimer = true;
                effects.setTimer(PASS, idlePassMs);
            }
        }
    }

    private boolean privileged() {
        int n = view.size();
        long[] exponents = new long[n];
        for (PrimeRatio xk : xs) {
            for (int t = 0; t < xk.size(); t++) {
                int rank = xk.rankAt(t);
                if (rank >= n) {
                    return false;
                }
                exponents[rank] += xk.exponentAt(t);
            }
        }
        for (int k = 0; k < n; k++) {
            if (exponents[k] != (k == me ? 0 : 1)) {
                return false;
            }
        }
        return true;
    }

    /** Rule 10: X_me := X_me · A_me / A_next, and tell everyone. */
    private void pass() {
        if (view.size() == 1) {
            return; // the right has nowhere to go
        }
        xs[me] = xs[me].timesRatio(me, successor());
        passes++;
        effects.broadcast(new Inform(xs[me], passes, fences.highest()));
    }

    // ---- epoch barrier -----------------------------------------------------------------------------

    private void announce() {
        PeerState s = inCS ? PeerState.HOLDING : requesting ? PeerState.WAITING : PeerState.IDLE;
        effects.broadcast(new State(s, fences.highest()));
        applyState(self, s);
    }

    private void applyState(NodeId member, PeerState s) {
        if (s == PeerState.HOLDING && announcedHolder == null) {
            announcedHolder = member; // two holders can only be announced after a partition
        } else if (s == PeerState.WAITING) {
            announcedWaiting.add(member);
        }
    }

    private void finishBarrierIfComplete() {
        if (!barrier.isComplete()) {
            return;
        }
        NodeId h = announcedHolder != null ? announcedHolder
                : announcedWaiting.isEmpty() ? view.member(0) : announcedWaiting.first();
        rebuild(view.indexOf(h), true);
        boolean owedPass = exitedDuringBarrier && h.equals(self);
        exitedDuringBarrier = false;
        if (owedPass && original) {
            x = x.timesRatio(me, successor()); // we left the CS after announcing HOLDING: the right moves on
        } else if (owedPass) {
            pass();
        }
        announcedHolder = null;
        announcedWaiting.clear();
        for (Deferred d : deferred) {
            effects.send(d.from(), new Reply(d.attempt(), x, fences.highest()));
        }
        deferred.clear();
        if (original) {
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
        return original ? x : xs[me];
    }

    @Override
    public String toString() {
        return "Raynal[" + self + (original ? " original" : " inform") + (inCS ? " in CS" : requesting ? " waiting" : " idle")
                + " X=" + ownX() + (original ? " attempt=" + attempt : " xs=" + Arrays.toString(xs) + " passes=" + passes)
                + " " + barrier + "]";
    }
}
