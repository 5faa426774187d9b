package io.dlock.inmemory;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.ElectionAlgorithm;
import io.dlock.LeaderChange;
import io.dlock.LeaderElection;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.NodeId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Leader election through the public API on the real-time in-memory network, for every election
 * algorithm: agreement on the highest id, listeners told once per change, re-election when the
 * leader leaves, and {@link LeaderElection#start()}.
 */
@Timeout(60)
class LeaderElectionTest {

    private static final String GROUP = "scheduler";

    static Stream<ElectionAlgorithm> messagePassing() {
        return ElectionAlgorithm.messagePassing().stream();
    }

    private static InMemoryCluster cluster(int n, ElectionAlgorithm algorithm) {
        return new InMemoryCluster(n, DlockConfig.builder().mutex(MutexAlgorithm.CENTRALIZED).election(algorithm));
    }

    private static void awaitAgreement(List<LeaderElection> elections, NodeId expected) {
        await().atMost(Duration.ofSeconds(20)).until(() -> elections.stream()
                .allMatch(e -> e.leader().equals(Optional.of(expected))));
    }

    /** Five nodes agree on the highest id; when it stops, every other node's listener is called exactly once, with the new leader. */
    @ParameterizedTest
    @MethodSource("messagePassing")
    void leaderStops_everyOtherListenerToldOnce(ElectionAlgorithm algorithm) {
        try (InMemoryCluster cluster = cluster(5, algorithm)) {
            List<LeaderElection> elections = new ArrayList<>();
            for (LockService node : cluster.nodes) {
                elections.add(node.election(GROUP));
            }
            awaitAgreement(elections, NodeId.of(4));
            assertTrue(elections.get(4).isLeader());
            List<List<LeaderChange>> heard = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                List<LeaderChange> changes = new CopyOnWriteArrayList<>();
                heard.add(changes);
                elections.get(i).addListener(changes::add);
                elections.get(i).addListener(c -> {
                    throw new IllegalStateException("a throwing listener must not stop the others");
                });
            }
            // A listener added while a leader is known is told at once.
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.stream().allMatch(h -> h.size() == 1));
            heard.forEach(h -> assertEquals(NodeId.of(4), h.get(0).leader()));

            cluster.node(4).close();
            await().atMost(Duration.ofSeconds(20)).until(() -> heard.stream().allMatch(h -> h.size() >= 2));
            // Nothing more arrives: each node is told once.
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
                    .until(() -> heard.stream().allMatch(h -> h.size() == 2));
            for (int i = 0; i < 4; i++) {
                LeaderChange change = heard.get(i).get(1);
                assertEquals(NodeId.of(3), change.leader(), "node " + i);
                assertEquals(Optional.of(NodeId.of(4)), change.previous(), "node " + i);
                assertTrue(change.epoch() > heard.get(i).get(0).epoch(), "node " + i);
                assertEquals(i == 3, change.isSelf(), "node " + i);
                assertEquals(Optional.of(NodeId.of(3)), elections.get(i).leader());
                // The ring election shows the members its COORDINATOR carried; the others collect none.
                List<NodeId> members = algorithm == ElectionAlgorithm.RING
                        ? List.of(NodeId.of(0), NodeId.of(1), NodeId.of(2), NodeId.of(3)) : List.of();
                assertEquals(members, change.members(), "node " + i);
                assertEquals(algorithm == ElectionAlgorithm.RING ? 5 : 0, heard.get(i).get(0).members().size(), "node " + i);
            }
        }
    }

    /** start() runs a new election; the leader stays the highest id and no listener hears a change. */
    @ParameterizedTest
    @MethodSource("messagePassing")
    void start_reelectsTheSameLeader(ElectionAlgorithm algorithm) throws Exception {
        try (InMemoryCluster cluster = cluster(3, algorithm)) {
            List<LeaderElection> elections = new ArrayList<>();
            for (LockService node : cluster.nodes) {
                elections.add(node.election(GROUP));
            }
            awaitAgreement(elections, NodeId.of(2));
            List<LeaderChange> changes = new CopyOnWriteArrayList<>();
            elections.get(1).addListener(changes::add);
            await().atMost(Duration.ofSeconds(5)).until(() -> changes.size() == 1);
            elections.get(0).start();
            elections.get(1).start();
            assertEquals(Optional.of(NodeId.of(2)), elections.get(0).awaitLeader(Duration.ofSeconds(20)));
            awaitAgreement(elections, NodeId.of(2));
            assertEquals(1, changes.size());
        }
    }

    /** A node that never asked for the group still relays and learns; asking later gives the leader at once. */
    @ParameterizedTest
    @EnumSource(value = ElectionAlgorithm.class, names = {"RING", "CHANG_ROBERTS", "PETERSON"})
    void lateMember_learnsTheLeader(ElectionAlgorithm algorithm) throws Exception {
        try (InMemoryCluster cluster = cluster(4, algorithm)) {
            LeaderElection first = cluster.node(0).election(GROUP);
            assertEquals(Optional.of(NodeId.of(3)), first.awaitLeader(Duration.ofSeconds(20)));
            LeaderElection late = cluster.node(1).election(GROUP);
            assertEquals(Optional.of(NodeId.of(3)), late.awaitLeader(Duration.ofSeconds(20)));
            assertFalse(late.isLeader());
        }
    }

    /** A lone node elects itself; a higher id joining takes over (every algorithm elects the highest live id). */
    @ParameterizedTest
    @MethodSource("messagePassing")
    void higherNodeJoins_takesOver(ElectionAlgorithm algorithm) {
        String name = "join-" + UUID.randomUUID();
        DlockConfig.Builder template = DlockConfig.builder().election(algorithm).cluster(name);
        try (LockService a = LockService.start(template.nodeId(1).build())) {
            LeaderElection ea = a.election(GROUP);
            awaitAgreement(List.of(ea), NodeId.of(1));
            try (LockService b = LockService.start(template.nodeId(2).build())) {
                LeaderElection eb = b.election(GROUP);
                awaitAgreement(List.of(ea, eb), NodeId.of(2));
                try (LockService c = LockService.start(template.nodeId(7).build())) {
                    LeaderElection ec = c.election(GROUP);
                    awaitAgreement(List.of(ea, eb, ec), NodeId.of(7));
                }
            }
        }
    }

    /** The centralized lock's coordinator group elects the highest id, follows a leader that stops, and the lock keeps working. */
    @ParameterizedTest
    @MethodSource("messagePassing")
    void centralizedCoordinator_followsTheElection(ElectionAlgorithm algorithm) throws Exception {
        try (InMemoryCluster cluster = cluster(3, algorithm)) {
            List<LeaderElection> coordinators = new ArrayList<>();
            for (LockService node : cluster.nodes) {
                coordinators.add(node.election(LockService.COORDINATOR_GROUP));
            }
            awaitAgreement(coordinators, NodeId.of(2));
            DistributedLock lock = cluster.node(0).lock("orders");
            assertTrue(lock.tryLock(10, TimeUnit.SECONDS));
            lock.unlock();
            cluster.node(2).close();
            awaitAgreement(coordinators.subList(0, 2), NodeId.of(1));
            assertTrue(lock.tryLock(10, TimeUnit.SECONDS));
            lock.unlock();
        }
    }
}
