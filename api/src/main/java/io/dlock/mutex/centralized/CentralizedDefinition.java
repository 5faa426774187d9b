package io.dlock.mutex.centralized;

import io.dlock.protocol.AbstractMutexProtocolDefinition;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolFamily;
import io.dlock.protocol.ProtocolOptions;
import java.util.Set;

/**
 * Registry entry for the {@linkplain Centralized centralized coordinator} (docs/algorithms.md A1): one member,
 * the lock's coordinator, queues requests and grants them in arrival order; 3 messages per entry by
 * another node, 0 by the coordinator itself; synchronization delay 2T; FIFO not required.
 *
 * <p>Option {@value #COORDINATOR} ({@code per-name}/{@code leader}, default {@code per-name}): which member
 * coordinates a lock. {@code per-name}: the member that owns the lock's name by rendezvous hashing over the
 * primary view ({@link io.dlock.mutex.common.RendezvousHash}), so that the locks of a cluster spread their
 * coordination over every member (docs/algorithms.md A1 rule 7). {@code leader}: the leader of the
 * configured election ({@code dlock.election}), else the highest id of the view, for every lock.
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

    /** Option key: which member coordinates a lock, {@code per-name} (the default) or {@code leader}. */
    public static final String COORDINATOR = "coordinator";

    /** Creates the definition; stateless, so one instance can serve every lock. */
    public CentralizedDefinition() {
        super(NAME, ProtocolFamily.CENTRAL, false, Set.of(SEND_DENIED, COORDINATOR),
                new CentralizedCodec(), "3 (0 for the coordinator's own)");
    }

    /**
     * @throws IllegalArgumentException if an option is unknown, {@value #SEND_DENIED} is not a boolean or
     *                                  {@value #COORDINATOR} is neither {@code per-name} nor {@code leader}
     */
    @Override
    public void validateOptions(ProtocolOptions options) {
        options.requireKeysIn(NAME, optionKeys());
        options.getBoolean(SEND_DENIED, false);
        coordinatorChoice(options);
    }

    /**
     * Whether the runtime must run the election of {@code io.dlock.LockService#COORDINATOR_GROUP} for these
     * options: only the {@code leader} choice takes its coordinator from it.
     */
    @Override
    public boolean followsLeader(ProtocolOptions options) {
        return coordinatorChoice(options) == CoordinatorChoice.LEADER;
    }

    private static CoordinatorChoice coordinatorChoice(ProtocolOptions options) {
        return CoordinatorChoice.parse(options.get(COORDINATOR), CoordinatorChoice.PER_NAME);
    }

    /** @throws IllegalArgumentException if an option is unknown or has a bad value (see {@link #validateOptions}) */
    @Override
    public MutexProtocol<CentralizedMessage> create(ProtocolContext<CentralizedMessage> context) {
        ProtocolOptions options = context.options();
        validateOptions(options);
        return new Centralized(context, options.getBoolean(SEND_DENIED, false), coordinatorChoice(options));
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
