package io.dlock.protocol;

import java.util.Objects;
import java.util.Set;

/**
 * Holds what every {@link MutexProtocolDefinition} only declares: its family, and (in
 * {@link AbstractProtocolDefinition}) its name, FIFO need, option keys, codec and message-count formula,
 * each given once to the constructor and returned by a final accessor; {@link #toString()} is the name. A subclass keeps only what is specific to
 * its algorithm: {@link #create}, the expected costs ({@link #expectedMessagesPerEntry},
 * {@link #expectedSyncDelay}) and, where the default does not fit, {@link #validateOptions} and
 * {@link #quiescentWhenIdle}.
 *
 * @param <M> the algorithm's message type
 */
public abstract class AbstractMutexProtocolDefinition<M extends ProtocolMessage> extends AbstractProtocolDefinition<M>
        implements MutexProtocolDefinition<M> {

    private final ProtocolFamily family;

    /**
     * @param name            the kebab-case configuration name, returned by {@link #name()} and {@link #toString()}
     * @param family          returned by {@link #family()}
     * @param requiresFifo    whether the algorithm is only correct on FIFO channels ({@link #requiresFifo()})
     * @param optionKeys      the option keys {@link ProtocolOptions} may set, {@code Set.of()} for none
     * @param codec           the codec of the algorithm's messages, stateless (one serves every lock)
     * @param messagesFormula the message-count formula as docs/algorithms.md writes it
     * @throws NullPointerException if an argument is null
     */
    protected AbstractMutexProtocolDefinition(String name, ProtocolFamily family, boolean requiresFifo,
            Set<String> optionKeys, MessageCodec<M> codec, String messagesFormula) {
        super(name, requiresFifo, optionKeys, codec, messagesFormula);
        this.family = Objects.requireNonNull(family, "family");
    }

    @Override
    public final ProtocolFamily family() {
        return family;
    }
}
