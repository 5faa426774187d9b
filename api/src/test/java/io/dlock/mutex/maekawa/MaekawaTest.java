package io.dlock.mutex.maekawa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.mutex.maekawa.MaekawaMessage.Locked;
import io.dlock.mutex.maekawa.MaekawaMessage.Release;
import io.dlock.mutex.maekawa.MaekawaMessage.Request;
import io.dlock.mutex.testing.Cluster;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Maekawa's algorithm (docs/algorithms.md A10, claims MK-1..MK-6), both versions. */
class MaekawaTest {

    private static final MaekawaDefinition DEFINITION = new MaekawaDefinition();

    private static Cluster<MaekawaMessage> cluster(int n, boolean basic) {
        return new Cluster<>(DEFINITION, n, ProtocolOptions.NONE.with(MaekawaDefinition.BASIC, String.valueOf(basic)));
    }

    /** Delivers everything (FIFO); whoever is in the critical section leaves, until nothing happens. */
    private static void drain(Cluster<MaekawaMessage> c) {
        c.deliverAll();
        for (int round = 0; round < 100; round++) {
            boolean released = false;
            for (NodeId node : c.view().members()) {
                if (c.inCS(node.value())) {
                    c.release(node.value());
                    c.deliverAll();
                    released = true;
                }
            }
            if (!released) {
                return;
            }
        }
    }

    /** MK-1: the N = 7 plane: |S_i| = 3, i in S_i, every node in 3 sets, two sets meet in exactly one node. */
    @Test
    void planeQuorums() {
        Quorums q = Quorums.forSize(7);
        int[] membership = new int[7];
        for (int i = 0; i < 7; i++) {
            assertEquals(3, q.of(i).size());
            assertTrue(q.of(i).contains(i));
            q.of(i).forEach(v -> membership[v]++);
            for (int j = 0; j < 7; j++) {
                if (i != j) {
                    Set<Integer> common = new HashSet<>(q.of(i));
                    common.retainAll(q.of(j));
                    assertEquals(1, common.size(), "S" + i + " and S" + j);
                }
            }
        }
        for (int count : membership) {
            assertEquals(3, count);
        }
        assertEquals(List.of(0, 1, 2), q.of(0));
        assertEquals(List.of(1, 3, 5), q.of(1));
        assertEquals(List.of(2, 4, 5), q.of(2));
    }

    /** MK-1: grid quorums pairwise intersect and contain their node for every N from 1 to 50 (and 100). */
    @Test
    void gridQuorumsIntersect() {
        for (int n = 1; n <= 100; n = n < 50 ? n + 1 : 100) {
            Quorums q = Quorums.grid(n);
            for (int i = 0; i < n; i++) {
                assertTrue(q.of(i).contains(i), "N=" + n + " i=" + i);
                for (int j = 0; j < n; j++) {
                    Set<Integer> common = new HashSet<>(q.of(i));
                    common.retainAll(q.of(j));
                    assertFalse(common.isEmpty(), "N=" + n + " S" + i + " and S" + j);
                }
            }
            if (n == 100) {
                break;
            }
        }
    }

    /** Square grids: K = 2 sqrt(N) - 1 for every node, each node in exactly K sets: 3, 5, 7, 9, 19 for N = 4, 9, 16, 25, 100. */
    @Test
    void squareGridSizes() {
        Map<Integer, Integer> expected = Map.of(4, 3, 9, 5, 16, 7, 25, 9, 100, 19);
        for (Map.Entry<Integer, Integer> e : expected.entrySet()) {
            Quorums q = Quorums.grid(e.getKey());
            int[] membership = new int[e.getKey()];
            for (int i = 0; i < e.getKey(); i++) {
                assertEquals(e.getValue(), q.of(i).size(), "N=" + e.getKey());
                q.of(i).forEach(v -> membership[v]++);
            }
            for (int count : membership) {
                assertEquals(e.getValue(), count, "N=" + e.getKey());
            }
        }
        assertEquals(List.of(4, 4, 3, 3, 3), java.util.Arrays.stream(Quorums.grid(5).sizes()).boxed().toList());
    }

