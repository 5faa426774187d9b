package io.dlock.mutex.ricartagrawala;

import io.dlock.protocol.AbstractMutexProtocolDefinition;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolFamily;
import java.util.Set;

/**
 * Registry entry for {@linkplain RicartAgrawala Ricart and Agrawala's algorithm} (docs/algorithms.md A4):
 * permission-based, correct on non-FIFO channels, 2(N-1) messages per entry, synchronization delay
 * T. It has no options.
 */
public final class RicartAgrawalaDefinition extends AbstractMutexProtocolDefinition<RicartAgrawalaMessage> {

    /** The configuration name. */
    public static final String NAME = "ricart-agrawala";

    /** Creates the definition; stateless, so one instance can serve every lock. */
    public RicartAgrawalaDefinition() {
        super(NAME, ProtocolFamily.PERMISSION, false, Set.of(), new RicartAgrawalaCodec(), "2(N-1)");
    }

    /** @throws IllegalArgumentException if any option is set (the algorithm has none) */
    @Override
    public MutexProtocol<RicartAgrawalaMessage> create(ProtocolContext<RicartAgrawalaMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        return new RicartAgrawala(context);
    }

    /** {@code 2(n-1)}: n-1 REQUEST and n-1 REPLY, whoever requests. */
    @Override
    public double expectedMessagesPerEntry(int n) {
        return 2.0 * (n - 1);
    }

    /** One REPLY from the node leaving to the next one. */
    @Override
    public double expectedSyncDelay() {
        return 1;
    }
}
