package io.dlock.protocol;

import java.util.Objects;
import java.util.Set;

/**
 * Holds what every {@link MutexProtocolDefinition} only declares: its name, family, FIFO need,
 * option keys, codec and message-count formula, each given once to the constructor and returned
 * by a final accessor; {@link #toString()} is the name. A subclass keeps only what is specific to
 * its algorithm: {@link #create}, the expected costs ({@link #expectedMessagesPerEntry},
 * {@link #expectedSyncDelay}) and, where the default does not fit, {@link #validateOptions} and
 * {@link #quiescentWhenIdle}.
 *
 * @param <M> the algorithm's message type
 */
public abstract class AbstractMutexProtocolDefinition<M extends ProtocolMessage> implements MutexProtocolDefinition<M> {

    private final String name;
    private final ProtocolFamily family;
    private final boolean requiresFifo;
    private final Set<String> optionKeys;
    private final MessageCodec<M> codec;
    private final String messagesFormula;

    /**
     * @param name            the kebab-case configuration name, returned by {@link #name()} and {@link #toString()}
     * @param family          returned by {@link #family()}
     * @param requiresFifo    whether the algorithm is only correct on FIFO channels ({@link #requiresFifo()})
     * @param optionKeys      the option keys {@link ProtocolOptions} may set, {@code Set.of()} for none
     * @param codec           the codec of the algorithm's messages, stateless (one serves every lock)
     * @param messagesFormula the message-count formula as SPEC.md writes it
     * @throws NullPointerException if an argument is null
     */
    protected AbstractMutexProtocolDefinition(String name, ProtocolFamily family, boolean requiresFifo,
            Set<String> optionKeys, MessageCodec<M> codec, String messagesFormula) {
        this.name = Objects.requireNonNull(name, "name");
        this.family = Objects.requireNonNull(family, "family");
        this.requiresFifo = requiresFifo;
        this.optionKeys = Set.copyOf(optionKeys);
        this.codec = Objects.requireNonNull(codec, "codec");
        this.messagesFormula = Objects.requireNonNull(messagesFormula, "messagesFormula");
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final ProtocolFamily family() {
        return family;
    }

    @Override
    public final boolean requiresFifo() {
        return requiresFifo;
    }

    @Override
    public final Set<String> optionKeys() {
        return optionKeys;
    }

    @Override
    public final MessageCodec<M> codec() {
        return codec;
    }

    @Override
    public final String messagesFormula() {
        return messagesFormula;
    }

    /** The configuration name. */
    @Override
    public final String toString() {
        return name;
    }
}
