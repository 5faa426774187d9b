package io.dlock.mutex.raymond;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.mutex.raymond.RaymondMessage.Privilege;
import io.dlock.mutex.raymond.RaymondMessage.Request;
import io.dlock.mutex.testing.Cluster;
import io.dlock.mutex.testing.Cluster.Envelope;
import io.dlock.mutex.testing.VariantDefinition;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Raymond's tree algorithm (docs/algorithms.md A8): claims RAY-1 to RAY-4, the tree shape, duplicates and view changes. */
class RaymondTest {

    private static final RaymondDefinition RAYMOND = new RaymondDefinition();

    /** RAY-1: chain, token at 0, only N-1 requests: N-1 REQUEST + N-1 PRIVILEGE; then every HOLDER points toward N-1. */
    @Test
    void chainRequestFromTheFarEnd() {
        for (int n = 2; n <= 9; n++) {
            Cluster<RaymondMessage> c = new Cluster<>(shaped(TreeShape.CHAIN), n);
            c.request(n - 1);
            c.deliverAll();
            assertTrue(c.inCS(n - 1));
            assertEquals(n - 1, c.messagesSent(Request.class));
            assertEquals(n - 1, c.messagesSent(Privilege.class));
            c.release(n - 1);
            // HOLDER pointers now lead to n-1: a request from node k climbs n-1-k edges
            for (int k = 0; k < n - 1; k++) {
                int before = c.messagesSent();
                c.request(k);
                Envelope<RaymondMessage> first = c.inFlight().get(0);
                assertEquals(NodeId.of(k + 1), first.to(), "node " + k + " asks toward n-1");
                c.deliverAll();
                assertTrue(c.inCS(k));
                assertEquals(2 * (n - 1 - k), c.messagesSent() - before, "n=" + n + " k=" + k);
                c.release(k);
                c.request(n - 1); // give the token back to the far end, for the next k
                c.deliverAll();
                c.release(n - 1);
            }
            assertEquals(List.of(), c.violations());
        }
    }

    /** RAY-2: complete binary tree of height h, token at the root, one leaf requests: exactly 2h messages. */
    @Test
    void binaryTreeLeafNeedsTwoH() {
        for (int h = 1; h <= 5; h++) {
            int n = (1 << (h + 1)) - 1;
            for (int leaf = (1 << h) - 1; leaf < n; leaf += 3) {
                Cluster<RaymondMessage> c = new Cluster<>(RAYMOND, n);
                c.request(leaf);
                c.deliverAll();
                assertTrue(c.inCS(leaf));
                assertEquals(2 * h, c.messagesSent(), "h=" + h + " leaf=" + leaf);
            }
        }
    }

    /**
     * RAY-3: on random schedules, at most one REQUEST in flight per directed edge, messages only
     * between neighbours, and at most 2D messages per entry, entry by entry: between two consecutive
     * grants the PRIVILEGE moves along one tree path (at most D hops), and every REQUEST is answered by
     * exactly one PRIVILEGE on the same edge (as many REQUESTs as PRIVILEGEs in the end), so each
     * entry costs its PRIVILEGE hops and as many REQUESTs: at most 2D.
     */
    @Test
    void oneRequestPerEdgeAndTwoDPerEntry() {
        for (int n : new int[] {2, 3, 7, 10, 16}) {
            View view = View.ofRange(1, n);
            int diameter = RaymondDefinition.treeDiameter(n);
            for (long seed = 0; seed < 30; seed++) {
                Cluster<RaymondMessage> c = new Cluster<>(RAYMOND, n);
                Random random = new Random(seed);
                Map<NodeId, Integer> budget = new TreeMap<>();
                for (NodeId m : c.members()) {
                    budget.put(m, 4);
                }
                long privilegesAtLastGrant = 0;
                int grants = 0;
                while (c.randomStep(random, budget, false, 0)) {
                    if (c.entries().size() > grants) {
                        grants = c.entries().size();
                        long privileges = c.messagesSent(Privilege.class);
                        assertTrue(privileges - privilegesAtLastGrant <= diameter, "entry " + grants + " took "
                                + (privileges - privilegesAtLastGrant) + " PRIVILEGE hops > D=" + diameter + ", n=" + n + " seed=" + seed);
                        privilegesAtLastGrant = privileges;
                    }
                    Set<String> edges = new HashSet<>();
                    for (Envelope<RaymondMessage> e : c.inFlight()) {
                        assertTrue(TreeShape.BINARY.adjacent(view, e.from(), e.to()), "not a tree edge: " + e);
                        if (e.message() instanceof Request) {
                            assertTrue(edges.add(e.from() + ">" + e.to()), "two REQUESTs on one edge: " + c.inFlight());
                        }
                    }
                }
                c.checkNobodyWaits();
                assertEquals(List.of(), c.violations(), "n=" + n + " seed=" + seed);
                assertEquals(4 * n, c.entries().size());
                assertEquals(c.messagesSent(Request.class), c.messagesSent(Privilege.class),
                        "every REQUEST answered by one PRIVILEGE, n=" + n + " seed=" + seed);
                assertEquals(c.messagesSent(), c.messagesSent(Request.class) + c.messagesSent(Privilege.class));
            }
        }
    }

