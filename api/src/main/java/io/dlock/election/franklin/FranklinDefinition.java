package io.dlock.election.franklin;

import io.dlock.election.common.ElectionSupport;
import io.dlock.protocol.AbstractElectionProtocolDefinition;
import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.protocol.ElectionScenario;
import io.dlock.protocol.ElectionTopology;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Registry entry for {@linkplain Franklin Franklin's algorithm} (docs/algorithms.md B5): bidirectional ring,
 * FIFO not required (phase tags), 2nK + n messages, no options.
 */
public final class FranklinDefinition extends AbstractElectionProtocolDefinition<FranklinMessage> {

    /** The configuration name. */
    public static final String NAME = "franklin";

    /** Creates the definition; stateless. */
    public FranklinDefinition() {
        super(NAME, ElectionTopology.BIDIRECTIONAL_RING, false, true, Set.of(),
                new FranklinCodec(), "2nK+n, K <= floor(log2 n)+1");
    }

    @Override
    public ElectionProtocol<FranklinMessage> create(ElectionContext<FranklinMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        return new Franklin(context);
    }

    /**
     * docs/algorithms.md FR-1: {@code 2nK + n} with K = {@link ElectionSupport#phases} of the ring, for any
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
}
