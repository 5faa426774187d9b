package io.dlock.mutex.testing;

import io.dlock.protocol.AbstractMutexProtocolDefinition;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolContext;
import java.util.function.Function;

/**
 * A test-only variant of a registered algorithm: the base definition's family, FIFO need, codec, formula
 * and expected costs, under another name, with another factory (a rule left out, another tree shape).
 *
 * @param <M> the algorithm's message type
 */
public final class VariantDefinition<M extends io.dlock.protocol.ProtocolMessage> extends AbstractMutexProtocolDefinition<M> {

    private final MutexProtocolDefinition<M> base;
    private final Function<ProtocolContext<M>, MutexProtocol<M>> factory;

    private VariantDefinition(MutexProtocolDefinition<M> base, String name, Function<ProtocolContext<M>, MutexProtocol<M>> factory) {
        super(name, base.family(), base.requiresFifo(), base.optionKeys(), base.codec(), base.messagesFormula());
        this.base = base;
        this.factory = factory;
    }

    /** {@code base} under {@code name}, its protocols made by {@code factory}. */
    public static <M extends io.dlock.protocol.ProtocolMessage> MutexProtocolDefinition<M> of(
            MutexProtocolDefinition<M> base, String name, Function<ProtocolContext<M>, MutexProtocol<M>> factory) {
        return new VariantDefinition<>(base, name, factory);
    }

    @Override
    public MutexProtocol<M> create(ProtocolContext<M> context) {
        return factory.apply(context);
    }

    @Override
    public double expectedMessagesPerEntry(int n) {
        return base.expectedMessagesPerEntry(n);
    }

    @Override
    public double expectedSyncDelay() {
        return base.expectedSyncDelay();
    }
}
