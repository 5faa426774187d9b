package io.dlock.inmemory;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.ElectionAlgorithm;
import io.dlock.LeaderElection;
import io.dlock.MutexAlgorithm;
import io.dlock.contract.PartitionContract;
import io.dlock.NodeId;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The majority rule on the real-time in-memory network (only a view with a majority of the previous one grants): a
 * 5-node cluster split 3|2 by {@link InMemoryNetwork#split}, each side with its own view. Only the majority side
 * grants, a holder cut off on the minority side is fenced out, and after the heal every node locks again with
 * increasing fences: {@link PartitionContract}, shared with the JGroups transport's {@code JGroupsPartitionTest},
 * for every algorithm. Elections: the minority has no leader. A tie grants nowhere.
 */
@Timeout(60)
class PartitionTest extends PartitionContract<InMemoryCluster> {

    @Override
    protected InMemoryCluster start(int n, MutexAlgorithm algorithm) {
        return new InMemoryCluster(n, algorithm);
    }

    /** The in-memory nodes' ids are their indexes. */
    @Override
    protected void split(InMemoryCluster cluster, List<Integer> majority, List<Integer> minority) {
        InMemoryNetwork.shared().split(cluster.node(0).config().cluster(), List.of(ids(majority), ids(minority)));
    }

    @Override
    protected void heal(InMemoryCluster cluster) {
        InMemoryNetwork.shared().heal(cluster.node(0).config().cluster());
    }

    private static List<NodeId> ids(List<Integer> indexes) {
        return indexes.stream().map(NodeId::of).toList();
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
                List<LeaderElection> groups = cluster.nodes.stream().map(s -> s.election("g")).toList();
                for (LeaderElection g : groups) {
                    assertEquals(Optional.of(NodeId.of(4)), g.awaitLeader(Duration.ofSeconds(10)), election + " " + g);
                }
                split(cluster, MAJORITY, MINORITY);
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
                heal(cluster);
                awaitViewSizes(cluster, 5, 5);
                for (LeaderElection g : groups) {
                    // the majority side reports its leader n2 until the merged view's election reports n4
                    await().atMost(Duration.ofSeconds(10)).alias(election + " " + g)
                            .until(() -> g.leader().equals(Optional.of(NodeId.of(4))));
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
