package io.dlock.election.franklin;

import io.dlock.election.common.ElectionSupport;
import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.protocol.ElectionProtocolDefinition;
import io.dlock.protocol.ElectionScenario;
import io.dlock.protocol.ElectionTopology;
import io.dlock.protocol.MessageCodec;
import java.util.OptionalLong;

/**
 * Registry entry for {@linkplain Franklin Franklin's algorithm} (SPEC.md B5): bidirectional ring,
 * FIFO not required (phase tags), 2nK + n messages, no options.
 */
public final class FranklinDefinition implements ElectionProtocolDefinition<FranklinMessage> {

    /** The configuration name. */
    public static final String NAME = "franklin";

    private static final FranklinCodec CODEC = new FranklinCodec();

    /** Creates the definition; stateless. */
    public FranklinDefinition() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean requiresFifo() {
        return false;
    }

    @Override
    public ElectionTopology topology() {
        return ElectionTopology.BIDIRECTIONAL_RING;
    }

    @Override
    public boolean quietAfterLeader() {
        return true;
    }

    @Override
    public MessageCodec<FranklinMessage> codec() {
        return CODEC;
    }

    @Override
    public ElectionProtocol<FranklinMessage> create(ElectionContext<FranklinMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        return new Franklin(context);
    }

    @Override
    public String messagesFormula() {
        return "2nK+n, K <= floor(log2 n)+1";
    }

    /**
     * SPEC.md FR-1: {@code 2nK + n} with K = {@link ElectionSupport#phases} of the ring, for any
     * initiators and any schedule; no crashes allowed (empty then).
     */
    @Override
    public OptionalLong expectedMessages(ElectionScenario scenario) {
        if (!scenario.crashed().isEmpty()) {
            return OptionalLong.empty();
        }
        long n = scenario.n();
        return OptionalLong.of(2 * n * ElectionSupport.phases(scenario.ring()) + n);
    }

    @Override
    public String toString() {
        return NAME;
    }
}
