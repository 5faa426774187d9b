package io.dlock.mutex.suzukikasami;

import io.dlock.protocol.AbstractMutexProtocolDefinition;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolFamily;
import java.util.Set;

/**
 * Registry entry for {@linkplain SuzukiKasami Suzuki-Kasami} (docs/algorithms.md A7): numbered requests broadcast
 * to every member, a token carrying {@code LN} and the queue of waiting nodes; N messages per entry
 * (N-1 REQUEST + 1 TOKEN), 0 when the requester holds the idle token; synchronization delay T; FIFO
 * not required. No options.
 */
public final class SuzukiKasamiDefinition extends AbstractMutexProtocolDefinition<SuzukiKasamiMessage> {

    /** The configuration name. */
    public static final String NAME = "suzuki-kasami";

    /** Creates the definition; stateless, so one instance can serve every lock. */
    public SuzukiKasamiDefinition() {
        super(NAME, ProtocolFamily.TOKEN, false, Set.of(), new SuzukiKasamiCodec(), "N (0 for the idle holder)");
    }

    /** @throws IllegalArgumentException if an option is set (there are none) */
    @Override
    public MutexProtocol<SuzukiKasamiMessage> create(ProtocolContext<SuzukiKasamiMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        return new SuzukiKasami(context, true);
    }

    /**
     * Not exact for every schedule: {@code N} per entry by a node without the token, 0 by the idle
     * holder (docs/algorithms.md SK-1), so the run's total is {@code N * (entries that needed the token)}. This
     * is the figure for a node that does not hold the token, the usual case.
     */
    @Override
    public double expectedMessagesPerEntry(int n) {
        return n == 1 ? 0 : n;
    }

    /** The TOKEN goes from the exiting holder straight to the next in Q. */
    @Override
    public double expectedSyncDelay() {
        return 1;
    }
}
