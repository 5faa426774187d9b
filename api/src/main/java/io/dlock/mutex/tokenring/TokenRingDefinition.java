package io.dlock.mutex.tokenring;

import io.dlock.protocol.AbstractMutexProtocolDefinition;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolFamily;
import io.dlock.protocol.ProtocolOptions;
import java.util.Set;

/**
 * Registry entry for the {@linkplain TokenRing token ring} (docs/algorithms.md A5): one token circulates along
 * the ring of the view's members in id order; 1 to infinity messages per entry (1 under full load, N
 * per idle circulation); synchronization delay T to (N-1)T; FIFO not required. An unwanted token parks after
 * one idle round (rule 7), so the lock falls silent when idle ({@link #quiescentWhenIdle()} is true; the
 * published algorithm's token circulates for ever, docs/algorithms.md F30).
 *
 * <p>Option {@value #IDLE_PAUSE_MS} (milliseconds, 0 to 60000, default
 * {@value #DEFAULT_IDLE_PAUSE_MS}): how long a holder that does not want the critical section keeps
 * the token before passing it on. 0, the default, is docs/algorithms.md's behaviour (pass at once): the token
 * parks after one idle round anyway, so an idle cluster falls silent without a pause, and a pause only slows
 * the token on its way to a requester, which has no means to hurry it (with 10 ms, the default before the
 * speed issue, an uncontended lock+unlock at 3 nodes took 22 ms). A pause trades that latency for fewer
 * messages while one node uses the lock and the others do not. In the simulator the pause is in virtual
 * time units.
 *
 * <p>Option {@value #TOKEN_ACK_MS} (milliseconds, 0 to 60000, default 0 = off): docs/algorithms.md A5 rule 6,
 * Tanenbaum's crash variant. The receiver of a TOKEN answers TOKEN_ACK; a sender with no ack after
 * that long takes its successor for crashed and sends the token to the next member in ring order,
 * so a crashed member still in the view (its failure not yet detected) does not stop the ring (TR-5).
 * It must exceed the largest round trip: a successor that is only slow would receive a second token.
 * Costs one TOKEN_ACK per hop.
 */
public final class TokenRingDefinition extends AbstractMutexProtocolDefinition<TokenRingMessage> {

    /** The configuration name. */
    public static final String NAME = "token-ring";

    /** Option key: pause before passing an unwanted token, in milliseconds. */
    public static final String IDLE_PAUSE_MS = "idle-pause-ms";

    /** Default of {@value #IDLE_PAUSE_MS}. */
    public static final long DEFAULT_IDLE_PAUSE_MS = 0;

    /** Option key: TOKEN_ACK timeout in milliseconds, 0 = no TOKEN_ACK (rule 6). */
    public static final String TOKEN_ACK_MS = "token-ack-ms";

    /** Largest {@value #IDLE_PAUSE_MS}. */
    public static final long MAX_IDLE_PAUSE_MS = 60_000;

    /** Creates the definition; stateless, so one instance can serve every lock. */
    public TokenRingDefinition() {
        super(NAME, ProtocolFamily.TOKEN, false, Set.of(IDLE_PAUSE_MS, TOKEN_ACK_MS),
                new TokenRingCodec(), "1 .. inf (1 under full load)");
    }

    /** @throws IllegalArgumentException for an unknown key, or unless {@value #IDLE_PAUSE_MS} is an integer 0 to 60000 */
    @Override
    public void validateOptions(ProtocolOptions options) {
        options.requireKeysIn(NAME, optionKeys());
        idlePause(options);
        tokenAck(options);
    }

    private static long tokenAck(ProtocolOptions options) {
        return options.getLong(TOKEN_ACK_MS, 0, 0, MAX_IDLE_PAUSE_MS);
    }

    private static long idlePause(ProtocolOptions options) {
        return options.getLong(IDLE_PAUSE_MS, DEFAULT_IDLE_PAUSE_MS, 0, MAX_IDLE_PAUSE_MS);
    }

    /** @throws IllegalArgumentException if an option is unknown or out of range */
    @Override
    public MutexProtocol<TokenRingMessage> create(ProtocolContext<TokenRingMessage> context) {
        validateOptions(context.options());
        return new TokenRing(context, idlePause(context.options()), tokenAck(context.options()));
    }

    /**
     * 1, the figure under full load (docs/algorithms.md TR-2): every hop then serves an entry. It is a lower
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
