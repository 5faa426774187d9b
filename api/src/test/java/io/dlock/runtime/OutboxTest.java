package io.dlock.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dlock.spi.MalformedMessageException;
import io.dlock.NodeId;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One frame per destination and pass: a lone message unchanged, several as a bundle of the whole messages in order. */
class OutboxTest {

    private static final NodeId A = NodeId.of(1);
    private static final NodeId B = NodeId.of(2);

    private record Frame(NodeId to, byte[] bytes) {
    }

    @Test
    void aLoneMessageToADestinationLeavesUnchanged() {
        Outbox outbox = new Outbox("centralized", "orders");
        byte[] release = message(Envelope.KIND_MUTEX, "orders", 7, 1);
        outbox.add(A, release);
        List<Frame> frames = flush(outbox);
        assertEquals(1, frames.size());
        assertEquals(A, frames.get(0).to());
        assertArrayEquals(release, frames.get(0).bytes());
    }

    @Test
    void messagesToOneDestinationLeaveAsOneBundleInTheOrderSent() {
        Outbox outbox = new Outbox("centralized", "orders");
        byte[] release = message(Envelope.KIND_MUTEX, "orders", 7, 1);
        byte[] request = message(Envelope.KIND_MUTEX, "orders", 7, 2);
        byte[] signal = message(Envelope.KIND_CONDITION, "orders", 7, 3);
        byte[] toB = message(Envelope.KIND_MUTEX, "orders", 7, 4);
        outbox.add(A, release);
        outbox.add(B, toB);
        outbox.add(A, request);
        outbox.add(A, signal);
        List<Frame> frames = flush(outbox);

        assertEquals(List.of(A, B), frames.stream().map(Frame::to).toList(), "one frame per destination");
        assertArrayEquals(toB, frames.get(1).bytes(), "B's lone message is not bundled");
        WireReader in = new WireReader(frames.get(0).bytes());
        assertEquals(new Envelope(Envelope.KIND_BUNDLE, "centralized", "orders", 0), Envelope.readFrom(in));
        assertEquals(3, in.readVarInt(Outbox.MAX_BUNDLE));
        for (byte[] expected : List.of(release, request, signal)) {
            WireReader part = in.slice(in.readVarInt(in.remaining()));
            byte[] actual = new byte[part.remaining()];
            for (int i = 0; i < actual.length; i++) {
                actual[i] = (byte) part.readByte();
            }
            assertArrayEquals(expected, actual);
        }
        in.expectEnd();
    }

    @Test
    void aPassOverTheBundleLimitWritesSeveralBundles() {
        Outbox outbox = new Outbox("lamport", "orders");
        int count = Outbox.MAX_BUNDLE + 3;
        for (int i = 0; i < count; i++) {
            outbox.add(A, message(Envelope.KIND_MUTEX, "orders", 1, i));
        }
        List<Frame> frames = flush(outbox);
        assertEquals(2, frames.size());
        WireReader second = new WireReader(frames.get(1).bytes());
        Envelope.readFrom(second);
        assertEquals(3, second.readVarInt(Outbox.MAX_BUNDLE));
    }

    /** A pass to many destinations (a broadcast of a large cluster: beyond the scan, a map finds them). */
    @Test
    void manyDestinationsEachGetOneFrameInTheOrderFirstSentTo() {
        Outbox outbox = new Outbox("centralized", "orders");
        int members = 40;
        for (int round = 0; round < 2; round++) {
            for (int m = members; m > 0; m--) {
                outbox.add(NodeId.of(m), message(Envelope.KIND_MUTEX, "orders", 7, round));
            }
        }
        List<Frame> frames = flush(outbox);
        assertEquals(members, frames.size());
        for (int i = 0; i < members; i++) {
            assertEquals(NodeId.of(members - i), frames.get(i).to(), "frame " + i);
            WireReader in = new WireReader(frames.get(i).bytes());
            assertEquals(Envelope.KIND_BUNDLE, Envelope.readFrom(in).kind(), "two messages each: a bundle");
        }
        outbox.add(A, message(Envelope.KIND_MUTEX, "orders", 7, 3));
        assertEquals(List.of(A), flush(outbox).stream().map(Frame::to).toList(), "the next pass starts afresh");
    }

    @Test
    void aFlushWithNothingQueuedWritesNothing() {
        Outbox outbox = new Outbox("centralized", "orders");
        assertEquals(List.of(), flush(outbox));
        outbox.add(A, message(Envelope.KIND_MUTEX, "orders", 1, 1));
        assertEquals(1, flush(outbox).size());
        assertEquals(List.of(), flush(outbox), "a flush forgets what it wrote");
    }

    @Test
    void aSliceReadsItsBytesAndTheReaderSkipsThem() {
        WireReader in = new WireReader(new byte[] {1, 2, 3, 4});
        WireReader part = in.slice(2);
        assertEquals(1, part.readByte());
        assertEquals(2, part.readByte());
        part.expectEnd();
        assertEquals(3, in.readByte());
        assertThrows(MalformedMessageException.class, () -> in.slice(2), "only one byte is left");
    }

    private static List<Frame> flush(Outbox outbox) {
        List<Frame> frames = new ArrayList<>();
        outbox.flush((to, bytes) -> frames.add(new Frame(to, bytes)));
        return frames;
    }

    private static byte[] message(int kind, String lock, long epoch, int body) {
        WireWriter out = new WireWriter();
        new Envelope(kind, "centralized", lock, epoch).writeTo(out);
        out.writeVarLong(body);
        return out.toByteArray();
    }
}
