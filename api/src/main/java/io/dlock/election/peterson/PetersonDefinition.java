package io.dlock.election.peterson;

import io.dlock.election.common.ElectionSupport;
import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.protocol.ElectionProtocolDefinition;
import io.dlock.protocol.ElectionScenario;
import io.dlock.protocol.ElectionTopology;
import io.dlock.protocol.MessageCodec;
import java.util.OptionalLong;

/**
 * Registry entry for {@linkplain Peterson Peterson's unidirectional algorithm} (SPEC.md B6, the
 * seed's "Paterson"): unidirectional FIFO ring, 2nK messages, no options.
 */
public final class PetersonDefinition implements ElectionProtocolDefinition<PetersonMessage> {

    /** The configuration name. */
    public static final String NAME = "peterson";

    private static final PetersonCodec CODEC = new PetersonCodec();

    /** Creates the definition; stateless. */
    public PetersonDefinition() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean requiresFifo() {
        return true;
    }

    @Override
    public ElectionTopology topology() {
        return ElectionTopology.UNIDIRECTIONAL_RING;
    }

    @Override
    public boolean quietAfterLeader() {
        return true;
    }

    @Override
    public MessageCodec<PetersonMessage> codec() {
        return CODEC;
    }

    @Override
    public ElectionProtocol<PetersonMessage> create(ElectionContext<PetersonMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        return new Peterson(context);
    }

    @Override
    public String messagesFormula() {
        return "2nK, K <= floor(log2 n)+1";
    }

    /**
     * SPEC.md PE-1: {@code 2nK} with K = {@link ElectionSupport#phases} of the ring, for any
     * initiators and any FIFO schedule; no crashes allowed (empty then).
     */
    @Override
    public OptionalLong expectedMessages(ElectionScenario scenario) {
        if (!scenario.crashed().isEmpty()) {
            return OptionalLong.empty();
        }
        long n = scenario.n();
        return OptionalLong.of(2 * n * ElectionSupport.phases(scenario.ring()));
    }

    @Override
    public String toString() {
        return NAME;
    }
}
