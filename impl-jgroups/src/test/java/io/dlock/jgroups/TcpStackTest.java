package io.dlock.jgroups;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.DlockConfigException;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.NodeId;
import io.dlock.spi.TransportException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The default TCP stack on 127.0.0.1 through the public API: start by configuration, ids, clean leave. */
@Timeout(90)
class TcpStackTest {

    /** LockService.start with dlock.transport=jgroups joins the cluster; close() leaves it and the others go on. */
    @Test
    void startByConfiguration_lockAndLeaveCleanly() throws Exception {
        DlockConfig.Builder template = JGroupsCluster.tcpTemplate(JGroupsCluster.base(MutexAlgorithm.RICART_AGRAWALA), 3)
                .cluster("tcp-" + UUID.randomUUID());
        List<LockService> nodes = new ArrayList<>();
        try {
            for (int i = 1; i <= 3; i++) {
                nodes.add(LockService.start(template.nodeId(10 * i).build()));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> nodes.stream().allMatch(n -> n.view().size() == 3));
            assertEquals(List.of(NodeId.of(10), NodeId.of(20), NodeId.of(30)), nodes.get(0).view().members());
            DistributedLock a = nodes.get(0).lock("l");
            a.lock();
            assertFalse(nodes.get(1).lock("l").tryLock(100, TimeUnit.MILLISECONDS));
            a.unlock();
            long epoch = nodes.get(1).view().epoch();
            nodes.get(0).close();
            await().atMost(Duration.ofSeconds(10)).until(() -> nodes.get(1).view().size() == 2
                    && nodes.get(2).view().size() == 2);
            assertTrue(nodes.get(1).view().epoch() > epoch);
            DistributedLock b = nodes.get(1).lock("l");
            assertTrue(b.tryLock(10, TimeUnit.SECONDS));
            b.unlock();
        } finally {
            nodes.forEach(LockService::close);
        }
    }

    /** Without dlock.node.id every member derives an id from its address, and all agree on the view. */
    @Test
    void derivedIds_areTheSameOnEveryMember() throws Exception {
        DlockConfig config = JGroupsCluster.tcpTemplate(JGroupsCluster.base(MutexAlgorithm.CENTRALIZED), 3)
                .cluster("tcp-" + UUID.randomUUID()).build();
        List<LockService> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                nodes.add(LockService.start(config));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> nodes.stream().allMatch(n -> n.view().size() == 3));
            // one view on every node: the same epoch and members (each node's ClusterView also names itself)
            await().atMost(Duration.ofSeconds(10)).until(() -> nodes.stream().map(LockService::view)
                    .map(v -> List.of(v.epoch(), v.members())).distinct().count() == 1);
            for (LockService n : nodes) {
                assertTrue(n.view().contains(n.nodeId()));
            }
        } finally {
            nodes.forEach(LockService::close);
        }
    }

    /**
     * A second live member with the same dlock.node.id waits for the first to leave, then is refused with a message
     * naming the id; the first keeps its view and its locks.
     */
    @Test
    void duplicateId_isRefused() throws Exception {
        DlockConfig.Builder template = JGroupsCluster.tcpTemplate(JGroupsCluster.base(MutexAlgorithm.CENTRALIZED), 3)
                .cluster("tcp-" + UUID.randomUUID());
        try (LockService first = LockService.start(template.nodeId(7).build())) {
            DlockConfig second = template.nodeId(7).set(JGroupsTransportFactory.JOIN_TIMEOUT_MS, "3000").build();
            TransportException e = assertThrows(TransportException.class, () -> LockService.start(second));
            assertTrue(e.getMessage().contains("dlock.node.id=7 is already used"), e.getMessage());
            assertTrue(e.getMessage().contains("waited 3000 ms"), e.getMessage());
            await().atMost(Duration.ofSeconds(10)).until(() -> first.view().size() == 1
                    && first.view().contains(NodeId.of(7)));
            DistributedLock lock = first.lock("after-duplicate");
            assertTrue(lock.tryLock(10, TimeUnit.SECONDS));
            lock.unlock();
        }
    }

    /** Random bytes written straight to a member's TCP port (no JGroups handshake) do not disturb the cluster. */
    @Test
    void garbageOnTheTcpPort_isHarmless() throws Exception {
        try (JGroupsCluster cluster = JGroupsCluster.tcp(2, MutexAlgorithm.CENTRALIZED)) {
            org.jgroups.PhysicalAddress physical = (org.jgroups.PhysicalAddress) cluster.transports.get(0).channel()
                    .down(new org.jgroups.Event(org.jgroups.Event.GET_PHYSICAL_ADDRESS,
                            cluster.transports.get(0).channel().getAddress()));
            org.jgroups.stack.IpAddress ip = (org.jgroups.stack.IpAddress) physical;
            java.util.Random random = new java.util.Random(7);
            for (int i = 0; i < 5; i++) {
                byte[] junk = new byte[1 + random.nextInt(20_000)];
                random.nextBytes(junk);
                if (i == 0) { // JGroups' cookie and version, then an absurd frame length
                    byte[] head = {'b', 'e', 'l', 'a', 5, 5, 0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};
                    System.arraycopy(head, 0, junk, 0, Math.min(head.length, junk.length));
                }
                try (java.net.Socket s = new java.net.Socket(ip.getIpAddress(), ip.getPort())) {
                    s.getOutputStream().write(junk);
                    s.getOutputStream().flush();
                } catch (java.io.IOException e) {
                    // the member closed the connection: fine
                }
            }
            for (LockService node : cluster.nodes) {
                DistributedLock l = node.lock("after-garbage");
                assertTrue(l.tryLock(10, TimeUnit.SECONDS));
                l.unlock();
            }
            assertEquals(2, cluster.node(0).view().size());
        }
    }

    /** Bad JGroups settings fail at configuration time, naming the key and what is allowed. */
    @Test
    void badSettings_areRejected() {
        DlockConfigException port = assertThrows(DlockConfigException.class,
                () -> DlockConfig.builder().set(JGroupsTransportFactory.PORT, "70000").build());
        assertTrue(port.getMessage().contains("dlock.jgroups.port=70000"), port.getMessage());
        DlockConfigException hosts = assertThrows(DlockConfigException.class,
                () -> DlockConfig.builder().set(JGroupsTransportFactory.INITIAL_HOSTS, "a:7800").build());
        assertTrue(hosts.getMessage().contains("host[port]"), hosts.getMessage());
        DlockConfigException stack = assertThrows(DlockConfigException.class, () -> LockService.start(
                JGroupsCluster.base(MutexAlgorithm.CENTRALIZED).set(JGroupsTransportFactory.STACK, "fast").build()));
        assertTrue(stack.getMessage().contains("default, tcp, secure, loopback"), stack.getMessage());
        DlockConfigException tcp = assertThrows(DlockConfigException.class, () -> LockService.start(
                JGroupsCluster.base(MutexAlgorithm.CENTRALIZED).set(JGroupsTransportFactory.STACK, "tcp").build()));
        assertTrue(tcp.getMessage().contains(JGroupsTransportFactory.INITIAL_HOSTS), tcp.getMessage());
    }
}
