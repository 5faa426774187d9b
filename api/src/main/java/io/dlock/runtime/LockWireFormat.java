package io.dlock.runtime;

import io.dlock.condition.ConditionCodec;
import io.dlock.condition.ConditionMessage;
import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.spi.MalformedMessageException;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * How the locks of this node's algorithm look on the wire: every message in its {@link Envelope} (the algorithm's
 * messages as {@link Envelope#KIND_MUTEX}, its conditions' as {@link Envelope#KIND_CONDITION}), and the bundles
 * ({@link Envelope#KIND_BUNDLE}, written by the {@link Outbox}) that carry several of one lock's messages in one
 * frame. Encodes outgoing messages, and decodes incoming ones positioned after their envelope (the node's router
 * read it); every read throws {@link MalformedMessageException} for bytes that are not such a message, whole (no
 * trailing bytes).
 *
 * <p>One per node, shared by all its locks (a node may keep a million: the lock's name is an argument, not a
 * field). Stateless apart from the algorithm; any thread.
 *
 * @param <M> the algorithm's message type
 */
final class LockWireFormat<M extends ProtocolMessage> {

    private static final ConditionCodec CONDITION_CODEC = new ConditionCodec();

    private final String algorithm;
    private final MessageCodec<M> codec;

    /**
     * @param algorithm the algorithm's configuration name, in every envelope
     * @param codec     the algorithm's message codec
     */
    LockWireFormat(String algorithm, MessageCodec<M> codec) {
        this.algorithm = algorithm;
        this.codec = codec;
    }

    /** The algorithm's configuration name, as every envelope of this node's locks carries it. */
    String algorithm() {
        return algorithm;
    }

    /** The algorithm's {@code message} of lock {@code lock}, sent in view {@code epoch}: envelope and body. */
    byte[] encode(String lock, M message, long epoch) {
        WireWriter out = new WireWriter(48);
        new Envelope(Envelope.KIND_MUTEX, algorithm, lock, epoch).writeTo(out);
        codec.encode(message, out);
        return out.toByteArray();
    }

    /** {@code message} of condition {@code condition} of lock {@code lock}, sent in view {@code epoch}. */
    byte[] encodeCondition(String lock, String condition, ConditionMessage message, long epoch) {
        WireWriter out = new WireWriter(48);
        new Envelope(Envelope.KIND_CONDITION, algorithm, lock, epoch).writeTo(out);
        out.writeString(condition);
        CONDITION_CODEC.encode(message, out);
        return out.toByteArray();
    }

    /** A received message, positioned at its payload: the algorithm's, or ({@code condition}) a condition's. */
    record Incoming(WireReader in, boolean condition) {
    }

    /** A message of a bundle: the epoch its envelope names, and its payload. */
    record BundledMessage(long epoch, Incoming incoming) {
    }

    /** A condition's message and the condition's name. */
    record ConditionFrame(String condition, ConditionMessage message) {
    }

    /**
     * The messages of a bundle of lock {@code lockName} ({@code in} at the count of its messages), in order; a
     * bundle carries only its lock's mutex and condition messages.
     */
    List<BundledMessage> readBundle(String lockName, WireReader in) {
        List<BundledMessage> parts = new ArrayList<>();
        int count = in.readVarInt(Outbox.MAX_BUNDLE);
        for (int i = 0; i < count; i++) {
            WireReader part = in.slice(in.readVarInt(in.remaining()));
            Envelope header = Envelope.readFrom(part);
            boolean condition = header.kind() == Envelope.KIND_CONDITION;
            if ((!condition && header.kind() != Envelope.KIND_MUTEX) || !header.name().equals(lockName)
                    || !header.algorithm().equals(algorithm)) {
                throw new MalformedMessageException("a bundle of lock '" + lockName + "' carries a message of kind "
                        + header.kind() + " of lock '" + header.name() + "' (" + header.algorithm()
                        + "); a bundle carries only its own lock's mutex and condition messages");
            }
            parts.add(new BundledMessage(header.epoch(), new Incoming(part, condition)));
        }
        in.expectEnd();
        return parts;
    }

    /** The algorithm's message at {@code in}. */
    M readMutex(WireReader in) {
        M message = codec.decode(in);
        in.expectEnd();
        return message;
    }

    /** A condition's message at {@code in} (at the condition's name). */
    ConditionFrame readCondition(WireReader in) {
        String condition = in.readString();
        ConditionMessage message = CONDITION_CODEC.decode(in);
        in.expectEnd();
        return new ConditionFrame(condition, message);
    }
}
