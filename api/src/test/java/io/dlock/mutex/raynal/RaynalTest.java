package io.dlock.mutex.raynal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.mutex.raynal.RaynalMessage.Inform;
import io.dlock.mutex.raynal.RaynalMessage.Reply;
import io.dlock.mutex.raynal.RaynalMessage.Request;
import io.dlock.mutex.raynal.RaynalMessage.Wake;
import io.dlock.mutex.testing.Cluster;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.spi.MalformedMessageException;
import io.dlock.NodeId;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Raynal's prime-number algorithm (docs/algorithms.md A11, claims RN-1..RN-6), both versions. */
class RaynalTest {

    private static final RaynalDefinition DEFINITION = new RaynalDefinition();

    private static Cluster<RaynalMessage> cluster(int n, boolean original) {
        return new Cluster<>(DEFINITION, n, ProtocolOptions.NONE.with(RaynalDefinition.ORIGINAL, String.valueOf(original)));
    }

    /** The INFORM version with an idle pause of 20 ms (the default is none): an idle pass waits for the PASS timer. */
    private static Cluster<RaynalMessage> clusterWithIdlePause(int n) {
        return new Cluster<>(DEFINITION, n, ProtocolOptions.NONE.with(RaynalDefinition.IDLE_PASS_MS, "20"));
    }

    private static PrimeRatio product(Cluster<RaynalMessage> c) {
        PrimeRatio t = PrimeRatio.ONE;
        for (NodeId node : c.view().members()) {
            t = t.times(((Raynal) c.protocol(node.value())).ownX());
        }
        return t;
    }

    /** The one node i with {@code Π X_k = Q / A_i} (RN-1); fails if there is not exactly one. */
    private static int privilegedNode(Cluster<RaynalMessage> c, int n, String where) {
        PrimeRatio t = product(c);
        int found = -1;
        for (int i = 0; i < n; i++) {
            if (t.isQOver(i, n)) {
                assertEquals(-1, found, "two privileged nodes, T=" + t + "; " + where);
                found = i;
            }
        }
        assertTrue(found >= 0, "no privileged node, T=" + t + "; " + where);
        return found;
    }

    private static BigInteger big(long v) {
        return BigInteger.valueOf(v);
    }

    /** The attributes are the odd primes; X values print as the source notes' fractions. */
    @Test
    void primeRatioArithmetic() {
        assertArrayEquals(new long[] {3, 5, 7, 11, 13}, PrimeRatio.oddPrimes(5));
        PrimeRatio x0 = PrimeRatio.ONE.timesRatio(0, 1);
        assertArrayEquals(new BigInteger[] {big(3), big(5)}, x0.toFraction());
        PrimeRatio t = x0.times(PrimeRatio.attribute(1)).times(PrimeRatio.attribute(2)).times(PrimeRatio.attribute(3));
        assertArrayEquals(new BigInteger[] {big(3 * 7 * 11), big(1)}, t.toFraction());
        assertTrue(t.isQOver(1, 4));
        assertFalse(t.isQOver(0, 4));
        assertEquals(PrimeRatio.ONE, x0.timesRatio(1, 0));
        assertThrows(IllegalArgumentException.class, () -> PrimeRatio.of(Map.of(-1, 1L)));
    }

    /** RN-2: the worked example (N=4, A = 3,5,7,11, X_0 = 1): X_0 = 3/5, X_1 = 25/7, X_2 = 49/11, and T at each step. */
    @Test
    void seedExample() {
        Cluster<RaynalMessage> c = cluster(4, true);
        long[][] expectedT = {{5 * 7 * 11}, {3 * 7 * 11}, {3 * 5 * 11}};
        long[][] expectedX = {{3, 5}, {25, 7}, {49, 11}};
        for (int step = 0; step < 3; step++) {
            assertArrayEquals(new BigInteger[] {big(expectedT[step][0]), big(1)}, product(c).toFraction(), "T at step " + step);
            for (int i = 0; i < 4; i++) {
                assertEquals(i == step, product(c).isQOver(i, 4), "only node " + step + " is privileged");
            }
            c.request(step);
            c.deliverAll();
            assertTrue(c.inCS(step));
            c.release(step);
            BigInteger[] x = ((Raynal) c.protocol(step)).ownX().toFraction();
            assertArrayEquals(new BigInteger[] {big(expectedX[step][0]), big(expectedX[step][1])}, x, "X_" + step);
        }
        assertEquals(List.of(), c.violations());
    }

