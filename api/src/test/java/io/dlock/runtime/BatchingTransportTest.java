package io.dlock.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.View;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What the node's transport writes while it works through many locks at once: batches per destination, in the order
 * sent, whichever thread sent; a batch of one as its message; full batches and overdue ones at once; and outside such
 * runs every message as it is sent. Also what the router does with a batch it cannot take.
 */
class BatchingTransportTest {

    private static final NodeId A = NodeId.of(1);
    private static final NodeId B = NodeId.of(2);
    private static final NodeId C = NodeId.of(3);
    /** A longest hold no test reaches: what is written then does not depend on how fast the test runs. */
    private static final Duration NEVER_DUE = Duration.ofHours(1);

    @Test
    void outsideARunEveryMessageGoesAsItIsSent() {
        Recording network = new Recording();
        BatchingTransport transport = new BatchingTransport(network, "centralized", Runnable::run, NEVER_DUE);
        transport.send(B, message(1));
        transport.broadcast(message(2));
        assertEquals(List.of(B + ":1", B + ":2", C + ":2"), network.written());
    }

    @Test
    void aRunWritesOneBatchPerDestinationInOrderWhenItEnds() {
        Recording network = new Recording();
        BatchingTransport transport = new BatchingTransport(network, "centralized", Runnable::run, NEVER_DUE);
        transport.runBatched(() -> {
            transport.send(B, message(1));
            transport.send(C, message(2));
            transport.send(B, message(3));
            transport.broadcast(message(4));
            assertEquals(List.of(), network.written(), "nothing written while the run goes on");
        });
        assertEquals(List.of(B + ":[1, 3, 4]", C + ":[2, 4]"), network.written());
        WireReader in = new WireReader(network.frames.get(0));
        assertEquals(new Envelope(Envelope.KIND_BATCH, "centralized", "", 0), Envelope.readFrom(in));
        assertEquals(3, in.readVarInt(BatchingTransport.MAX_MESSAGES));
        assertArrayEquals(message(1), in.readBytes(in.readVarInt(in.remaining())), "each message whole");
    }

    @Test
    void aBatchOfOneIsItsMessage() {
        Recording network = new Recording();
        BatchingTransport transport = new BatchingTransport(network, "centralized", Runnable::run, NEVER_DUE);
        transport.runBatched(() -> transport.send(B, message(7)));
        assertArrayEquals(message(7), network.frames.get(0));
    }

    @Test
    void aFullBatchIsWrittenAtOnceAndTheRestWhenTheRunEnds() {
        Recording network = new Recording();
        BatchingTransport transport = new BatchingTransport(network, "centralized", Runnable::run, NEVER_DUE);
        int sent = BatchingTransport.MAX_MESSAGES + 5;
        transport.runBatched(() -> {
            for (int i = 0; i < sent; i++) {
                transport.send(B, message(i));
            }
            assertEquals(0, network.frames.size(), "a send only keeps");
            transport.writeIfDue();
            assertEquals(1, network.frames.size(), "the run's thread writes the full batch as it goes");
        });
        assertEquals(2, network.frames.size());
        assertEquals(sent, network.messages().size());
        for (int i = 0; i < sent; i++) {
            assertArrayEquals(message(i), network.messages().get(i), "message " + i + " in order");
        }
    }

    @Test
    void aMessageWaitsAtMostTheLongestHoldWhileTheRunGoesOn() {
        Recording network = new Recording();
        BatchingTransport transport = new BatchingTransport(network, "centralized", Runnable::run, Duration.ofMillis(20));
        transport.runBatched(() -> {
            transport.send(B, message(1)); // kept (the tests with a longer hold: until the run ends)
            sleep(30);
            transport.writeIfDue();
            assertEquals(List.of(B + ":1"), network.written(), "due: written while the run goes on");
        });
        assertEquals(1, network.frames.size());
    }

    @Test
    void anotherThreadsSendsDuringARunAreKeptInOrderAndGoStraightAfterIt() throws Exception {
        Recording network = new Recording();
        BatchingTransport transport = new BatchingTransport(network, "centralized", Runnable::run, NEVER_DUE);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch sentMeanwhile = new CountDownLatch(1);
        Thread run = new Thread(() -> transport.runBatched(() -> {
            transport.send(B, message(1));
            running.countDown();
            await(sentMeanwhile);
            transport.send(B, message(3));
        }));
        run.start();
        await(running);
        transport.send(B, message(2)); // another thread, while the run is open: kept after message 1
        sentMeanwhile.countDown();
        run.join(TimeUnit.SECONDS.toMillis(10));
        transport.send(B, message(4)); // after the run: straight to the network, after the batch
        assertEquals(List.of(B + ":[1, 2, 3]", B + ":4"), network.written());
    }

