package io.dlock.inmemory;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.ElectionAlgorithm;
import io.dlock.LeaderElection;
import io.dlock.LockOwnershipLostException;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.spi.NodeId;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The majority rule on the real-time in-memory network (only a view with a majority of the previous one grants): a 5-node cluster split 3|2 by
 * {@link InMemoryNetwork#split}, each side with its own view of the same epoch. Only the majority
 * side grants; the minority's {@code tryLock} times out; a holder cut off on the minority side is
 * fenced out (the majority grants with a higher fence); after the heal every node locks again with
 * increasing fences. Elections: the minority has no leader.
 */
@Timeout(60)
class PartitionTest {

    private static final List<NodeId> MAJORITY = List.of(NodeId.of(0), NodeId.of(1), NodeId.of(2));
    private static final List<NodeId> MINORITY = List.of(NodeId.of(3), NodeId.of(4));

    private static void awaitViewSizes(InMemoryCluster cluster, int majority, int minority) {
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            for (int i = 0; i < 5; i++) {
                if (cluster.node(i).view().size() != (i < 3 ? majority : minority)) {
                    return false;
                }
            }
            return true;
        });
    }

    /**
     * Only the majority side grants while split (a minority holder is fenced out, and the minority's
     * tryLock times out); after the heal every node can lock again and fences keep increasing.
     */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void onlyMajoritySideGrants(MutexAlgorithm algorithm) throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(5, algorithm)) {
            String name = cluster.node(0).config().cluster();
            List<DistributedLock> locks = cluster.nodes.stream().map(s -> s.lock("partitioned")).toList();
            // node 4 holds the lock when the network splits
            assertTrue(locks.get(4).tryLock(10, TimeUnit.SECONDS), "node 4 not granted before the split");
            long before = locks.get(4).fencingToken();
            InMemoryNetwork.shared().split(name, List.of(MAJORITY, MINORITY));
            awaitViewSizes(cluster, 3, 2);

            assertFalse(locks.get(3).tryLock(300, TimeUnit.MILLISECONDS), "the minority side granted");
            assertTrue(locks.get(0).tryLock(10, TimeUnit.SECONDS), "the majority side did not grant");
            long majorityFence = locks.get(0).fencingToken();
            assertTrue(majorityFence > before, "majority fence " + majorityFence + " not above " + before);
            locks.get(0).unlock();
            // the fenced-out holder leaves its critical section late, and is told its hold was lost
            assertThrows(LockOwnershipLostException.class, () -> locks.get(4).unlock());

            InMemoryNetwork.shared().heal(name);
            awaitViewSizes(cluster, 5, 5);
            long last = majorityFence;
            for (int i = 0; i < 5; i++) {
                DistributedLock lock = locks.get(i);
                assertTrue(lock.tryLock(10, TimeUnit.SECONDS), "node " + i + " not granted after the heal");
                try {
                    assertTrue(lock.fencingToken() > last, "fence " + lock.fencingToken() + " not above " + last);
                    last = lock.fencingToken();
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /**
     * A minority side has no leader and elects none; the majority side has one (its highest id); after the
     * heal all agree on the highest id. Every election algorithm.
     */
    @ParameterizedTest
    @EnumSource(ElectionAlgorithm.class)
    void minorityHasNoLeader(ElectionAlgorithm election) throws Exception {
        {
            try (InMemoryCluster cluster = new InMemoryCluster(5,
                    DlockConfig.builder().mutex(MutexAlgorithm.RICART_AGRAWALA).election(election))) {
                String name = cluster.node(0).config().cluster();
                List<LeaderElection> groups = cluster.nodes.stream().map(s -> s.election("g")).toList();
                for (LeaderElection g : groups) {
                    assertEquals(Optional.of(NodeId.of(4)), g.awaitLeader(Duration.ofSeconds(10)), election + " " + g);
                }
                InMemoryNetwork.shared().split(name, List.of(MAJORITY, MINORITY));
                awaitViewSizes(cluster, 3, 2);
                for (int i = 0; i < 3; i++) {
                    assertEquals(Optional.of(NodeId.of(2)), groups.get(i).awaitLeader(Duration.ofSeconds(10)),
                            election + ": majority node " + i);
                }
                for (int i = 3; i < 5; i++) {
                    LeaderElection g = groups.get(i);
                    g.start(); // asking does not help a minority
                    assertEquals(Optional.empty(), g.awaitLeader(Duration.ofMillis(300)), election + ": minority node " + i);
                    assertFalse(g.isLeader());
                }
                InMemoryNetwork.shared().heal(name);
                awaitViewSizes(cluster, 5, 5);
                for (LeaderElection g : groups) {
                    assertEquals(Optional.of(NodeId.of(4)), g.awaitLeader(Duration.ofSeconds(10)), election + " " + g);
                }
            }
        }
    }

    /** A tie (4 nodes split 2|2): neither side is primary, neither grants; the heal brings the lock back. */
    @Test
    void tieGrantsNowhere() throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(4, MutexAlgorithm.SUZUKI_KASAMI)) {
            String name = cluster.node(0).config().cluster();
            List<DistributedLock> locks = cluster.nodes.stream().map(s -> s.lock("tie")).toList();
            InMemoryNetwork.shared().split(name, List.of(List.of(NodeId.of(0), NodeId.of(1))));
            await().atMost(Duration.ofSeconds(10)).until(() -> cluster.nodes.stream().allMatch(s -> s.view().size() == 2));
            for (DistributedLock lock : locks) {
                assertFalse(lock.tryLock(200, TimeUnit.MILLISECONDS), "a side of a tie granted");
            }
            InMemoryNetwork.shared().heal(name);
            await().atMost(Duration.ofSeconds(10)).until(() -> cluster.nodes.stream().allMatch(s -> s.view().size() == 4));
            for (DistributedLock lock : locks) {
                assertTrue(lock.tryLock(10, TimeUnit.SECONDS), "not granted after the heal");
                lock.unlock();
            }
        }
    }
}
