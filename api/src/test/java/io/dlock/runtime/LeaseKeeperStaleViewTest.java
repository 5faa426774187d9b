package io.dlock.runtime;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.View;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The lease keeper tells the transport that its view looks stale when no other member of a primary view has
 * answered a single probe for {@link LeaseKeeper#SILENT_TICKS_BEFORE_STALE} ticks (the others excluded this node),
 * once per view, and never while they answer.
 */
@Timeout(30)
class LeaseKeeperStaleViewTest {

    private static final NodeId N1 = NodeId.of(1);
    private static final NodeId N2 = NodeId.of(2);
    private static final NodeId N3 = NodeId.of(3);
    private static final View VIEW = new View(4, List.of(N1, N2, N3));
    private static final Duration LEASE = Duration.ofMillis(100); // a tick every 25 ms

    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopTimers() {
        timers.shutdownNow();
    }

    @Test
    void when_noMemberAnswers_then_theTransportIsToldOnce() throws Exception {
        ProbeTransport transport = new ProbeTransport(false);
        LeaseKeeper keeper = transport.keeper(timers);
        keeper.onView(VIEW, true, members -> members.size() >= 2);
        keeper.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> transport.staleCalls.get() == 1);
        int probesThen = transport.probes.get();
        await().atMost(Duration.ofSeconds(10)).until(
                () -> transport.probes.get() > probesThen + 4 * LeaseKeeper.SILENT_TICKS_BEFORE_STALE);
        assertEquals(1, transport.staleCalls.get(), "once per view, however long the silence lasts");

        keeper.onView(new View(5, List.of(N1, N2, N3)), true, members -> members.size() >= 2);
        await().atMost(Duration.ofSeconds(10)).until(() -> transport.staleCalls.get() == 2);
    }

    @Test
    void when_theMembersAnswer_then_theViewIsNotStale() throws Exception {
        ProbeTransport transport = new ProbeTransport(true);
        LeaseKeeper keeper = transport.keeper(timers);
        keeper.onView(VIEW, true, members -> members.size() >= 2);
        keeper.start();
        await().atMost(Duration.ofSeconds(10)).until(
                () -> transport.probes.get() > 4 * LeaseKeeper.SILENT_TICKS_BEFORE_STALE);
        assertEquals(0, transport.staleCalls.get());
    }

    @Test
    void when_theViewIsNotPrimary_then_silenceIsExpected() throws Exception {
        ProbeTransport transport = new ProbeTransport(false);
        LeaseKeeper keeper = transport.keeper(timers);
        keeper.onView(VIEW, false, members -> false);
        keeper.start();
        AtomicInteger ticks = new AtomicInteger();
        timers.scheduleAtFixedRate(ticks::incrementAndGet, 25, 25, TimeUnit.MILLISECONDS);
        await().atMost(Duration.ofSeconds(10)).until(() -> ticks.get() > 4 * LeaseKeeper.SILENT_TICKS_BEFORE_STALE);
        assertEquals(0, transport.staleCalls.get());
    }

    /**
     * A pause of this node does not count: its timer runs the missed ticks back to back when it resumes, and the
     * silence is counted afresh from the first of them; only 12 periods of running time without an answer are stale.
     */
    @Test
    void when_thisNodeWasPaused_then_theMissedTicksDoNotCount() {
        ProbeTransport transport = new ProbeTransport(false);
        LeaseKeeper keeper = transport.keeper(timers);
        keeper.onView(VIEW, true, members -> members.size() >= 2);
        long period = LEASE.toNanos() / 4;
        long t = 1_000_000_000L;
        synchronized (keeper) {
            for (int i = 0; i < LeaseKeeper.SILENT_TICKS_BEFORE_STALE - 2; i++, t += period) {
                assertFalse(keeper.countSilence(t), "tick " + i);
            }
            t += 40 * period; // paused for 40 periods: the next tick ends the pause
            for (int i = 0; i < 40; i++, t += 1_000) { // the missed ticks, back to back
                assertFalse(keeper.countSilence(t), "catch-up tick " + i);
            }
            for (int i = 1; i < LeaseKeeper.SILENT_TICKS_BEFORE_STALE; i++) {
                t += period;
                assertFalse(keeper.countSilence(t), "running tick " + i + " after the pause");
            }
            t += period;
            assertTrue(keeper.countSilence(t), "12 periods of running time without an answer");
            assertFalse(keeper.countSilence(t + period), "told once");
        }
    }

    /** A transport of node 1 that counts probes and, if asked to, answers each with the other members' acks. */
    private static final class ProbeTransport implements Transport {

        private final boolean answer;
        private final AtomicInteger probes = new AtomicInteger();
        private final AtomicInteger staleCalls = new AtomicInteger();
        private LeaseKeeper keeper;

        ProbeTransport(boolean answer) {
            this.answer = answer;
        }

        LeaseKeeper keeper(ScheduledExecutorService timers) {
            keeper = new LeaseKeeper(this, LEASE, timers, () -> { });
            return keeper;
        }

        @Override
        public void start(Receiver receiver) {
        }

        @Override
        public NodeId self() {
            return N1;
        }

        @Override
        public View view() {
            return VIEW;
        }

        @Override
        public void send(NodeId to, byte[] payload) {
            WireReader in = new WireReader(payload);
            Envelope envelope = Envelope.readFrom(in);
            if (in.readByte() != LeaseKeeper.PROBE) {
                return;
            }
            probes.incrementAndGet();
            if (!answer) {
                return;
            }
            long fingerprint = in.readSignedVarLong();
            long seq = in.readVarLong();
            WireWriter out = new WireWriter(32);
            new Envelope(Envelope.KIND_MEMBERSHIP, "", "", envelope.epoch()).writeTo(out);
            out.writeByte(LeaseKeeper.PROBE_ACK).writeSignedVarLong(fingerprint).writeVarLong(seq).writeBoolean(true);
            WireReader reply = new WireReader(out.toByteArray());
            Envelope replyEnvelope = Envelope.readFrom(reply);
            int type = reply.readByte();
            keeper.onMessage(to, replyEnvelope, type, reply);
        }

        @Override
        public boolean fifo() {
            return true;
        }

        @Override
        public void viewLooksStale() {
            staleCalls.incrementAndGet();
        }

        @Override
        public void close() {
        }
    }
}
