package io.dlock.inmemory;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.ClusterView;
import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.DlockConfigException;
import io.dlock.ElectionAlgorithm;
import io.dlock.LeaderChange;
import io.dlock.LeaderElection;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.runtime.Envelope;
import io.dlock.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.TransportException;
import io.dlock.spi.View;
import io.dlock.spi.WireWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** LockService: start-up errors, the view election, and robustness against foreign and malformed messages. */
@Timeout(60)
class LockServiceTest {

    /**
     * view() describes the cluster as this node sees it: the members, one epoch for all nodes of one view, this
     * node's id, and primary true in the majority and false in the minority of a 3|2 split (the majority rule).
     */
    @Test
    void viewIsTheMembershipAndVerdictAsThisNodeSeesIt() {
        try (InMemoryCluster cluster = new InMemoryCluster(5, MutexAlgorithm.CENTRALIZED)) {
            List<NodeId> all = List.of(NodeId.of(0), NodeId.of(1), NodeId.of(2), NodeId.of(3), NodeId.of(4));
            await().atMost(Duration.ofSeconds(10)).until(() -> cluster.nodes.stream().map(s -> s.view().epoch())
                    .distinct().count() == 1);
            for (LockService node : cluster.nodes) {
                ClusterView v = node.view();
                assertEquals(all, v.members());
                assertEquals(node.nodeId(), v.self());
                assertTrue(v.primary(), v.toString());
                assertEquals(cluster.node(0).view().epoch(), v.epoch());
            }
            String name = cluster.node(0).config().cluster();
            InMemoryNetwork.shared().split(name, List.of(all.subList(0, 3), all.subList(3, 5)));
            try {
                await().atMost(Duration.ofSeconds(10)).until(() -> cluster.nodes.stream()
                        .allMatch(s -> s.view().size() == (s.nodeId().value() < 3 ? 3 : 2)));
                ClusterView majority = cluster.node(0).view();
                ClusterView minority = cluster.node(4).view();
                assertTrue(majority.primary(), majority.toString());
                assertFalse(minority.primary(), minority.toString());
                assertEquals(all.subList(3, 5), minority.members());
                assertTrue(minority.contains(NodeId.of(4)) && !minority.contains(NodeId.of(0)), minority.toString());
                assertEquals(minority.primary(), cluster.node(4).nodeMetrics().primary());
            } finally {
                InMemoryNetwork.shared().heal(name);
            }
        }
    }

    /** An unknown transport fails at start, naming the key, the value and the transports available. */
    @Test
    void unknownTransport() {
        DlockConfigException e = assertThrows(DlockConfigException.class,
                () -> LockService.start(DlockConfig.builder().transport("carrier-pigeon").build()));
        assertTrue(e.getMessage().contains("dlock.transport=carrier-pigeon") && e.getMessage().contains("inmemory"),
                e.getMessage());
    }

    /** A node id already taken in the cluster fails at start. */
    @Test
    void duplicateNodeId() {
        String cluster = "dup-" + UUID.randomUUID();
        try (LockService a = LockService.start(DlockConfig.builder().cluster(cluster).nodeId(1).build())) {
            TransportException e = assertThrows(TransportException.class,
                    () -> LockService.start(DlockConfig.builder().cluster(cluster).nodeId(1).build()));
            assertTrue(e.getMessage().contains("node id 1"), e.getMessage());
        }
    }

    /** An algorithm that needs FIFO refuses a transport that does not declare it. */
    @Test
    void fifoGuard() {
        Transport nonFifo = new NonFifoTransport();
        DlockConfigException e = assertThrows(DlockConfigException.class,
                () -> LockService.start(DlockConfig.builder().mutex(MutexAlgorithm.LAMPORT).build(), nonFifo));
        assertTrue(e.getMessage().contains("FIFO"), e.getMessage());
    }

