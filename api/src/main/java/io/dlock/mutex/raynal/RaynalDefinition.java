package io.dlock.mutex.raynal;

import io.dlock.protocol.AbstractMutexProtocolDefinition;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolFamily;
import io.dlock.protocol.ProtocolOptions;
import java.util.Set;

/**
 * Registry entry for {@linkplain Raynal Raynal's prime-number algorithm} (docs/algorithms.md A11), by default
 * with the source notes' INFORM modification: no requests, the privileged node passes the right on with
 * {@code N-1} INFORMs; a requester at ring distance d waits {@code d(N-1)} messages, at most
 * {@code (N-1)^2}; FIFO not required; synchronization delay T when the successor is waiting. The
 * right parks after one idle round and a WAKE moves it again, so an idle lock falls silent.
 *
 * <p>Options:
 * <ul>
 *   <li>{@value #ORIGINAL} ({@code true}/{@code false}, default {@code false}): Raynal's original
 *       REQUEST/REPLY version, {@code 2(N-1)} messages per attempt, which <b>deadlocks</b> when the
 *       successor of the last holder never requests.</li>
 *   <li>{@value #RETRY_MS} (default {@value #DEFAULT_RETRY_MS}, at least 1): original version, delay before a new attempt
 *       after a failed one, in timer units (ms in the runtime, virtual units in the simulator).</li>
 *   <li>{@value #IDLE_PASS_MS} (default {@value #DEFAULT_IDLE_PASS_MS}, at least 0): INFORM version, how long
 *       a privileged node that does not want the CS keeps the right before passing it on (not on a pass
 *       hurried by a WAKE). 0 passes at once; either way the right parks after one idle round, so an idle
 *       lock falls silent without a pause. A pause only slows the right on its way to a requester that has
 *       no means to hurry it (it was 20 ms before the speed issue: 42 ms uncontended at 3 nodes).</li>
 * </ul>
 */
public final class RaynalDefinition extends AbstractMutexProtocolDefinition<RaynalMessage> {

    /** The configuration name. */
    public static final String NAME = "raynal";
    /** Option key: run the original REQUEST/REPLY version, which can deadlock. */
    public static final String ORIGINAL = "original";
    /** Option key: retry delay of the original version. */
    public static final String RETRY_MS = "retry-ms";
    /** Option key: pause before an idle pass of the INFORM version. */
    public static final String IDLE_PASS_MS = "idle-pass-ms";
    /** Default of {@value #IDLE_PASS_MS}: pass at once (the parking rule keeps an idle lock silent). */
    public static final long DEFAULT_IDLE_PASS_MS = 0;
    /** Default of {@value #RETRY_MS}. */
    public static final long DEFAULT_RETRY_MS = 10;
    /** Largest {@value #RETRY_MS} and {@value #IDLE_PASS_MS}: one day. */
    private static final long MAX_MS = 86_400_000;

    /** Creates the definition; stateless, so one instance can serve every lock. */
    public RaynalDefinition() {
        super(NAME, ProtocolFamily.PERMISSION, false, Set.of(ORIGINAL, RETRY_MS, IDLE_PASS_MS),
                new RaynalCodec(), "d(N-1) <= (N-1)^2 (INFORM)");
    }

    @Override
    public void validateOptions(ProtocolOptions options) {
        options.requireKeysIn(NAME, optionKeys());
        options.getBoolean(ORIGINAL, false);
        options.getLong(RETRY_MS, DEFAULT_RETRY_MS, 1, MAX_MS);
        options.getLong(IDLE_PASS_MS, DEFAULT_IDLE_PASS_MS, 0, MAX_MS);
    }

    /** @throws IllegalArgumentException if an option is unknown or has a bad value */
    @Override
    public MutexProtocol<RaynalMessage> create(ProtocolContext<RaynalMessage> context) {
        ProtocolOptions o = context.options();
        validateOptions(o);
        return new Raynal(context, o.getBoolean(ORIGINAL, false), o.getLong(RETRY_MS, DEFAULT_RETRY_MS, 1, MAX_MS),
                o.getLong(IDLE_PASS_MS, DEFAULT_IDLE_PASS_MS, 0, MAX_MS));
    }

    /**
     * Heavy load (every node waiting): each entry is one pass to the successor, {@code N-1}
     * INFORMs. Idle passes come on top when nodes do not want the CS.
     */
    @Override
    public double expectedMessagesPerEntry(int n) {
        return n - 1;
    }

    /** The leaving node's INFORM reaches its waiting successor. */
    @Override
    public double expectedSyncDelay() {
        return 1;
    }
}
