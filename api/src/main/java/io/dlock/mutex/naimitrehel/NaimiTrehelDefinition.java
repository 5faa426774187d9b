package io.dlock.mutex.naimitrehel;

import io.dlock.protocol.AbstractMutexProtocolDefinition;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolFamily;
import io.dlock.protocol.ProtocolOptions;
import java.util.Set;

/**
 * Registry entry for {@linkplain NaimiTrehel Naimi-Trehel} (docs/algorithms.md A9): path reversal over
 * {@code LAST}/{@code NEXT} pointers, O(log N) messages per entry on average, N at worst, 0 for the
 * idle root; synchronization delay T; FIFO not required.
 *
 * <p>Options:
 * <ul>
 *   <li>{@value #FAULT_TOLERANT} ({@code true}/{@code false}, default {@code true}, but {@code false} on a live
 *       node unless configured: {@link #runtimeDefaults()}): run the source notes'
 *       recovery (rules 5-17: Twait, Telec, consult, query, candidate election);</li>
 *   <li>{@value #TWAIT} (default {@value #DEFAULT_TWAIT}): how long a requester waits for the token
 *       before it consults the others (rule 7);</li>
 *   <li>{@value #TELEC} (default {@value #DEFAULT_TELEC}): the length of each consult, query and
 *       election phase (rules 10, 13, 15); must exceed twice the largest message delay.</li>
 * </ul>
 * Times are milliseconds in the runtime and virtual time units in the simulator.
 */
public final class NaimiTrehelDefinition extends AbstractMutexProtocolDefinition<NaimiTrehelMessage> {

    /** The configuration name. */
    public static final String NAME = "naimi-trehel";
    /** Option key: run the recovery protocol. */
    public static final String FAULT_TOLERANT = "fault-tolerant";
    /** Option key: Twait. */
    public static final String TWAIT = "twait";
    /** Option key: Telec. */
    public static final String TELEC = "telec";
    /** Default Twait. */
    public static final long DEFAULT_TWAIT = 5000;
    /** Default Telec. */
    public static final long DEFAULT_TELEC = 500;

    /** Largest timeout accepted (2^40; CTTA backs off up to 2^10 times it without overflow). */
    public static final long MAX_TIMEOUT = 1L << 40;

    /** Creates the definition; stateless, so one instance can serve every lock. */
    public NaimiTrehelDefinition() {
        super(NAME, ProtocolFamily.TOKEN, false, Set.of(FAULT_TOLERANT, TWAIT, TELEC),
                new NaimiTrehelCodec(), "avg O(log N); worst N");
    }

    /**
     * {@value #FAULT_TOLERANT} is a boolean; the timeouts are whole numbers from 1 to {@value #MAX_TIMEOUT}.
     *
     * @throws IllegalArgumentException for an unknown key or a bad value, saying what is allowed
     */
    @Override
    public void validateOptions(ProtocolOptions options) {
        options.requireKeysIn(NAME, optionKeys());
        options.getBoolean(FAULT_TOLERANT, true);
        options.getLong(TWAIT, 0, 1, MAX_TIMEOUT);
        options.getLong(TELEC, 0, 1, MAX_TIMEOUT);
    }

    /** @throws IllegalArgumentException if an option is unknown or has a bad value */
    @Override
    public MutexProtocol<NaimiTrehelMessage> create(ProtocolContext<NaimiTrehelMessage> context) {
        context.options().requireKeysIn(NAME, optionKeys());
        boolean faultTolerant = context.options().getBoolean(FAULT_TOLERANT, true);
        long twait = context.options().getLong(TWAIT, DEFAULT_TWAIT, 1, MAX_TIMEOUT);
        long telec = context.options().getLong(TELEC, DEFAULT_TELEC, 1, MAX_TIMEOUT);
        return new NaimiTrehel(context, faultTolerant, twait, telec);
    }

    /**
     * An estimate, not an identity: {@code log2(n)}, the order of the average cost (the measured
     * average under the simulator's random workload stays below it, see the simulation tests).
     */
    @Override
    public double expectedMessagesPerEntry(int n) {
        return n <= 1 ? 0 : Math.log(n) / Math.log(2);
    }

    /** The exiting holder sends the token straight to NEXT. */
    @Override
    public double expectedSyncDelay() {
        return 1;
    }

    /**
     * On a live node the source notes' in-epoch recovery is off unless configured ({@code dlock.mutex.fault-tolerant=true}):
     * dlock's transports lose no message within a view, and on a partition the recovery would make a
     * second token on the majority side while the cut-off holder, not yet out of its primary view, still
     * uses the first (see {@link io.dlock.protocol.MutexProtocolDefinition#runtimeDefaults()}). Crashes and
     * partitions are handled by the view change instead.
     */
    @Override
    public ProtocolOptions runtimeDefaults() {
        return ProtocolOptions.NONE.with(FAULT_TOLERANT, "false");
    }
}
