package io.dlock.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The epoch lease on virtual time: who answers what, when the two leases run, the promise to a removed member, and
 * (on random schedules with drifting clocks) the property the runtime relies on: a node resumed in a view that the
 * others have left is never able to act after a view that excludes it could first grant.
 */
class EpochLeaseTest {

    private static final long L = 1_000;
    private static final long W = L + L / 16;
    private static final NodeId N0 = NodeId.of(0);
    private static final NodeId N1 = NodeId.of(1);
    private static final NodeId N2 = NodeId.of(2);
    private static final View FIVE = View.ofRange(1, 5);
    private static final View FOUR = View.ofRange(2, 4);

    /** Majority of a cluster of five. */
    private static Predicate<Set<NodeId>> ofFive() {
        return members -> members.size() * 2 > 5;
    }

    private static EpochLease lease(NodeId self, View view, long now) {
        EpochLease lease = new EpochLease(self, L, W);
        lease.onView(view, true, ofFive(), now);
        return lease;
    }

    /** Answers from a quorum (this node counted) start both leases at the probe's send time plus L. */
    @Test
    void quorumOfAnswersStartsTheLeaseFromTheSendTime() {
        EpochLease a = lease(N0, FIVE, 0);
        long seq = a.probe(100);
        assertFalse(a.mayGrant(100), "no quorum yet: only itself");
        long fp = EpochLease.fingerprint(FIVE);
        assertFalse(a.onAnswer(N1, 1, fp, seq, EpochLease.Answer.READY, 150));
        assertFalse(a.mayGrant(150), "two of five");
        assertTrue(a.onAnswer(N2, 1, fp, seq, EpochLease.Answer.READY, 180), "the lease starts: tell whoever waits");
        assertTrue(a.mayGrant(180));
        assertTrue(a.holdValid(100 + L - 1));
        assertFalse(a.mayGrant(100 + L), "ends L after the probe was sent, not after the answer came");
        assertFalse(a.holdValid(100 + L));
    }

    /** A single-member view of a one-node cluster is its own quorum. */
    @Test
    void singleNodeClusterActsOnItsOwnProbe() {
        EpochLease a = new EpochLease(N0, L, W);
        a.onView(View.ofRange(0, 1), true, members -> members.size() * 2 > 1, 0);
        a.probe(5);
        assertTrue(a.mayGrant(5));
    }

    /**
     * Ready answers come only for the same view (epoch and members); a primary view that has the prober as a member
     * answers other views too, for holds only; no answer to a non-member or from a view that is not primary.
     */
    @Test
    void answersReadyOnlyTheSameViewAndNothingToANonMember() {
        EpochLease b = lease(N1, FIVE, 0);
        long fp = EpochLease.fingerprint(FIVE);
        assertEquals(EpochLease.Answer.READY, b.onProbe(N0, 1, fp, 10));
        assertEquals(EpochLease.Answer.NOT_READY, b.onProbe(N0, 2, fp, 10), "other epoch: holds only");
        assertEquals(EpochLease.Answer.NOT_READY, b.onProbe(N0, 1, EpochLease.fingerprint(new View(1, List.of(N0, N1))), 10),
                "same epoch number, other members (the other side of a split): holds only");
        assertNull(b.onProbe(NodeId.of(9), 1, fp, 10), "not a member");
        b.onView(new View(2, List.of(N0, N1)), false, members -> false, 20);
        assertNull(b.onProbe(N0, 2, EpochLease.fingerprint(new View(2, List.of(N0, N1))), 30), "not primary");
    }