    /**
     * The default quorums come from the projective plane of order q (q the smallest prime
     * power with q^2+q+1 >= N): for every N from 2 to 200 every two sets intersect, each node is in
     * its own set, and K <= q+1; at N = q^2+q+1 (7, 13, 21, 31, 57, 73, 91, 133, 183) every set has
     * exactly q+1 members, every node is in q+1 sets and two sets meet in exactly one node.
     */
    @Test
    void planeQuorumsIntersectAndStayWithinQPlusOne() {
        for (int n = 2; n <= 200; n++) {
            int q = Quorums.planeOrder(n);
            assertTrue((long) q * q + q + 1 >= n && FiniteField.isPrimePower(q), "N=" + n + " q=" + q);
            for (int smaller = 2; smaller < q; smaller++) {
                assertFalse(FiniteField.isPrimePower(smaller) && smaller * smaller + smaller + 1 >= n, "N=" + n + " q=" + q);
            }
            Quorums quorums = Quorums.forSize(n);
            assertEquals(n, quorums.n());
            boolean exactPlane = q * q + q + 1 == n;
            int[] membership = new int[n];
            for (int i = 0; i < n; i++) {
                List<Integer> si = quorums.of(i);
                assertTrue(si.contains(i), "N=" + n + ": " + i + " not in its own set " + si);
                assertTrue(si.size() <= q + 1, "N=" + n + ": |S" + i + "|=" + si.size() + " > q+1=" + (q + 1));
                si.forEach(v -> membership[v]++);
                if (exactPlane) {
                    assertEquals(q + 1, si.size(), "N=" + n);
                }
                boolean[] inSi = new boolean[n];
                si.forEach(v -> inSi[v] = true);
                for (int j = 0; j < n; j++) {
                    long common = quorums.of(j).stream().filter(v -> inSi[v]).count();
                    assertTrue(common > 0, "N=" + n + " S" + i + " and S" + j);
                    if (exactPlane && i != j) {
                        assertEquals(1, common, "N=" + n + " S" + i + " and S" + j);
                    }
                }
            }
            if (exactPlane) {
                for (int count : membership) {
                    assertEquals(q + 1, count, "N=" + n);
                }
            }
        }
    }

    /** The largest plane quorum at the cluster sizes the simulations use, 7, 9, 13, 16, 31, 57 (and 100), against the grid's: 3, 4, 4, 5, 6, 8, 12 instead of 3 (plane), 5, 7, 7, 11, 15, 19. */
    @Test
    void planeQuorumSizesAtIssueSizes() {
        Map<Integer, Integer> maxK = Map.of(7, 3, 9, 4, 13, 4, 16, 5, 31, 6, 57, 8, 100, 12);
        for (Map.Entry<Integer, Integer> e : maxK.entrySet()) {
            int n = e.getKey();
            assertEquals(e.getValue(), java.util.Arrays.stream(Quorums.forSize(n).sizes()).max().orElseThrow(), "N=" + n);
        }
        assertEquals(5, java.util.Arrays.stream(Quorums.grid(9).sizes()).max().orElseThrow());
        assertEquals(19, java.util.Arrays.stream(Quorums.grid(100).sizes()).max().orElseThrow());
    }

    /** GF(q) for the prime powers the plane needs up to N = 200 (2..16): the field axioms hold on every element. */
    @Test
    void finiteFieldsAreFields() {
        for (int q : new int[] {2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 25, 27}) {
            FiniteField f = FiniteField.of(q);
            for (int a = 0; a < q; a++) {
                assertEquals(a, f.add(a, 0));
                assertEquals(a, f.mul(a, 1));
                assertEquals(0, f.add(a, f.neg(a)));
                if (a != 0) {
                    assertEquals(1, f.mul(a, f.inv(a)), "GF(" + q + ") " + a);
                }
                for (int b = 0; b < q; b++) {
                    assertEquals(f.mul(a, b), f.mul(b, a));
                    for (int c = 0; c < q; c += 3) {
                        assertEquals(f.mul(a, f.add(b, c)), f.add(f.mul(a, b), f.mul(a, c)), "GF(" + q + ")");
                        assertEquals(f.mul(a, f.mul(b, c)), f.mul(f.mul(a, b), c), "GF(" + q + ")");
                    }
                }
            }
        }
        assertFalse(FiniteField.isPrimePower(6));
        assertFalse(FiniteField.isPrimePower(12));
        assertTrue(FiniteField.isPrimePower(16));
    }

