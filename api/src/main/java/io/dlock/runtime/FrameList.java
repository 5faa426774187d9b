package io.dlock.runtime;

import io.dlock.spi.WireWriter;
import java.util.List;

/**
 * Several whole messages (each its own envelope and body) written as one: a header, the number of messages, then each
 * message with its length in front. The shape of a lock's bundle ({@link Envelope#KIND_BUNDLE}, {@link Outbox}) and of
 * a node's batch ({@link Envelope#KIND_BATCH}, {@link BatchingTransport}).
 */
final class FrameList {

    private FrameList() {
    }

    /** {@code header}, then {@code messages} in order, each with its length in front. */
    static byte[] write(Envelope header, List<byte[]> messages) {
        int bytes = 64;
        for (byte[] m : messages) {
            bytes += m.length + 3;
        }
        WireWriter out = new WireWriter(bytes);
        header.writeTo(out);
        out.writeVarLong(messages.size());
        for (byte[] m : messages) {
            out.writeVarLong(m.length).writeBytes(m);
        }
        return out.toByteArray();
    }
}