    /** RN-3: every attempt of the original costs exactly 2(N-1); a node that is not privileged never enters. */
    @Test
    void originalAttemptCostAndNonPrivilegedNodeNeverEnters() {
        int n = 5;
        Cluster<RaynalMessage> c = cluster(n, true);
        c.request(3); // the right is at node 0
        for (int attempt = 1; attempt <= 4; attempt++) {
            c.deliverAll();
            assertFalse(c.inCS(3));
            assertEquals(attempt * (n - 1L), c.messagesSent(Request.class));
            assertEquals(attempt * (n - 1L), c.messagesSent(Reply.class));
            c.fireTimer(3, Raynal.RETRY);
        }
        assertEquals(List.of(), c.violations());
    }

    /** RN-4: original deadlock: node 1 (successor of the last holder 0) never requests, so node 2 never enters. */
    @Test
    void originalDeadlocksWhenTheSuccessorNeverRequests() {
        Cluster<RaynalMessage> c = cluster(3, true);
        c.request(0);
        c.deliverAll();
        c.release(0); // the right passes to node 1, which never wants it
        c.request(2);
        for (int attempt = 0; attempt < 20; attempt++) {
            c.deliverAll();
            assertFalse(c.inCS(2), "node 2 entered although node 1 holds the right");
            c.fireTimer(2, Raynal.RETRY);
        }
        assertTrue(c.waiting(2));
        assertEquals(List.of(), c.violations());
    }

    /** The same situation with the INFORM version: node 1 passes the right on, node 2 enters (the source notes' fix). */
    @Test
    void informPassesTheRightOfAnIdleNode() {
        Cluster<RaynalMessage> c = clusterWithIdlePause(3);
        c.request(0);
        c.release(0);
        c.request(2);
        c.deliverAll();
        c.fireTimer(1, Raynal.PASS); // node 1 does not want the CS: it passes after its idle pause
        c.deliverAll();
        assertTrue(c.inCS(2));
        assertEquals(List.of(), c.violations());
    }

    /** RN-5: right just left h, one requester at distance d: exactly d(N-1) INFORMs before it enters; (N-1)^2 for d = N-1. */
    @Test
    void informCostIsDTimesNMinus1() {
        int n = 6;
        for (int d = 1; d <= n - 1; d++) {
            Cluster<RaynalMessage> c = cluster(n, false);
            c.request(0);
            assertTrue(c.inCS(0)); // node 0 holds the right at start
            c.release(0);          // the right moves to node 1: the first of d passes
            c.request(d);
            for (int guard = 0; guard < 100 && !c.inCS(d); guard++) {
                c.deliverAll();
                for (int k = 1; k < n; k++) {
                    if (c.protocol(k) != null && !c.inCS(d)) {
                        try {
                            c.fireTimer(k, Raynal.PASS);
                        } catch (AssertionError notRunning) {
                            // only the privileged idle node has its pass timer running
                        }
                    }
                }
            }
            assertTrue(c.inCS(d), "d=" + d);
            assertEquals((long) d * (n - 1), c.messagesSent(Inform.class), "d=" + d);
            assertEquals(List.of(), c.violations());
        }
    }

    /**
     * RN-1 and RN-6: random runs where only some nodes request. After every step exactly one node h
     * has {@code Π X_k = Q / A_h}; the right only ever moves from h to its successor {@code h+1 mod N};
     * right after node e leaves the critical section, h is e's successor. Every request is served.
     */
    @Test
    void informInvariantAndNoDeadlock() {
        for (int n = 2; n <= 6; n++) {
            for (long seed = 0; seed < 50; seed++) {
                Cluster<RaynalMessage> c = cluster(n, false);
                Random random = new Random(seed);
                Map<NodeId, Integer> budget = new TreeMap<>();
                for (NodeId node : c.members()) {
                    budget.put(node, node.value() % 2 == 0 ? 3 : 0); // odd nodes never request
                }
                int entries = c.entries().size();
                int holder = privilegedNode(c, n, "n=" + n + " seed=" + seed + " at start");
                while (true) {
                    boolean[] wasIn = new boolean[n];
                    for (int i = 0; i < n; i++) {
                        wasIn[i] = c.inCS(i);
                    }
                    if (!c.randomStep(random, budget, false, 0.02)) {
                        break;
                    }
                    String where = "n=" + n + " seed=" + seed + " step " + c.sent().size();
                    int h = privilegedNode(c, n, where);
                    if (h != holder) {
                        assertEquals((holder + 1) % n, h, "the right moved from " + holder + " to " + h + ", not to its successor; " + where);
                    }
                    for (int e = 0; e < n; e++) {
                        if (wasIn[e] && !c.inCS(e)) {
                            assertEquals((e + 1) % n, h, "right after " + e + " left, its successor holds the right; " + where);
                        }
                    }
                    holder = h;
                    entries = c.entries().size();
                }
                c.checkNobodyWaits();
                assertEquals(List.of(), c.violations(), "n=" + n + " seed=" + seed);
                assertEquals(3 * ((n + 1) / 2), entries, "n=" + n + " seed=" + seed);
            }
        }
    }

