package io.dlock.mutex.lamport;

import io.dlock.protocol.AbstractMutexProtocolDefinition;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolFamily;
import java.util.Set;

/**
 * Registry entry for {@linkplain Lamport Lamport's algorithm} (docs/algorithms.md A3): permission-based,
 * <b>requires FIFO channels</b>, 3(N-1) messages per entry, synchronization delay T.
 *
 * <p>Option {@value #IMMEDIATE_ACK} ({@code true}/{@code false}, default {@code false}): {@code false}
 * is the source notes' rule LA2 (a node in the critical section defers its acks until it leaves);
 * {@code true} is Lamport's original (acks at once). Same message count; both need FIFO
 * (docs/algorithms.md F19).
 */
public final class LamportDefinition extends AbstractMutexProtocolDefinition<LamportMessage> {

    /** The configuration name. */
    public static final String NAME = "lamport";

    /** Option key: acknowledge requests at once even while in the critical section. */
    public static final String IMMEDIATE_ACK = "immediate-ack";

    /** Creates the definition; stateless, so one instance can serve every lock. */
    public LamportDefinition() {
        // FIFO required: on a reordering channel an ack can overtake a request (docs/algorithms.md LAM-3).
        super(NAME, ProtocolFamily.PERMISSION, true, Set.of(IMMEDIATE_ACK), new LamportCodec(), "3(N-1)");
    }

    /** @throws IllegalArgumentException if an option is unknown or {@value #IMMEDIATE_ACK} is not a boolean */
    @Override
    public MutexProtocol<LamportMessage> create(ProtocolContext<LamportMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        boolean immediateAck = context.options().getBoolean(IMMEDIATE_ACK, false);
        return new Lamport(context, immediateAck);
    }

    /** {@code 3(n-1)}: n-1 REQUEST, n-1 ACK, n-1 RELEASE, whoever requests. */
    @Override
    public double expectedMessagesPerEntry(int n) {
        return 3.0 * (n - 1);
    }

    /** One RELEASE from the node leaving to the next one. */
    @Override
    public double expectedSyncDelay() {
        return 1;
    }
}
