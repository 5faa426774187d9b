package io.dlock.jgroups;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.LockMetrics;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.runtime.Envelope;
import io.dlock.NodeId;
import io.dlock.spi.WireWriter;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bad input on the JGroups receive path: random and truncated payloads, a message for a lock nobody used,
 * for an unknown algorithm, of an old epoch, and from a JGroups member that is not a dlock node. Each is
 * dropped and counted, and the cluster keeps working.
 */
@Timeout(60)
class BadInputTest {

    private static byte[] envelope(String algorithm, String lock, long epoch, byte[] payload) {
        WireWriter out = new WireWriter(64);
        new Envelope(Envelope.KIND_MUTEX, algorithm, lock, epoch).writeTo(out);
        byte[] head = out.toByteArray();
        byte[] all = Arrays.copyOf(head, head.length + payload.length);
        System.arraycopy(payload, 0, all, head.length, payload.length);
        return all;
    }

    /** A bundle of lock {@code lock} that says it carries {@code count} messages and carries {@code parts}. */
    private static byte[] bundle(String lock, int count, byte[]... parts) {
        WireWriter out = new WireWriter(64);
        new Envelope(Envelope.KIND_BUNDLE, "centralized", lock, 0).writeTo(out);
        out.writeVarLong(count);
        for (byte[] part : parts) {
            out.writeVarLong(part.length).writeBytes(part);
        }
        return out.toByteArray();
    }

    /** Every kind of bad input is dropped and counted on the receiver, which goes on granting the lock. */
    @Test
    void badPayloads_areDroppedCountedAndHarmless() throws Exception {
        try (JGroupsCluster cluster = JGroupsCluster.loopback(3, MutexAlgorithm.CENTRALIZED)) {
            LockService victim = cluster.node(0);
            JGroupsTransport attacker = cluster.transports.get(1);
            NodeId to = victim.nodeId();
            DistributedLock lock = victim.lock("counter");
            lock.lock();
            lock.unlock();
            LockMetrics before = victim.metrics();
            long epoch = victim.view().epoch();

            Random random = new Random(42);
            int randomCount = 50;
            for (int i = 0; i < randomCount; i++) {
                byte[] junk = new byte[random.nextInt(64)];
                random.nextBytes(junk);
                if (junk.length > 1 && i % 2 == 0) {
                    junk[0] = (byte) Envelope.MAGIC; // half of them get past the magic byte
                    junk[1] = (byte) Envelope.VERSION;
                }
                attacker.send(to, junk);
            }
            // truncations of a valid header for a known lock: every prefix is malformed
            byte[] valid = envelope("centralized", "counter", epoch, new byte[0]);
            for (int len = 0; len < valid.length; len++) {
                attacker.send(to, Arrays.copyOf(valid, len));
            }
            int truncated = valid.length;
            attacker.send(to, envelope("no-such-algorithm", "counter", epoch, new byte[] {1, 2, 3}));
            attacker.send(to, envelope("centralized", "never-used", epoch, new byte[] {(byte) 0xEE, 1}));
            attacker.send(to, envelope("centralized", "counter", epoch, new byte[] {(byte) 0x7F, 0x7F, 0x7F}));
            attacker.send(to, envelope("centralized", "counter", 0, new byte[] {1}));
            // bundles: one that carries fewer messages than it says, one with a message of another lock (each
            // dropped whole, counted once), and a well-formed one whose two messages are of an old epoch (each
            // of them is handled, and dropped as stale)
            byte[] old = envelope("centralized", "counter", 0, new byte[] {1});
            attacker.send(to, bundle("counter", 3, old, old));
            attacker.send(to, bundle("counter", 2, old, envelope("centralized", "never-used", epoch, new byte[] {1})));
            attacker.send(to, bundle("counter", 2, old, old));
            long expectedMalformed = randomCount + truncated + 5; // + unknown algorithm, unknown lock, bad payload, 2 bundles
            await().atMost(Duration.ofSeconds(10)).until(
                    () -> victim.metrics().malformedDropped() - before.malformedDropped() == expectedMalformed
                            && victim.metrics().staleDropped() - before.staleDropped() == 3);

            // a JGroups channel that is not a dlock node joins the cluster and sends to the victim
            String xml = JGroupsTransportFactory.substitute(JGroupsTransportFactory.readStack("loopback"), Map.of());
            try (JChannel foreign = new JChannel(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)))) {
                foreign.connect(cluster.name);
                await().atMost(Duration.ofSeconds(10)).until(() -> foreign.getView().size() == 4);
                org.jgroups.Address victimAddress = cluster.transports.get(0).channel().getAddress();
                for (int i = 0; i < 5; i++) {
                    foreign.send(new BytesMessage(victimAddress, new byte[] {(byte) Envelope.MAGIC, 1, 1}));
                }
                await().atMost(Duration.ofSeconds(10)).until(() -> cluster.transports.get(0).unknownSenders() == 5);
                assertEquals(3, victim.view().size(), "a non-dlock member is not part of the dlock view");
            }

            // the node keeps working, with the other nodes
            for (LockService node : cluster.nodes) {
                DistributedLock l = node.lock("counter");
                assertTrue(l.tryLock(10, TimeUnit.SECONDS));
                l.unlock();
            }
            assertEquals(expectedMalformed, victim.metrics().malformedDropped() - before.malformedDropped());
        }
    }
}