    /** Option quorum: plane (default) or grid; anything else is refused with the allowed values. */
    @Test
    void quorumOptionChoosesTheConstruction() {
        assertEquals(8.0, MaekawaDefinition.uncontended(9), 1e-9); // sizes 3, 4, 4, 4, 4, 4, 3, 4, 3
        assertEquals(12.0, MaekawaDefinition.uncontended(9, ProtocolOptions.NONE.with(MaekawaDefinition.QUORUM, "grid")), 1e-9);
        IllegalArgumentException bad = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> DEFINITION.validateOptions(ProtocolOptions.NONE.with(MaekawaDefinition.QUORUM, "torus")));
        assertTrue(bad.getMessage().contains("plane, grid"), bad.getMessage());
    }

    /**
     * MK-2: a single uncontended request costs exactly 3(K-1), both versions: 6 (N=7 plane), 9 (N=13,
     * K=4), with grid quorums 12 (3x3 grid) and 18 (4x4 grid); at N=9 (plane of order 3, four points
     * unused) 3(|S_i|-1) for each node's own set size.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void uncontendedEntryCosts3KMinus1(boolean basic) {
        Map<String, Integer> expected = Map.of("7 plane", 6, "9 plane", -1, "13 plane", 9, "9 grid", 12, "16 grid", 18);
        for (Map.Entry<String, Integer> e : expected.entrySet()) {
            int size = Integer.parseInt(e.getKey().split(" ")[0]);
            String kind = e.getKey().split(" ")[1];
            for (int node = 0; node < size; node++) {
                Cluster<MaekawaMessage> c = new Cluster<>(DEFINITION, size, ProtocolOptions.NONE
                        .with(MaekawaDefinition.BASIC, String.valueOf(basic)).with(MaekawaDefinition.QUORUM, kind));
                c.request(node);
                drain(c);
                assertEquals(List.of(NodeId.of(node)), c.entries());
                int cost = e.getValue() >= 0 ? e.getValue() : 3 * (Quorums.forSize(size).of(node).size() - 1);
                assertEquals(cost, c.messagesSent(), "N=" + e.getKey() + " node " + node);
                assertEquals(List.of(), c.violations());
            }
        }
    }

    /** Plays docs/algorithms.md MK-3's schedule (notes S4's deadlock example) on the N = 7 plane. */
    private static Cluster<MaekawaMessage> seedDeadlockSchedule(boolean basic) {
        Cluster<MaekawaMessage> c = cluster(7, basic);
        c.request(0);                            // arbiter 0 locks for 0 (locally)
        c.request(1);                            // arbiter 1 locks for 1 (locally)
        c.deliver(0, 2, Request.class);          // arbiter 2 locks for 0
        c.request(2);                            // arbiter 2 is locked: 2 queued at its own arbiter
        c.deliver(2, 5, Request.class);          // arbiter 5 locks for 2
        c.deliver(1, 5, Request.class);          // queued at arbiter 5
        c.deliver(0, 1, Request.class);          // queued at arbiter 1
        c.deliver(1, 3, Request.class);          // arbiter 3 locks for 1
        c.deliver(2, 4, Request.class);          // arbiter 4 locks for 2
        return c;
    }

    /** MK-3: the basic version deadlocks on the source notes' schedule: 0 waits for 1, 1 for 2, 2 for 0, nothing in flight. */
    @Test
    void basicVersionDeadlocksOnTheSeedSchedule() {
        Cluster<MaekawaMessage> c = seedDeadlockSchedule(true);
        c.deliverAll(); // the LOCKED messages
        assertTrue(c.inFlight().isEmpty());
        assertEquals(List.of(), c.entries());
        for (int node = 0; node <= 2; node++) {
            assertTrue(c.waiting(node), "node " + node + " should wait forever");
        }
        assertEquals(4, c.messagesSent(Locked.class)); // 2->0, 3->1, 5->2, 4->2: each holds 2 of 3
        assertTrue(c.protocol(0).toString().contains("locks=[n0, n2]"), c.protocol(0).toString());
        assertTrue(c.protocol(1).toString().contains("locks=[n1, n3]"), c.protocol(1).toString());
        assertTrue(c.protocol(2).toString().contains("locks=[n4, n5]"), c.protocol(2).toString());
        assertEquals(List.of(), c.violations());
    }

    /** MK-4: the deadlock-free version on the same schedule grants all three, one at a time. */
    @Test
    void deadlockFreeVersionGrantsAllThreeOnTheSeedSchedule() {
        Cluster<MaekawaMessage> c = seedDeadlockSchedule(false);
        drain(c);
        assertEquals(Set.of(NodeId.of(0), NodeId.of(1), NodeId.of(2)), Set.copyOf(c.entries()));
        assertEquals(3, c.entries().size());
        assertTrue(c.inFlight().isEmpty());
        assertEquals(List.of(), c.violations());
    }

    /** MK-5/MK-6: random FIFO schedules with contention: no deadlock, ME1, and every arbiter's queue notified after every event. */
    @Test
    void randomFifoSchedulesKeepTheArbiterInvariant() {
        for (int n : new int[] {3, 4, 5, 7, 9}) {
            for (long seed = 0; seed < 200; seed++) {
                Cluster<MaekawaMessage> c = cluster(n, false);
                Random random = new Random(seed);
                Map<NodeId, Integer> budget = new TreeMap<>();
                for (NodeId node : c.members()) {
                    budget.put(node, 3);
                }
                while (c.randomStep(random, budget, true, 0)) {
                    for (NodeId node : c.members()) {
                        assertTrue(((Maekawa) c.protocol(node.value())).arbiterInvariantHolds(),
                                "MK-6 n=" + n + " seed=" + seed + " " + c.protocol(node.value()));
                    }
                }
                c.checkNobodyWaits();
                assertEquals(List.of(), c.violations(), "n=" + n + " seed=" + seed);
                assertEquals(3 * n, c.entries().size());
            }
        }
    }

    /**
     * MK-5: Maekawa's published deadlock-free rules, without docs/algorithms.md's displacement rule
     * (test-only variant), deadlock on some random FIFO schedules, at the N = 7 plane and with 3x3
     * grid quorums, and never violate ME1; the same schedules never deadlock with the rule
     * ({@link #randomFifoSchedulesKeepTheArbiterInvariant}).
     */
    @Test
    void publishedRulesWithoutTheDisplacementRuleDeadlock() {
        for (String quorum : List.of(MaekawaDefinition.PLANE, MaekawaDefinition.GRID)) {
            int n = quorum.equals(MaekawaDefinition.PLANE) ? 7 : 9;
            ProtocolOptions options = ProtocolOptions.NONE.with(MaekawaDefinition.QUORUM, quorum);
            Quorums.Kind kind = quorum.equals(MaekawaDefinition.PLANE) ? Quorums.Kind.PLANE : Quorums.Kind.GRID;
            io.dlock.protocol.MutexProtocolDefinition<MaekawaMessage> published = io.dlock.mutex.testing.VariantDefinition.of(
                    DEFINITION, "maekawa-published", context -> new Maekawa(context, true, kind, false));
            int deadlocks = 0;
            int runs = 1000;
            for (long seed = 0; seed < runs; seed++) {
                Cluster<MaekawaMessage> c = new Cluster<>(published, n, options);
                Random random = new Random(seed);
                Map<NodeId, Integer> budget = new TreeMap<>();
                for (NodeId node : c.members()) {
                    budget.put(node, 3);
                }
                while (c.randomStep(random, budget, true, 0)) {
                    // until nothing can happen
                }
                assertTrue(c.violations().isEmpty(), "ME1 holds without the rule too: " + c.violations());
                deadlocks += c.members().stream().anyMatch(node -> c.waiting(node.value())) ? 1 : 0;
            }
            System.out.println("maekawa published rules, " + quorum + " N=" + n + ": " + deadlocks + " of " + runs
                    + " random FIFO runs deadlocked");
            assertTrue(deadlocks > 0, "no deadlock without the displacement rule, " + quorum);
        }
    }

    /** MK-5: the basic version deadlocks on some random FIFO schedules (here: found within 200 seeds at N = 7). */
    @Test
    void basicVersionDeadlocksOnRandomSchedules() {
        int deadlocks = 0;
        for (long seed = 0; seed < 200; seed++) {
            Cluster<MaekawaMessage> c = cluster(7, true);
            Random random = new Random(seed);
            Map<NodeId, Integer> budget = new TreeMap<>();
            for (NodeId node : c.members()) {
                budget.put(node, 3);
            }
            while (c.randomStep(random, budget, true, 0)) {
                // run until nothing can happen
            }
            assertTrue(c.violations().isEmpty(), "the basic version is still safe: " + c.violations());
            for (NodeId node : c.members()) {
                if (c.waiting(node.value())) {
                    deadlocks++;
                    break;
                }
            }
        }
        assertTrue(deadlocks > 0, "no deadlock in 200 seeds");
    }

    /** A view change while a node holds: the holder keeps the lock (nobody else enters) and every waiter is served after it leaves. */
    @Test
    void viewChangeKeepsTheHolder() {
        Cluster<MaekawaMessage> c = cluster(4, false);
        c.request(1);
        c.deliverAll();
        assertTrue(c.inCS(1));
        c.request(0);
        c.request(3);
        c.deliverAll();
        c.changeView(c.nextView(0, 1, 2, 3, 7)); // a fifth member joins; quorums change
        c.deliverAll();
        assertTrue(c.inCS(1));
        assertFalse(c.inCS(0) || c.inCS(3));
        drain(c);
        assertEquals(NodeId.of(1), c.entries().get(0));
        assertEquals(Set.of(NodeId.of(0), NodeId.of(1), NodeId.of(3)), Set.copyOf(c.entries()));
        assertEquals(List.of(), c.violations());
        List<Long> fences = new ArrayList<>(c.fences());
        assertTrue(fences.get(1) > 2L << 32, "the new epoch's tokens are above its floor: " + fences);
    }

    /** The codec round-trips every message type. */
    @Test
    void codecRoundTrip() {
        MaekawaCodec codec = new MaekawaCodec();
        for (MaekawaMessage m : List.of(new Request(5), new Locked(5, 2, 9), new Release(5, 10),
                new MaekawaMessage.Failed(3), new MaekawaMessage.Inquire(3, 4), new MaekawaMessage.Relinquish(3, 4),
                new MaekawaMessage.State(7, io.dlock.mutex.common.PeerState.HOLDING, 12))) {
            assertEquals(m, codec.fromBytes(codec.toBytes(m)));
        }
    }
}
