package io.dlock.protocol;

import java.util.Objects;
import java.util.Set;

/**
 * Holds the declarations that a {@link MutexProtocolDefinition} and an {@link ElectionProtocolDefinition}
 * share: name, FIFO need, option keys, codec and message-count formula, each given once to the
 * constructor and returned by a final accessor; {@link #toString()} is the name. Extend
 * {@link AbstractMutexProtocolDefinition} or {@link AbstractElectionProtocolDefinition}, which add what
 * only their family declares.
 *
 * @param <M> the algorithm's message type
 */
public abstract class AbstractProtocolDefinition<M extends ProtocolMessage> {

    private final String name;
    private final boolean requiresFifo;
    private final Set<String> optionKeys;
    private final MessageCodec<M> codec;
    private final String messagesFormula;

    /**
     * @param name            the kebab-case configuration name, returned by {@link #name()} and {@link #toString()}
     * @param requiresFifo    whether the algorithm is only correct on FIFO channels ({@link #requiresFifo()})
     * @param optionKeys      the option keys {@link ProtocolOptions} may set, {@code Set.of()} for none
     * @param codec           the codec of the algorithm's messages, stateless (one serves every lock or group)
     * @param messagesFormula the message-count formula as docs/algorithms.md writes it
     * @throws NullPointerException if an argument is null
     */
    AbstractProtocolDefinition(String name, boolean requiresFifo, Set<String> optionKeys, MessageCodec<M> codec,
                               String messagesFormula) {
        this.name = Objects.requireNonNull(name, "name");
        this.requiresFifo = requiresFifo;
        this.optionKeys = Set.copyOf(optionKeys);
        this.codec = Objects.requireNonNull(codec, "codec");
        this.messagesFormula = Objects.requireNonNull(messagesFormula, "messagesFormula");
    }

    /** The kebab-case configuration name. */
    public final String name() {
        return name;
    }

    /** Whether the algorithm is only correct on FIFO channels. */
    public final boolean requiresFifo() {
        return requiresFifo;
    }

    /** The option keys {@link ProtocolOptions} may set. */
    public final Set<String> optionKeys() {
        return optionKeys;
    }

    /** The codec of the algorithm's messages. */
    public final MessageCodec<M> codec() {
        return codec;
    }

    /** The message-count formula as docs/algorithms.md writes it. */
    public final String messagesFormula() {
        return messagesFormula;
    }

    /** The configuration name. */
    @Override
    public final String toString() {
        return name;
    }
}