    /** A holder whose join view reaches the others late keeps its hold: their answers from the old view count. */
    @Test
    void answersFromAnotherViewKeepAHoldButAllowNoGrant() {
        EpochLease a = lease(N0, FIVE, 0);
        a.probe(0);
        long fp = EpochLease.fingerprint(FIVE);
        a.onAnswer(N1, 1, fp, 1, EpochLease.Answer.READY, 5);
        a.onAnswer(N2, 1, fp, 1, EpochLease.Answer.READY, 5);
        View six = View.ofRange(2, 6);
        a.onView(six, true, members -> members.size() * 2 > 6, 900);
        long seq = a.probe(900);
        long fp6 = EpochLease.fingerprint(six);
        EpochLease b = lease(N1, FIVE, 0);
        EpochLease c = lease(N2, FIVE, 0);
        EpochLease d = lease(NodeId.of(3), FIVE, 0);
        a.onAnswer(N1, 2, fp6, seq, b.onProbe(N0, 2, fp6, 910), 920);
        a.onAnswer(N2, 2, fp6, seq, c.onProbe(N0, 2, fp6, 910), 920);
        a.onAnswer(NodeId.of(3), 2, fp6, seq, d.onProbe(N0, 2, fp6, 910), 920);
        assertTrue(a.holdValid(1_500), "the hold lease runs from the new probe");
        assertFalse(a.mayGrant(1_500), "but nobody has confirmed the new view");
    }

    /** An answer to a probe of an earlier view does not extend the lease of the new one. */
    @Test
    void answersToAnEarlierViewAreIgnored() {
        EpochLease a = lease(N0, FIVE, 0);
        long seq = a.probe(10);
        a.onView(View.ofRange(2, 6), true, ofFive(), 20); // a join: nobody removed
        long fp = EpochLease.fingerprint(FIVE);
        a.onAnswer(N1, 1, fp, seq, EpochLease.Answer.READY, 30);
        a.onAnswer(N2, 1, fp, seq, EpochLease.Answer.READY, 30);
        assertFalse(a.mayGrant(30));
    }

    /** A member that answered X answers a view that removed X "not ready" until W after that answer. */
    @Test
    void removalOfAMemberStillAnsweredWaitsOutItsLease() {
        EpochLease q = lease(N1, FIVE, 0);
        assertEquals(EpochLease.Answer.READY, q.onProbe(NodeId.of(4), 1, EpochLease.fingerprint(FIVE), 500));
        q.onView(View.ofRange(2, 4), true, ofFive(), 600);
        long fp = EpochLease.fingerprint(View.ofRange(2, 4));
        assertEquals(EpochLease.Answer.NOT_READY, q.onProbe(N0, 2, fp, 600));
        assertEquals(EpochLease.Answer.NOT_READY, q.onProbe(N0, 2, fp, 500 + W - 1));
        assertEquals(EpochLease.Answer.READY, q.onProbe(N0, 2, fp, 500 + W));
        assertEquals(500 + W, q.readyAt());
    }

    /** A member silent since long before its removal (crashed, cut off, paused) costs no wait. */
    @Test
    void removalOfASilentMemberCostsNothing() {
        EpochLease q = lease(N1, FIVE, 0);
        q.onProbe(NodeId.of(4), 1, EpochLease.fingerprint(FIVE), 100);
        q.onView(FOUR, true, ofFive(), 100 + 7_500);
        assertEquals(EpochLease.Answer.READY, q.onProbe(N0, 2, EpochLease.fingerprint(FOUR), 100 + 7_500));
    }

    /** A member that announced a clean leave stopped acting before it said so: no wait. */
    @Test
    void cleanLeaveCostsNothing() {
        EpochLease q = lease(N1, FIVE, 0);
        q.onProbe(NodeId.of(4), 1, EpochLease.fingerprint(FIVE), 100);
        q.departing(NodeId.of(4));
        q.onView(FOUR, true, ofFive(), 110);
        assertEquals(EpochLease.Answer.READY, q.onProbe(N0, 2, EpochLease.fingerprint(FOUR), 110));
    }