    /** Fires the idle-pass timer of whichever node runs it, delivering everything in between, until none runs. */
    private static void idleRound(Cluster<RaynalMessage> c) {
        c.deliverAll();
        for (int guard = 0; guard < 100 && !c.runningTimers().isEmpty(); guard++) {
            Map.Entry<NodeId, String> timer = c.runningTimers().get(0);
            c.fireTimer(timer.getKey().value(), timer.getValue());
            c.deliverAll();
        }
        assertEquals(List.of(), c.runningTimers(), "the right still moves");
    }

    private static boolean allAtRest(Cluster<RaynalMessage> c) {
        return c.members().stream().allMatch(m -> c.protocol(m.value()).atRest());
    }

    /**
     * Rule 11: after the last exit the right makes one idle round (the exit pass and N-1 idle passes, N(N-1)
     * INFORMs) and parks at the node that left; then no timer runs, nothing is sent and every node is at rest.
     */
    @Test
    void anIdleRightParksAfterOneRound() {
        int n = 4;
        Cluster<RaynalMessage> c = cluster(n, false);
        c.request(0);
        assertTrue(c.inCS(0));
        assertFalse(allAtRest(c));
        c.release(0);
        idleRound(c);
        assertEquals((long) n * (n - 1), c.messagesSent(Inform.class));
        assertEquals(0, privilegedNode(c, n, "parked"));
        assertTrue(allAtRest(c), "every node is at rest once the right is parked");
        assertEquals(List.of(), c.inFlight());
    }

    /** Rule 11: a request at the parker enters with no message; elsewhere it costs one WAKE and d(N-1) INFORMs. */
    @Test
    void aParkedRightServesTheParkerForFreeAndOthersAfterOneWake() {
        int n = 5;
        for (int d = 0; d < n; d++) {
            Cluster<RaynalMessage> c = cluster(n, false);
            c.request(0);
            c.release(0);
            idleRound(c);
            int before = c.messagesSent();
            c.request(d);
            c.deliverAll(); // a hurried walk: no idle pause on the way
            assertTrue(c.inCS(d), "d=" + d);
            assertEquals(d == 0 ? 0 : 1, c.messagesSent(Wake.class), "d=" + d);
            assertEquals((long) d * (n - 1) + (d == 0 ? 0 : 1), c.messagesSent() - before, "d=" + d);
            c.release(d);
            idleRound(c);
            assertTrue(allAtRest(c), "d=" + d);
            assertEquals(d, privilegedNode(c, n, "parked again"), "it parks again where it was last used");
            assertEquals(List.of(), c.violations());
        }
    }

    /** Rule 11: two requesters wake the parker; one WAKE moves the right, the other is ignored, both enter. */
    @Test
    void twoWakesMoveTheRightOnce() {
        int n = 4;
        Cluster<RaynalMessage> c = clusterWithIdlePause(n);
        c.request(0);
        c.release(0);
        idleRound(c);
        c.request(1);
        c.request(3);
        assertEquals(2, c.messagesSent(Wake.class));
        c.deliverAll();
        assertTrue(c.inCS(1));
        c.release(1);
        c.deliverAll();
        c.fireTimer(2, Raynal.PASS); // an ordinary pass after an exit: node 2 does not want it, it pauses
        c.deliverAll();
        assertTrue(c.inCS(3), "the right reaches the other requester on its way round");
        c.release(3);
        idleRound(c);
        assertEquals(2, c.messagesSent(Wake.class));
        assertTrue(allAtRest(c));
        assertEquals(List.of(), c.violations());
    }

