package io.dlock.runtime;

import io.dlock.condition.ConditionCodec;
import io.dlock.condition.ConditionMessage;
import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.spi.MalformedMessageException;
import io.dlock.spi.WireReader;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes one lock's incoming messages, positioned after their {@link Envelope} (the node's router read it):
 * the algorithm's, a condition's, and the bundles ({@link Envelope#KIND_BUNDLE}) that carry several of them in
 * one frame. Every method throws {@link MalformedMessageException} for bytes that are not such a message, whole
 * (no trailing bytes). Stateless apart from its names; any thread.
 *
 * @param <M> the algorithm's message type
 */
final class LockMessageReader<M extends ProtocolMessage> {

    private static final ConditionCodec CONDITION_CODEC = new ConditionCodec();

    private final String algorithm;
    private final String lockName;
    private final MessageCodec<M> codec;

    LockMessageReader(String algorithm, String lockName, MessageCodec<M> codec) {
        this.algorithm = algorithm;
        this.lockName = lockName;
        this.codec = codec;
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
     * The messages of a bundle ({@code in} at the count of its messages), in order; a bundle carries only this
     * lock's mutex and condition messages.
     */
    List<BundledMessage> readBundle(WireReader in) {
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