    /**
     * A view that removes a member ends the grant lease (the node must be answered "ready" in it) but keeps the hold
     * lease: a hold granted before is still exclusive. A view that removes nobody keeps both; a view that is not
     * primary ends both.
     */
    @Test
    void viewChangesKeepOrEndTheLeases() {
        EpochLease a = lease(N0, FIVE, 0);
        long seq = a.probe(0);
        long fp = EpochLease.fingerprint(FIVE);
        a.onAnswer(N1, 1, fp, seq, EpochLease.Answer.READY, 10);
        a.onAnswer(N2, 1, fp, seq, EpochLease.Answer.READY, 10);
        a.onView(View.ofRange(2, 6), true, ofFive(), 20);
        assertTrue(a.mayGrant(20), "a join keeps the grant lease");
        a.onView(new View(3, List.of(N0, N1, N2, NodeId.of(3), NodeId.of(5))), true, ofFive(), 30);
        assertFalse(a.mayGrant(30), "a removal ends the grant lease");
        assertTrue(a.holdValid(30), "but not the hold lease");
        a.onView(new View(4, List.of(N0, N1)), false, members -> false, 40);
        assertFalse(a.holdValid(40), "not primary: nothing runs");
        assertEquals(-1, a.probe(40), "and nothing is probed");
    }

    /** A stopped node (about to announce its clean leave) neither acts nor answers. */
    @Test
    void stoppedNodeNeitherActsNorAnswers() {
        EpochLease a = lease(N0, FIVE, 0);
        a.stop();
        assertEquals(-1, a.probe(10));
        assertNull(a.onProbe(N1, 1, EpochLease.fingerprint(FIVE), 10));
        assertFalse(a.mayGrant(10));
    }