    /** Rule 11: a WAKE for a parking that is over (the right moved since) is ignored: no pass, no second right. */
    @Test
    void aStaleWakeIsIgnored() {
        int n = 3;
        Cluster<RaynalMessage> c = cluster(n, false);
        c.request(0);
        c.release(0);
        idleRound(c);
        c.request(1);
        var wake = c.peek(1, 0, Wake.class);
        c.duplicate(wake);
        c.deliverAll();
        assertTrue(c.inCS(1));
        int before = c.messagesSent();
        c.release(1);
        idleRound(c);
        assertEquals((long) n * (n - 1), c.messagesSent() - before, "exit pass and one idle round, nothing more");
        assertEquals(1, privilegedNode(c, n, "parked at 1"));
        assertEquals(List.of(), c.violations());
    }

    /** The original version never violates ME1 on random schedules with duplicates, even though it may deadlock. */
    @Test
    void originalIsSafe() {
        for (long seed = 0; seed < 100; seed++) {
            Cluster<RaynalMessage> c = cluster(4, true);
            Random random = new Random(seed);
            Map<NodeId, Integer> budget = new TreeMap<>();
            for (NodeId node : c.members()) {
                budget.put(node, 2);
            }
            for (int step = 0; step < 5_000 && c.randomStep(random, budget, false, 0.05); step++) {
                // bounded: a deadlocked run retries forever
            }
            assertEquals(List.of(), c.violations(), "seed=" + seed);
        }
    }

    /** The codec round-trips every message and refuses a zero exponent. */
    @Test
    void codec() {
        RaynalCodec codec = new RaynalCodec();
        PrimeRatio x = PrimeRatio.ONE.timesRatio(2, 3).timesRatio(2, 3);
        for (RaynalMessage m : List.of(new Request(1), new Reply(4, x, 7), new Inform(x, 3, 9, 4, 2, true), new Wake(5),
                new RaynalMessage.State(io.dlock.mutex.common.PeerState.WAITING, 5))) {
            assertEquals(m, codec.fromBytes(codec.toBytes(m)));
        }
        byte[] zero = {RaynalCodec.INFORM, 1, 2, 0, 1, 0};
        assertThrows(MalformedMessageException.class, () -> codec.fromBytes(zero));
        assertTrue(Set.of(RaynalDefinition.ORIGINAL, RaynalDefinition.RETRY_MS, RaynalDefinition.IDLE_PASS_MS)
                .equals(DEFINITION.optionKeys()));
    }

    /** Attributes are shared below rank 1 024 and equal to the ones built from their exponent everywhere. */
    @Test
    void attributesAreSharedAndExact() {
        for (int rank : new int[] {0, 1, 2, 63, 64, 1_023, 1_024, 4_096, Integer.MAX_VALUE}) {
            PrimeRatio a = PrimeRatio.attribute(rank);
            assertEquals(PrimeRatio.of(Map.of(rank, 1L)), a);
            assertEquals(1, a.size());
            assertEquals(rank, a.rankAt(0));
            assertEquals(1, a.exponentAt(0));
            if (rank < 1_024) {
                org.junit.jupiter.api.Assertions.assertSame(a, PrimeRatio.attribute(rank));
            }
        }
    }

    /** Shared values never stand for another: thousands of distinct values (colliding in the table) stay exact. */
    @Test
    void sharedValuesStayExact() {
        for (int round = 0; round < 2; round++) {
            for (int k = 0; k < 3_000; k++) {
                PrimeRatio x = PrimeRatio.attribute(k % 50).timesRatio(k % 50, k % 50 + 1).timesRatio(k % 50, k % 50 + 1);
                PrimeRatio y = PrimeRatio.of(Map.of(k % 50, 3L, k % 50 + 1, -2L, 100 + k, (long) k + 1));
                assertEquals(3, x.exponent(k % 50));
                assertEquals(-2, x.exponent(k % 50 + 1));
                assertEquals(2, x.size());
                assertEquals(x, y.times(PrimeRatio.of(Map.of(100 + k, -(long) k - 1))));
                assertEquals(k + 1L, y.exponent(100 + k));
                assertEquals(3, y.size());
            }
        }
    }
}
