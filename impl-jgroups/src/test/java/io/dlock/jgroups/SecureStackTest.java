package io.dlock.jgroups;

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
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.jgroups.protocols.SYM_ENCRYPT;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The secure stack: members with the cluster's key form a cluster and lock; a node with another key is kept out. */
@Timeout(120)
class SecureStackTest {

    @TempDir
    Path dir;

    private DlockConfig.Builder secure(Path keystore, int port) {
        return JGroupsCluster.base(MutexAlgorithm.CENTRALIZED)
                .set(JGroupsTransportFactory.STACK, "secure")
                .set(JGroupsTransportFactory.BIND_ADDR, "127.0.0.1")
                .set(JGroupsTransportFactory.PORT, Integer.toString(port))
                .set(JGroupsTransportFactory.PORT_RANGE, "5")
                .set(JGroupsTransportFactory.KEYSTORE, keystore.toString())
                .set(JGroupsTransportFactory.KEYSTORE_PASSWORD, TestKeys.PASSWORD);
    }

    /** A node whose keystore holds another key cannot join the secure cluster, so it gets no lock service at all. */
    @Test
    void wrongKey_cannotJoinNorLock() throws Exception {
        Path good = TestKeys.aesKeystore(dir.resolve("cluster.p12"));
        Path wrong = TestKeys.aesKeystore(dir.resolve("intruder.p12"));
        int port = JGroupsCluster.freshPorts(5);
        try (JGroupsCluster cluster = new JGroupsCluster(2, secure(good, port))) {
            SYM_ENCRYPT enc = cluster.transports.get(0).channel().getProtocolStack().findProtocol(SYM_ENCRYPT.class);
            assertEquals("AES/CBC/PKCS5Padding", enc.symAlgorithm());
            DistributedLock held = cluster.node(0).lock("vault");
            held.lock();
            try {
                DlockConfig intruder = secure(wrong, port).cluster(cluster.name).nodeId(99)
                        .set(JGroupsTransportFactory.JOIN_TIMEOUT_MS, "4000").build();
                TransportException e = assertThrows(TransportException.class, () -> LockService.start(intruder));
                assertTrue(e.getMessage().contains("could not join"), e.getMessage());
                for (LockService member : cluster.nodes) {
                    assertFalse(member.view().contains(NodeId.of(99)), member.view().toString());
                    assertEquals(2, member.view().size());
                }
                REJECT_GUARD guard = cluster.transports.get(0).channel().getProtocolStack().findProtocol(REJECT_GUARD.class);
                long rejected = guard.rejected();
                for (JGroupsTransport t : cluster.transports) {
                    rejected += t.channel().getProtocolStack().<REJECT_GUARD>findProtocol(REJECT_GUARD.class).rejected();
                }
                assertTrue(rejected > 0, "the intruder's messages were not seen and dropped by REJECT_GUARD");
            } finally {
                held.unlock();
            }
            // the cluster is unharmed: the other member takes the lock
            DistributedLock other = cluster.node(1).lock("vault");
            assertTrue(other.tryLock(10, TimeUnit.SECONDS));
            other.unlock();
            // and a node with the right key still joins
            LockService third = cluster.add(secure(good, port).cluster(cluster.name).nodeId(3).build());
            cluster.awaitViewSize(3);
            DistributedLock l3 = third.lock("vault");
            assertTrue(l3.tryLock(10, TimeUnit.SECONDS));
            l3.unlock();
        }
    }

    /** A node on the plain TCP stack (no encryption at all) cannot join the secure cluster either. */
    @Test
    void plainStack_cannotJoinSecureCluster() throws Exception {
        Path good = TestKeys.aesKeystore(dir.resolve("cluster.p12"));
        int port = JGroupsCluster.freshPorts(5);
        try (JGroupsCluster cluster = new JGroupsCluster(1, secure(good, port))) {
            DlockConfig plain = JGroupsCluster.base(MutexAlgorithm.CENTRALIZED).cluster(cluster.name).nodeId(98)
                    .set(JGroupsTransportFactory.STACK, "default").set(JGroupsTransportFactory.PORT, Integer.toString(port))
                    .set(JGroupsTransportFactory.PORT_RANGE, "5").set(JGroupsTransportFactory.JOIN_TIMEOUT_MS, "3000").build();
            assertThrows(TransportException.class, () -> LockService.start(plain));
            assertEquals(1, cluster.node(0).view().size());
            assertTrue(cluster.transports.get(0).channel().getProtocolStack()
                    .<REJECT_GUARD>findProtocol(REJECT_GUARD.class).rejected() > 0);
        }
    }

    /** The secure stack refuses to start without key material, naming the missing keys. */
    @Test
    void secureStack_needsKeystore() {
        DlockConfig config = JGroupsCluster.base(MutexAlgorithm.CENTRALIZED).set(JGroupsTransportFactory.STACK, "secure")
                .cluster("secure-no-key").build();
        DlockConfigException e = assertThrows(DlockConfigException.class, () -> LockService.start(config));
        assertTrue(e.getMessage().contains(JGroupsTransportFactory.KEYSTORE), e.getMessage());
    }
}
