package io.dlock.mutex.ctta;

import io.dlock.protocol.AbstractMutexProtocolDefinition;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolFamily;
import io.dlock.protocol.ProtocolOptions;
import java.util.Set;

/**
 * Registry entry for {@linkplain Ctta CTTA} with REGENERATE (docs/algorithms.md A6): broadcast requests, the
 * token's {@code HR} array, hand-off to the next requester in ring order; N messages per entry
 * (N-1 when the idle token is at the requester); synchronization delay T; FIFO not required.
 *
 * <p>Options:
 * <ul>
 *   <li>{@value #REGENERATE} ({@code true}/{@code false}, default {@code true}, but {@code false} on a live
 *       node unless configured: {@link #runtimeDefaults()}): a requester that
 *       waits longer than the timeout runs REGENERATE (rules 6-11);</li>
 *   <li>{@value #REGEN_TIMEOUT} (default {@value #DEFAULT_REGEN_TIMEOUT}): that timeout, and the
 *       time after which an attempt still missing answers is abandoned for a new one. Milliseconds in
 *       the runtime, virtual time units in the simulator.</li>
 * </ul>
 */
public final class CttaDefinition extends AbstractMutexProtocolDefinition<CttaMessage> {

    /** The configuration name. */
    public static final String NAME = "ctta";
    /** Option key: run REGENERATE on a suspected token loss. */
    public static final String REGENERATE = "regenerate";
    /** Option key: the token-loss timeout. */
    public static final String REGEN_TIMEOUT = "regen-timeout";
    /** Default token-loss timeout. */
    public static final long DEFAULT_REGEN_TIMEOUT = 5000;

    /** Largest timeout accepted (2^40; CTTA backs off up to 2^10 times it without overflow). */
    public static final long MAX_TIMEOUT = 1L << 40;

    /** Creates the definition; stateless, so one instance can serve every lock. */
    public CttaDefinition() {
        super(NAME, ProtocolFamily.TOKEN, false, Set.of(REGENERATE, REGEN_TIMEOUT),
                new CttaCodec(), "N (N-1 at the idle holder)");
    }

    /**
     * {@value #REGENERATE} is a boolean; the timeouts are whole numbers from 1 to {@value #MAX_TIMEOUT}.
     *
     * @throws IllegalArgumentException for an unknown key or a bad value, saying what is allowed
     */
    @Override
    public void validateOptions(ProtocolOptions options) {
        options.requireKeysIn(NAME, optionKeys());
        options.getBoolean(REGENERATE, true);
        options.getLong(REGEN_TIMEOUT, 0, 1, MAX_TIMEOUT);
    }

    /** @throws IllegalArgumentException if an option is unknown or has a bad value */
    @Override
    public MutexProtocol<CttaMessage> create(ProtocolContext<CttaMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        boolean regenerate = context.options().getBoolean(REGENERATE, true);
        long timeout = context.options().getLong(REGEN_TIMEOUT, DEFAULT_REGEN_TIMEOUT, 1, MAX_TIMEOUT);
        return new Ctta(context, regenerate, timeout);
    }

    /**
     * {@code n}: (N-1) CRREQ and one TOKEN per entry when the token comes from elsewhere, the usual
     * case under contention; an entry with the idle token already at the requester costs one less
     * (the exact identity is messages = (N-1) entries + TOKENs).
     */
    @Override
    public double expectedMessagesPerEntry(int n) {
        return n <= 1 ? 0 : n;
    }

    /** The exiting holder sends the token straight to the next requester. */
    @Override
    public double expectedSyncDelay() {
        return 1;
    }

    /**
     * On a live node REGENERATE is off unless configured ({@code dlock.mutex.regenerate=true}):
     * dlock's transports lose no message within a view, and on a partition the recovery would make a
     * second token on the majority side while the cut-off holder, not yet out of its primary view, still
     * uses the first (see {@link io.dlock.protocol.MutexProtocolDefinition#runtimeDefaults()}). Crashes and
     * partitions are handled by the view change instead.
     */
    @Override
    public ProtocolOptions runtimeDefaults() {
        return ProtocolOptions.NONE.with(REGENERATE, "false");
    }
}
