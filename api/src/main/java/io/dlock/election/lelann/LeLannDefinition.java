package io.dlock.election.lelann;

import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.protocol.ElectionProtocolDefinition;
import io.dlock.protocol.ElectionScenario;
import io.dlock.protocol.ElectionTopology;
import io.dlock.protocol.MessageCodec;
import java.util.OptionalLong;

/**
 * Registry entry for {@linkplain LeLann LeLann's algorithm} (SPEC.md B3): unidirectional FIFO ring,
 * exactly n^2 messages, no options.
 */
public final class LeLannDefinition implements ElectionProtocolDefinition<LeLannMessage> {

    /** The configuration name. */
    public static final String NAME = "lelann";

    private static final LeLannCodec CODEC = new LeLannCodec();

    /** Creates the definition; stateless. */
    public LeLannDefinition() {
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
    public MessageCodec<LeLannMessage> codec() {
        return CODEC;
    }

    @Override
    public ElectionProtocol<LeLannMessage> create(ElectionContext<LeLannMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        return new LeLann(context);
    }

    @Override
    public String messagesFormula() {
        return "n^2";
    }

    /** SPEC.md NV-1: n^2 for any non-empty set of initiators; no crashes allowed (empty then). */
    @Override
    public OptionalLong expectedMessages(ElectionScenario scenario) {
        if (!scenario.crashed().isEmpty()) {
            return OptionalLong.empty();
        }
        long n = scenario.n();
        return OptionalLong.of(n * n);
    }

    @Override
    public String toString() {
        return NAME;
    }
}