    /** RAY-4: star, token idle at the centre; leaf a enters with 2 messages; leaf b, asking while a is in, needs exactly 4. */
    @Test
    void starWorkedExample() {
        Cluster<RaymondMessage> c = new Cluster<>(shaped(TreeShape.STAR), 5);
        long centre = 0;
        long a = 2;
        long b = 4;
        c.request(a);
        c.deliverAll();
        assertTrue(c.inCS(a));
        assertEquals(2, c.messagesSent());
        c.request(b);
        c.deliver(b, centre, Request.class);
        c.deliver(centre, a, Request.class);
        assertTrue(c.inFlight().isEmpty());
        c.release(a);
        c.deliver(a, centre, Privilege.class);
        c.deliver(centre, b, Privilege.class);
        assertTrue(c.inCS(b));
        assertEquals(2 + 4, c.messagesSent());
        assertEquals(List.of(), c.violations());
    }

    /** The tree: heap-ordered complete binary tree, depth floor(log2 N), diameter as computed; paths go through the parent. */
    @Test
    void binaryTreeShape() {
        assertEquals(0, RaymondDefinition.treeDiameter(1));
        assertEquals(1, RaymondDefinition.treeDiameter(2));
        assertEquals(2, RaymondDefinition.treeDiameter(3));
        assertEquals(3, RaymondDefinition.treeDiameter(4));
        assertEquals(4, RaymondDefinition.treeDiameter(7));
        assertEquals(5, RaymondDefinition.treeDiameter(8));
        assertEquals(6, RaymondDefinition.treeDiameter(15));
        assertEquals(15, RaymondDefinition.treeDiameter(256)); // depth 8 on the left, 7 on the right
        assertEquals(8, RaymondDefinition.treeDepth(256));
        View v = View.ofRange(1, 15);
        assertEquals(NodeId.of(1), TreeShape.BINARY.nextHop(v, NodeId.of(0), NodeId.of(9)));
        assertEquals(NodeId.of(4), TreeShape.BINARY.nextHop(v, NodeId.of(1), NodeId.of(9)));
        assertEquals(NodeId.of(1), TreeShape.BINARY.nextHop(v, NodeId.of(4), NodeId.of(5)));
        assertEquals(NodeId.of(2), TreeShape.BINARY.nextHop(v, NodeId.of(5), NodeId.of(3)));
        assertEquals(NodeId.of(5), TreeShape.BINARY.nextHop(v, NodeId.of(5), NodeId.of(5)));
    }

    /** Duplicated REQUESTs and PRIVILEGEs are ignored: random runs with 5% duplicates stay safe and live. */
    @Test
    void duplicatesAreHarmless() {
        for (long seed = 0; seed < 60; seed++) {
            Cluster<RaymondMessage> c = new Cluster<>(RAYMOND, 7);
            c.runWorkload(new Random(seed), Set.copyOf(c.members()), 4, false, 0.05);
            assertEquals(List.of(), c.violations(), "seed " + seed);
            assertEquals(28, c.entries().size());
        }
    }

    /** After a view change every HOLDER points along the new tree to the census's holder; waiters request again and are granted. */
    @Test
    void viewChangeRebuildsTheTree() {
        Cluster<RaymondMessage> c = new Cluster<>(RAYMOND, 7);
        c.request(6);
        c.deliverAll();                    // token at 6 (rank 6: leaf under 2)
        c.request(3);
        c.request(4);                      // requests climbing, lost with the view
        c.changeView(c.nextView(0, 1, 2, 3, 4, 6, 7, 8)); // 5 leaves, 7 and 8 join: ranks shift
        c.deliverAll();
        assertTrue(c.inCS(6), "the holder in the CS keeps the token");
        c.release(6);
        c.deliverAll();
        for (int i = 0; i < 2; i++) {
            long in = c.inCS(3) ? 3 : 4;
            assertTrue(c.inCS(in));
            c.release(in);
            c.deliverAll();
        }
        c.request(8);
        c.deliverAll();
        assertTrue(c.inCS(8));
        assertEquals(List.of(), c.violations());
    }

    /** Created on first use (startsIdle = false), across views: every request granted once, one at a time. */
    @Test
    void lazyCreationAndViewChanges() {
        for (long seed = 0; seed < 60; seed++) {
            Cluster<RaymondMessage> c = Cluster.lazy(RAYMOND, 6, ProtocolOptions.NONE);
            Random random = new Random(seed);
            Map<NodeId, Integer> budget = new TreeMap<>();
            for (NodeId m : c.members()) {
                budget.put(m, 3);
            }
            int views = 0;
            while (c.randomStep(random, budget, false, 0.02)) {
                if (views < 3 && random.nextInt(40) == 0) {
                    views++;
                    c.changeView(c.nextView(0, 1, 2, 3, 4, 5));
                }
            }
            c.checkNobodyWaits();
            assertEquals(List.of(), c.violations(), "seed " + seed);
            assertEquals(18, c.entries().size(), "seed " + seed);
        }
    }

    /** Raymond on another tree shape (the worked claims RAY-1 and RAY-4). */
    private static MutexProtocolDefinition<RaymondMessage> shaped(TreeShape shape) {
        return VariantDefinition.of(RAYMOND, "raymond-" + shape, context -> new Raymond(context, shape));
    }
}