    @Test
    void membershipMessagesAreNeverKept() {
        Recording network = new Recording();
        BatchingTransport transport = new BatchingTransport(network, "centralized", Runnable::run, NEVER_DUE);
        WireWriter probe = new WireWriter();
        new Envelope(Envelope.KIND_MEMBERSHIP, "", "", 1).writeTo(probe);
        probe.writeByte(LeaseKeeper.PROBE);
        transport.runBatched(() -> {
            transport.send(B, message(1));
            transport.send(B, probe.toByteArray());
            assertEquals(1, network.frames.size(), "the probe, at once");
            assertEquals(Envelope.KIND_MEMBERSHIP, Envelope.readFrom(new WireReader(network.frames.get(0))).kind());
        });
        assertEquals(2, network.frames.size());
    }

    @Test
    void runsInsideRunsWriteWhenTheLastEnds() {
        Recording network = new Recording();
        BatchingTransport transport = new BatchingTransport(network, "centralized", Runnable::run, NEVER_DUE);
        transport.runBatched(() -> {
            transport.runBatched(() -> transport.send(B, message(1)));
            assertEquals(0, network.frames.size(), "an outer run is still open");
            transport.send(B, message(2));
        });
        assertEquals(List.of(B + ":[1, 2]"), network.written());
    }

    @Test
    void theRouterDropsABatchInsideABatchAndAMalformedOneWithAReason() {
        List<String> dropped = new ArrayList<>();
        MessageRouter router = new MessageRouter("centralized", 256, null, null, null, null, name -> null,
                (from, why) -> dropped.add(why), new BatchingTransport(new Recording(), "centralized", Runnable::run));
        byte[] inner = FrameList.write(new Envelope(Envelope.KIND_BATCH, "centralized", "", 0),
                List.of(message(1), message(2)));
        router.onMessage(B, FrameList.write(new Envelope(Envelope.KIND_BATCH, "centralized", "", 0),
                List.of(inner)));
        WireWriter cut = new WireWriter();
        new Envelope(Envelope.KIND_BATCH, "centralized", "", 0).writeTo(cut);
        cut.writeVarLong(2).writeVarLong(100);
        router.onMessage(B, cut.toByteArray());
        assertEquals(2, dropped.size(), dropped.toString());
        assertTrue(dropped.get(0).contains("a batch inside a batch"), dropped.get(0));
        assertTrue(dropped.get(1).startsWith("malformed batch"), dropped.get(1));
    }

    /** A message of one byte: its number. */
    private static byte[] message(int n) {
        return new byte[] {(byte) n};
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Node A's network: records what is written, in order; a view of A, B and C. */
    private static final class Recording implements Transport {
        final List<NodeId> to = Collections.synchronizedList(new ArrayList<>());
        final List<byte[]> frames = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void start(Receiver receiver) {
        }

        @Override
        public NodeId self() {
            return A;
        }

        @Override
        public View view() {
            return new View(1, List.of(A, B, C));
        }

        @Override
        public synchronized void send(NodeId destination, byte[] payload) {
            to.add(destination);
            frames.add(payload);
        }

        @Override
        public boolean fifo() {
            return true;
        }

        @Override
        public void close() {
        }

        /** Each frame as "destination:n" (one message) or "destination:[n, m, ...]" (a batch). */
        synchronized List<String> written() {
            List<String> out = new ArrayList<>();
            for (int i = 0; i < frames.size(); i++) {
                byte[] frame = frames.get(i);
                out.add(to.get(i) + ":" + (frame.length == 1 ? String.valueOf(frame[0]) : numbers(unbatch(frame))));
            }
            return out;
        }

        /** Every message written, batches opened, in order. */
        synchronized List<byte[]> messages() {
            List<byte[]> out = new ArrayList<>();
            for (byte[] frame : frames) {
                out.addAll(frame.length == 1 ? List.of(frame) : unbatch(frame));
            }
            return out;
        }

        private static List<byte[]> unbatch(byte[] frame) {
            WireReader in = new WireReader(frame);
            Envelope.readFrom(in);
            List<byte[]> out = new ArrayList<>();
            int count = in.readVarInt(BatchingTransport.MAX_MESSAGES);
            for (int i = 0; i < count; i++) {
                out.add(in.readBytes(in.readVarInt(in.remaining())));
            }
            in.expectEnd();
            return out;
        }

        private static String numbers(List<byte[]> messages) {
            List<Integer> n = new ArrayList<>();
            messages.forEach(m -> n.add((int) m[0]));
            return n.toString();
        }
    }
}
