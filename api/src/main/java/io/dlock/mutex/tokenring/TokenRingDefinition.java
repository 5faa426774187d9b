package io.dlock.mutex.tokenring;

import io.dlock.protocol.AbstractMutexProtocolDefinition;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolFamily;
import io.dlock.protocol.ProtocolOptions;
import java.util.Set;

/**
 * Registry entry for the {@linkplain TokenRing token ring} (SPEC.md A5): one token circulates along
 * the ring of the view's members in id order; 1 to infinity messages per entry (1 under full load, N
 * per idle circulation); synchronization delay T to (N-1)T; FIFO not required. Its messages never
 * stop ({@link #quiescentWhenIdle()} is false, SPEC.md F30).
 *
 * <p>Option {@value #IDLE_PAUSE_MS} (milliseconds, 0 to 60000, default
 * {@value #DEFAULT_IDLE_PAUSE_MS}): how long a holder that does not want the critical section keeps
 * the token before passing it on, so that an idle cluster does not spin a core; 0 is the SPEC's
 * behaviour (pass at once). In the simulator the pause is in virtual time units.
 */
public final class TokenRingDefinition extends AbstractMutexProtocolDefinition<TokenRingMessage> {

    /** The configuration name. */
    public static final String NAME = "token-ring";

    /** Option key: pause before passing an unwanted token, in milliseconds. */
    public static final String IDLE_PAUSE_MS = "idle-pause-ms";

    /** Default of {@value #IDLE_PAUSE_MS}. */
    public static final long DEFAULT_IDLE_PAUSE_MS = 10;

    /** Largest {@value #IDLE_PAUSE_MS}. */
    public static final long MAX_IDLE_PAUSE_MS = 60_000;

    /** Creates the definition; stateless, so one instance can serve every lock. */
    public TokenRingDefinition() {
        super(NAME, ProtocolFamily.TOKEN, false, Set.of(IDLE_PAUSE_MS),
                new TokenRingCodec(), "1 .. inf (1 under full load)");
    }

    /** @throws IllegalArgumentException for an unknown key, or unless {@value #IDLE_PAUSE_MS} is an integer 0 to 60000 */
    @Override
    public void validateOptions(ProtocolOptions options) {
        options.requireKeysIn(NAME, optionKeys());
        idlePause(options);
    }

    private static long idlePause(ProtocolOptions options) {
        return options.getLong(IDLE_PAUSE_MS, DEFAULT_IDLE_PAUSE_MS, 0, MAX_IDLE_PAUSE_MS);
    }

    @Override
    public boolean quiescentWhenIdle() {
        return false;
    }

    /** @throws IllegalArgumentException if an option is unknown or {@value #IDLE_PAUSE_MS} is out of range */
    @Override
    public MutexProtocol<TokenRingMessage> create(ProtocolContext<TokenRingMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        return new TokenRing(context, idlePause(context.options()));
    }

    /**
     * 1, the figure under full load (SPEC.md TR-2): every hop then serves an entry. It is a lower
     * bound, not an average: with lighter load the token also makes idle hops (N per idle
     * circulation, TR-1), and how many depends on the load and on {@value #IDLE_PAUSE_MS}. 0 for one
     * node.
     */
    @Override
    public double expectedMessagesPerEntry(int n) {
        return n == 1 ? 0 : 1;
    }

    /** Under full load the successor is the next requester: one hop. */
    @Override
    public double expectedSyncDelay() {
        return 1;
    }
}
