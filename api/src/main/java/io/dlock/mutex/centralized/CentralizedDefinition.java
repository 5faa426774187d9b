package io.dlock.mutex.centralized;

import io.dlock.protocol.AbstractMutexProtocolDefinition;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolFamily;
import java.util.Set;

/**
 * Registry entry for the {@linkplain Centralized centralized coordinator} (docs/algorithms.md A1): the member
 * with the highest id queues requests and grants them in arrival order; 3 messages per entry by
 * another node, 0 by the coordinator itself; synchronization delay 2T; FIFO not required.
 *
 * <p>Option {@value #SEND_DENIED} ({@code true}/{@code false}, default {@code false}): the
 * coordinator answers a request that has to wait with DENIED (the source notes' "NG"), one more message
 * for such a request (docs/algorithms.md CEN-2), so that the client knows the coordinator is alive.
 */
public final class CentralizedDefinition extends AbstractMutexProtocolDefinition<CentralizedMessage> {

    /** The configuration name. */
    public static final String NAME = "centralized";

    /** Option key: answer a request that has to wait with DENIED. */
    public static final String SEND_DENIED = "send-denied";

    /** Creates the definition; stateless, so one instance can serve every lock. */
    public CentralizedDefinition() {
        super(NAME, ProtocolFamily.CENTRAL, false, Set.of(SEND_DENIED),
                new CentralizedCodec(), "3 (0 for the coordinator's own)");
    }

    /** @throws IllegalArgumentException if an option is unknown or {@value #SEND_DENIED} is not a boolean */
    @Override
    public MutexProtocol<CentralizedMessage> create(ProtocolContext<CentralizedMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        boolean sendDenied = context.options().getBoolean(SEND_DENIED, false);
        return new Centralized(context, sendDenied);
    }

    /**
     * {@code 3(n-1)/n}: of every n entries, n-1 are by other nodes (REQUEST, GRANT, RELEASE) and one
     * is by the coordinator itself (no message). Without {@value #SEND_DENIED}.
     */
    @Override
    public double expectedMessagesPerEntry(int n) {
        return 3.0 * (n - 1) / n;
    }

    /** RELEASE to the coordinator, then GRANT to the next client. */
    @Override
    public double expectedSyncDelay() {
        return 2;
    }
}