    /** The view election: leader = highest id; listeners hear each change once, in epoch order, including a late listener. */
    @Test
    void viewElection() throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(3,
                DlockConfig.builder().mutex(MutexAlgorithm.CENTRALIZED).election(ElectionAlgorithm.VIEW))) {
            LeaderElection e0 = cluster.node(0).election("scheduler");
            assertEquals(Optional.of(NodeId.of(2)), e0.awaitLeader(Duration.ofSeconds(5)));
            assertTrue(cluster.node(2).election("scheduler").isLeader());
            List<LeaderChange> changes = new CopyOnWriteArrayList<>();
            e0.addListener(changes::add);
            e0.addListener(c -> {
                throw new IllegalStateException("a throwing listener must not stop the others");
            });
            await().atMost(Duration.ofSeconds(5)).until(() -> changes.size() == 1);
            assertEquals(NodeId.of(2), changes.get(0).leader());
            cluster.node(2).close();
            await().atMost(Duration.ofSeconds(5)).until(() -> changes.size() == 2);
            LeaderChange second = changes.get(1);
            assertEquals(NodeId.of(1), second.leader());
            assertEquals(Optional.of(NodeId.of(2)), second.previous());
            assertTrue(second.epoch() > changes.get(0).epoch());
            assertTrue(!second.isSelf());
        }
    }

    /** Garbage and messages of another algorithm are dropped and counted; the node keeps working. */
    @Test
    void malformedAndForeignMessagesAreDropped() throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(2, MutexAlgorithm.RICART_AGRAWALA)) {
            InMemoryTransport intruder = InMemoryNetwork.shared().endpoint(
                    cluster.node(0).config().cluster(), 99L, Duration.ZERO);
            intruder.start(new Transport.Receiver() {
                @Override
                public void onMessage(NodeId from, byte[] payload) {
                }

                @Override
                public void onView(View view) {
                }
            });
            try {
                intruder.send(NodeId.of(0), new byte[] {1, 2, 3});
                WireWriter w = new WireWriter();
                new Envelope(Envelope.KIND_MUTEX, "lamport", "x", 1).writeTo(w);
                intruder.send(NodeId.of(0), w.toByteArray());
                WireWriter bad = new WireWriter();
                new Envelope(Envelope.KIND_MUTEX, "ricart-agrawala", "x", 1).writeTo(bad);
                bad.writeByte(250);
                intruder.send(NodeId.of(0), bad.toByteArray());
            } finally {
                intruder.close();
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> cluster.node(0).metrics().malformedDropped() >= 2);
            DistributedLock lock = cluster.node(0).lock("x");
            assertTrue(lock.tryLock(10, TimeUnit.SECONDS));
            lock.unlock();
        }
    }

    /** A lock used by a node that joins later excludes the nodes that were there before. */
    @Test
    void lateJoiner() throws Exception {
        for (MutexAlgorithm algorithm : MutexAlgorithm.values()) {
            try (InMemoryCluster cluster = new InMemoryCluster(2, algorithm)) {
                DistributedLock a = cluster.node(0).lock("late");
                a.lock();
                DlockConfig cfg = cluster.node(0).config().toBuilder().nodeId(5).build();
                try (LockService late = LockService.start(cfg)) {
                    DistributedLock c = late.lock("late");
                    assertTrue(!c.tryLock(300, TimeUnit.MILLISECONDS), algorithm + ": late joiner entered while held");
                    a.unlock();
                    assertTrue(c.tryLock(10, TimeUnit.SECONDS), algorithm + ": late joiner never entered");
                    c.unlock();
                }
            }
        }
    }

    /** A transport that does not declare FIFO; only used to check the FIFO guard. */
    private static final class NonFifoTransport implements Transport {
        @Override
        public void start(Receiver receiver) {
            throw new AssertionError("must not start");
        }

        @Override
        public NodeId self() {
            return NodeId.of(0);
        }

        @Override
        public View view() {
            return View.ofRange(1, 1);
        }

        @Override
        public void send(NodeId to, byte[] payload) {
        }

        @Override
        public boolean fifo() {
            return false;
        }

        @Override
        public void close() {
        }
    }
}
