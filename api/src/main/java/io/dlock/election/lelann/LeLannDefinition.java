package io.dlock.election.lelann;

import io.dlock.protocol.AbstractElectionProtocolDefinition;
import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.protocol.ElectionScenario;
import io.dlock.protocol.ElectionTopology;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Registry entry for {@linkplain LeLann LeLann's algorithm} (docs/algorithms.md B3): unidirectional FIFO ring,
 * exactly n^2 messages, no options.
 */
public final class LeLannDefinition extends AbstractElectionProtocolDefinition<LeLannMessage> {

    /** The configuration name. */
    public static final String NAME = "lelann";

    /** Creates the definition; stateless. */
    public LeLannDefinition() {
        super(NAME, ElectionTopology.UNIDIRECTIONAL_RING, true, true, Set.of(), new LeLannCodec(), "n^2");
    }

    @Override
    public ElectionProtocol<LeLannMessage> create(ElectionContext<LeLannMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        return new LeLann(context);
    }

    /** docs/algorithms.md NV-1: n^2 for any non-empty set of initiators; no crashes allowed (empty then). */
    @Override
    public OptionalLong expectedMessages(ElectionScenario scenario) {
        if (!scenario.crashed().isEmpty()) {
            return OptionalLong.empty();
        }
        long n = scenario.n();
        return OptionalLong.of(n * n);
    }
}
