package io.dlock.membership;

import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The epoch lease of one node: whether this node may still act in its current view (grant a lock, hand
 * it to another local thread, enter again with a token it holds), and whether a hold it granted earlier
 * is still known to be exclusive. A view says who the members are; it does not say that the others
 * still agree. A process stopped for 20 s (a long garbage-collection pause, {@code SIGSTOP}) resumes in
 * the view it had, with the token or the permissions it had, while a majority has excluded it and
 * granted the lock again; it learns of its new view only seconds later. The lease closes that window.
 *
 * <h2>The protocol (Raft's leader lease and CheckQuorum, Chubby's master lease, per node)</h2>
 * <ul>
 *   <li><b>Probe.</b> Every node sends a {@code PROBE(view, seq)} to the other members of its view every
 *       quarter lease, and remembers when it sent it, on its own monotonic clock.</li>
 *   <li><b>Acknowledge.</b> A member acknowledges a probe if its own view is primary and has the prober as a
 *       member. The acknowledgement is <em>ready</em> only if the member has installed the same view (the same
 *       epoch and the same members) and has no promise pending (see below); otherwise it counts for holds
 *       only (a member that installs a join view a second after the prober still vouches that no view
 *       without the prober can grant, but not that the prober's view is current).</li>
 *   <li><b>Lease.</b> When the members that acknowledged a probe sent at {@code t} (this node included)
 *       form a quorum of the view ({@link PrimaryComponent#quorumRule}), the node's lease runs to
 *       {@code t + L}. Two ends are kept: the <em>hold</em> lease counts every acknowledgement, the
 *       <em>grant</em> lease only ready ones. A node grants, hands off or re-enters only while its grant
 *       lease runs; a hold stays exclusive while the hold lease runs.</li>
 *   <li><b>The promise.</b> A member that acknowledged a probe of member X at time {@code a} promises not
 *       to help a view that excludes X grant before X's lease from that probe has surely ended: when it
 *       installs a view that removes X (X not announced as a clean leave), it answers probes of the new
 *       view as <em>not ready</em> until {@code a + W}, on its own clock, with the wait {@code W}
 *       slightly above {@code L} to cover clock-rate drift.</li>
 * </ul>
 *
 * <h2>Why one holder at a time follows</h2>
 * Let X act at time {@code t} under a lease from a probe sent at {@code s}, {@code t < s + L}, and let a
 * later view V that excludes X grant at {@code g}. Both quorums are majorities of the same reference, so
 * some member Q acknowledged X's probe (at some {@code a >= s}) and also gave V a ready acknowledgement
 * before {@code g}; by the promise that acknowledgement came at least {@code W} after {@code a}. So
 * {@code g >= a + W > s + L > t} in real time, provided every node's clock runs at a rate within the drift
 * bound of real time: X acted before V granted anything, and every token of V is above X's. No clock is
 * synchronised and message delays do not enter the argument (the prober takes the send time, the member
 * the answer time). A member that a view keeps needs no wait: every algorithm's view-change rebuild
 * (census, barrier, coordinator sync) needs an answer from each member of the new view in the new
 * epoch, and a member that has installed the new view no longer acts in the old one. And a member cut
 * off, crashed or paused has not been acknowledged since it went silent, so by the time failure detection
 * removes it its promise has usually run out: the wait costs nothing in the common faults.
 *
 * <h2>What a lease does not cover</h2>
 * A thread already inside its critical section when its node stops (a pause, a cut) keeps running when it
 * resumes: nothing can stop it. Its writes carry an older fencing token, which a fenced store refuses;
 * and when it unlocks, or asks for its token, after its hold lease ran out, it learns that it lost the
 * lock ({@code LockOwnershipLostException}, the lock's ownership listeners).
 *
 * <p>Pure: no clock (every call takes {@code now}, nanoseconds of one monotonic clock), no threads, no I/O.
 * Not thread-safe: the runtime's {@code LeaseKeeper} serialises the calls.
 */
public final class EpochLease {

    /*
     * Overview.
     *
     * State: the installed view (epoch, members, fingerprint), whether it is primary and its quorum rule;
     * the probes of this view still worth an answer (by sequence number: send time, who answered, who was
     * ready); holdEnd and grantEnd, the two lease ends (0 = none); readyAt, before which this node answers
     * "not ready"; lastAck, when this node last acknowledged each other member.
     * Invariants: grantEnd <= holdEnd after every call that extends them; both are 0 outside a primary
     * view; readyAt never decreases; probes of an older view are forgotten when a view is installed.
     */

    /** Probes kept for their answers; older ones are forgotten (their lease would have run out). */
    private static final int PROBES_KEPT = 8;

    /** A probe's answer: null if the probe is not answered. */
    public enum Answer {
        /** Acknowledged in the same view, and this node has no promise pending: extends grants and holds. */
        READY,
        /**
         * Acknowledged, but in another view that has the prober as a member, or while a promise to a removed member
         * still runs: extends holds, not grants.
         */
        NOT_READY
    }

    /** One probe of the current view that is still worth an answer. */
    private static final class Probe {
        final long seq;
        final long sentAt;
        final Set<NodeId> acked = new HashSet<>();
        final Set<NodeId> ready = new HashSet<>();
        boolean holdQuorum;
        boolean grantQuorum;

        Probe(long seq, long sentAt) {
            this.seq = seq;
            this.sentAt = sentAt;
        }
    }

    private final NodeId self;
    private final long leaseNanos;
    private final long waitNanos;
    private View view;
    private long fingerprint;
    private boolean primary;
    private boolean stopped;
    private Predicate<Set<NodeId>> quorum = members -> false;
    private final Map<Long, Probe> probes = new HashMap<>();
    private long nextSeq;
    private long holdEnd;
    private long grantEnd;
    private long readyAt = Long.MIN_VALUE;
    private final Map<NodeId, Long> lastAck = new HashMap<>();
    private final Set<NodeId> departing = new HashSet<>();

    /**
     * @param self       this node
     * @param leaseNanos L: how long an acknowledged probe lets this node act, from the probe's send time
     * @param waitNanos  W: how long after its last acknowledgement to a removed member this node answers
     *                   "not ready"; must be at least {@code leaseNanos} (more, to cover clock-rate drift)
     * @throws IllegalArgumentException if {@code leaseNanos} is not positive or {@code waitNanos < leaseNanos}
     */
    public EpochLease(NodeId self, long leaseNanos, long waitNanos) {
        if (leaseNanos <= 0) {
            throw new IllegalArgumentException("lease must be positive, got " + leaseNanos + " ns");
        }
        if (waitNanos < leaseNanos) {
            throw new IllegalArgumentException("the wait after a removal (" + waitNanos
                    + " ns) must be at least the lease (" + leaseNanos + " ns)");
        }
        this.self = Objects.requireNonNull(self, "self");
        this.leaseNanos = leaseNanos;
        this.waitNanos = waitNanos;
    }

    /** A fingerprint of the view's epoch and members: two views with one epoch number but other members differ. */
    public static long fingerprint(View view) {
        long h = 0xcbf29ce484222325L ^ view.epoch();
        for (NodeId member : view.members()) {
            h = (h ^ member.value()) * 0x100000001b3L;
            h ^= h >>> 29;
        }
        return h;
    }

    /**
     * A member announced a clean leave: it stopped acting before it said so, so a view that removes it needs
     * no wait for its lease.
     */
    public void departing(NodeId member) {
        departing.add(Objects.requireNonNull(member, "member"));
    }

    /**
     * Installs a new view. A view that removes members (not announced as leaving) starts the wait for each
     * of them and ends the grant lease (this node must be acknowledged as ready in the new view); a view
     * that removes nobody keeps both leases; a view that is not primary ends both.
     *
     * @param primary whether the view is primary for this node ({@link PrimaryComponent#accept})
     * @param quorum  whether a set of members is a quorum of this view ({@link PrimaryComponent#quorumRule})
     * @param now     the monotonic clock now
     */
    public void onView(View newView, boolean primary, Predicate<Set<NodeId>> quorum, long now) {
        Objects.requireNonNull(newView, "view");
        boolean removed = false;
        if (view != null) {
            for (NodeId member : view.members()) {
                if (!newView.contains(member) && !departing.contains(member)) {
                    removed = true;
                    Long acked = lastAck.get(member);
                    if (acked != null) {
                        readyAt = Math.max(readyAt, acked + waitNanos);
                    }
                }
            }
        }
        lastAck.keySet().removeIf(member -> !newView.contains(member));
        departing.removeIf(member -> !newView.contains(member));
        view = newView;
        fingerprint = fingerprint(newView);
        this.primary = primary;
        this.quorum = Objects.requireNonNull(quorum, "quorum");
        probes.clear();
        if (!primary) {
            holdEnd = 0;
            grantEnd = 0;
        } else if (removed) {
            grantEnd = 0;
        }
    }

    /**
     * Starts a probe now: returns its sequence number, to send to every other member of the view, or -1 if
     * this node sends none (no view yet, not primary, stopped). This node's own answer is counted at once.
     */
    public long probe(long now) {
        if (view == null || !primary || stopped) {
            return -1;
        }
        Probe p = new Probe(++nextSeq, now);
        probes.put(p.seq, p);
        probes.remove(p.seq - PROBES_KEPT);
        count(p, self, now >= readyAt, now);
        return p.seq;
    }

    /**
     * Answers a probe of {@code from} sent in view ({@code epoch}, {@code fingerprint}): null (no answer) unless
     * this node's view is primary and has {@code from} as a member; {@link Answer#READY} if it is the same view and
     * no promise is pending, else {@link Answer#NOT_READY}. Every answer is a promise to {@code from}.
     */
    public Answer onProbe(NodeId from, long epoch, long fingerprint, long now) {
        if (view == null || !primary || stopped || !view.contains(from) || from.equals(self)) {
            return null;
        }
        lastAck.put(from, now);
        return sameView(epoch, fingerprint) && now >= readyAt ? Answer.READY : Answer.NOT_READY;
    }

    /**
     * An answer to this node's probe {@code seq}.
     *
     * @return true if it made the grant lease run again (it had run out): what waits for it may go on
     */
    public boolean onAnswer(NodeId from, long epoch, long fingerprint, long seq, Answer answer, long now) {
        Objects.requireNonNull(answer, "answer");
        if (!sameView(epoch, fingerprint) || !primary || stopped || !view.contains(from)) {
            return false;
        }
        Probe p = probes.get(seq);
        if (p == null) {
            return false;
        }
        boolean couldGrant = mayGrant(now);
        count(p, from, answer == Answer.READY, now);
        return !couldGrant && mayGrant(now);
    }

    private void count(Probe p, NodeId member, boolean ready, long now) {
        p.acked.add(member);
        if (ready) {
            p.ready.add(member);
        }
        if (!p.holdQuorum && quorum.test(p.acked)) {
            p.holdQuorum = true;
            holdEnd = Math.max(holdEnd, p.sentAt + leaseNanos);
        }
        if (!p.grantQuorum && quorum.test(p.ready)) {
            p.grantQuorum = true;
            grantEnd = Math.max(grantEnd, p.sentAt + leaseNanos);
        }
    }

    private boolean sameView(long epoch, long fingerprint) {
        return view != null && view.epoch() == epoch && this.fingerprint == fingerprint;
    }

    /** Whether this node may grant, hand off or re-enter now: a primary view and a running grant lease. */
    public boolean mayGrant(long now) {
        return primary && !stopped && now - grantEnd < 0 && grantEnd != 0;
    }

    /** Whether a hold granted here is still known to be exclusive now: a running hold lease. */
    public boolean holdValid(long now) {
        return primary && !stopped && now - holdEnd < 0 && holdEnd != 0;
    }

    /** When the grant lease ends (monotonic nanoseconds), 0 if none runs. */
    public long grantEnd() {
        return primary && !stopped ? grantEnd : 0;
    }

    /** When the hold lease ends (monotonic nanoseconds), 0 if none runs. */
    public long holdEnd() {
        return primary && !stopped ? holdEnd : 0;
    }

    /** Before when this node answers probes "not ready" (a promise to a removed member runs until then). */
    public long readyAt() {
        return readyAt;
    }

    /**
     * This node leaves (a clean leave is about to be announced): it acts no more and answers no probe, so the
     * others need not wait for its lease.
     */
    public void stop() {
        stopped = true;
    }

    /** The installed view's epoch, or -1 before the first. */
    public long epoch() {
        return view == null ? -1 : view.epoch();
    }

    /** The installed view's {@link #fingerprint}, or 0 before the first. */
    public long fingerprint() {
        return fingerprint;
    }

    /** The installed view, or null before the first. */
    public View view() {
        return view;
    }

    @Override
    public String toString() {
        return "EpochLease[" + (view == null ? "no view" : "epoch " + view.epoch()) + (primary ? "" : ", not primary")
                + (stopped ? ", stopped" : "") + ", grantEnd " + grantEnd + ", holdEnd " + holdEnd + "]";
    }
}
