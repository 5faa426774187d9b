package io.dlock.election.peterson;

import io.dlock.election.common.ElectionSupport;
import io.dlock.protocol.AbstractElectionProtocolDefinition;
import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.protocol.ElectionScenario;
import io.dlock.protocol.ElectionTopology;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Registry entry for {@linkplain Peterson Peterson's unidirectional algorithm} (docs/algorithms.md B6, the
 * source notes' "Paterson"): unidirectional FIFO ring, 2nK messages, no options.
 */
public final class PetersonDefinition extends AbstractElectionProtocolDefinition<PetersonMessage> {

    /** The configuration name. */
    public static final String NAME = "peterson";

    /** Creates the definition; stateless. */
    public PetersonDefinition() {
        super(NAME, ElectionTopology.UNIDIRECTIONAL_RING, true, true, Set.of(),
                new PetersonCodec(), "2nK, K <= floor(log2 n)+1");
    }

    @Override
    public ElectionProtocol<PetersonMessage> create(ElectionContext<PetersonMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        return new Peterson(context);
    }

    /**
     * docs/algorithms.md PE-1: {@code 2nK} with K = {@link ElectionSupport#phases} of the ring, for any
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
}