    @Test
    void rejectsAWaitShorterThanTheLease() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new EpochLease(N0, L, L - 1));
        assertTrue(e.getMessage().contains("at least the lease"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new EpochLease(N0, 0, 0));
    }

    // ---- random schedules ----

    /**
     * Five nodes on virtual time with clocks that run 2.5 % apart at most, random message delays, probes every L/4
     * on each node's own clock. Node 4 stops for a random time; the others install a view without it, each at a
     * time of its own (views reach members seconds apart); node 4 resumes in its old view and learns of its
     * own new view later still. Whatever the schedule, the last moment node 4 could act in its old view comes
     * before the first moment a node of the new view could grant.
     */
    @Test
    void resumedNodeNeverActsAfterTheViewThatExcludedItCouldGrant() {
        int checked = 0;
        for (long seed = 1; seed <= 400; seed++) {
            Schedule s = new Schedule(seed);
            s.run();
            if (s.lastStaleAct != Long.MIN_VALUE && s.firstNewGrant != Long.MAX_VALUE) {
                checked++;
                assertTrue(s.lastStaleAct < s.firstNewGrant, "seed " + seed + ": node 4 could act in its old view at "
                        + s.lastStaleAct + ", but the new view could grant from " + s.firstNewGrant);
            }
        }
        assertTrue(checked > 200, "too few schedules where both sides acted: " + checked);
    }

    /** One random schedule (see the test above). Time is real time in the same unit as L. */
    private static final class Schedule {

        private record Event(long at, long order, Runnable action) {
        }

        private final Random random;
        private final PriorityQueue<Event> queue = new PriorityQueue<>(
                (a, b) -> a.at != b.at ? Long.compare(a.at, b.at) : Long.compare(a.order, b.order));
        private long order;
        private long now;
        private final EpochLease[] nodes = new EpochLease[5];
        private final double[] rate = new double[5];
        private final long[] offset = new long[5];
        private final long pauseAt;
        private final long resumeAt;
        private final long end;
        private final List<Runnable> whilePaused = new ArrayList<>();
        private final Set<Integer> installedNew = new HashSet<>();
        long lastStaleAct = Long.MIN_VALUE;
        long firstNewGrant = Long.MAX_VALUE;

        Schedule(long seed) {
            random = new Random(seed);
            for (int i = 0; i < 5; i++) {
                rate[i] = 0.975 + 0.05 * random.nextDouble();
                offset[i] = random.nextInt(1_000_000);
                nodes[i] = new EpochLease(NodeId.of(i), L, W);
                nodes[i].onView(FIVE, true, ofFive(), clock(i));
            }
            pauseAt = 2 * L + random.nextInt((int) (3 * L));
            long pause = random.nextInt((int) (6 * L));
            resumeAt = pauseAt + pause;
            long detect = random.nextInt((int) (4 * L));
            for (int i = 0; i < 4; i++) {
                int node = i;
                at(pauseAt + detect + random.nextInt((int) (2 * L)), () -> {
                    nodes[node].onView(FOUR, true, ofFive(), clock(node));
                    installedNew.add(node);
                });
            }
            at(resumeAt + random.nextInt((int) (3 * L)), () -> nodes[4].onView(new View(2, List.of(NodeId.of(4))), false,
                    members -> false, clock(4)));
            at(resumeAt, () -> {
                List<Runnable> due = new ArrayList<>(whilePaused);
                whilePaused.clear();
                due.forEach(Runnable::run);
            });
            end = resumeAt + 8 * L;
            for (int i = 0; i < 5; i++) {
                tick(i, random.nextInt((int) (L / 4)));
            }
        }

        private long clock(int node) {
            return offset[node] + (long) (now * rate[node]);
        }

        private boolean paused(int node) {
            return node == 4 && now >= pauseAt && now < resumeAt;
        }

        private void at(long time, Runnable action) {
            queue.add(new Event(time, order++, action));
        }

        /** Runs {@code action} on {@code node} now, or at its resume if it is stopped. */
        private void on(int node, Runnable action) {
            if (paused(node)) {
                whilePaused.add(action);
            } else {
                action.run();
                observe();
            }
        }

        private void tick(int node, long delay) {
            // the period is L/4 on the node's own clock
            at(now + delay, () -> on(node, () -> {
                EpochLease lease = nodes[node];
                long seq = lease.probe(clock(node));
                if (seq >= 0) {
                    View view = lease.view();
                    long fp = lease.fingerprint();
                    for (NodeId member : view.members()) {
                        int to = (int) member.value();
                        if (to != node) {
                            send(to, () -> answer(to, node, view.epoch(), fp, seq));
                        }
                    }
                }
                if (now < end) {
                    tick(node, (long) ((L / 4) / rate[node]));
                }
            }));
        }

        private void answer(int at, int prober, long epoch, long fp, long seq) {
            EpochLease.Answer answer = nodes[at].onProbe(NodeId.of(prober), epoch, fp, clock(at));
            if (answer != null) {
                send(prober, () -> nodes[prober].onAnswer(NodeId.of(at), epoch, fp, seq, answer, clock(prober)));
            }
        }

        private void send(int to, Runnable delivery) {
            at(now + 1 + random.nextInt((int) (L / 10)), () -> on(to, delivery));
        }

        /**
         * After every step: how long node 4 can still act in its old view (until its hold lease ends, or until it is
         * stopped), and whether a node of the new view can grant now (that starts only at a step: an answer).
         */
        private void observe() {
            EpochLease stale = nodes[4];
            if (!paused(4) && stale.epoch() == 1 && stale.holdValid(clock(4))) {
                long until = (long) Math.ceil((stale.holdEnd() - offset[4]) / rate[4]);
                lastStaleAct = Math.max(lastStaleAct, now < pauseAt ? Math.min(until, pauseAt) : until);
            }
            for (int node : installedNew) {
                if (nodes[node].mayGrant(clock(node))) {
                    firstNewGrant = Math.min(firstNewGrant, now);
                }
            }
        }

        void run() {
            while (!queue.isEmpty()) {
                Event e = queue.poll();
                now = e.at;
                e.action.run();
            }
        }
    }
}
