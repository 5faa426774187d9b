package io.dlock.mutex.decentralized;

import io.dlock.protocol.AbstractMutexProtocolDefinition;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolFamily;
import io.dlock.protocol.ProtocolOptions;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Set;

/**
 * Registry entry for {@linkplain Decentralized decentralized majority voting} (docs/algorithms.md A2): every
 * member is a replica coordinator; a client needs {@code m > N/2} votes, a refused client returns its
 * votes and retries after a random exponential back-off. FIFO not required. {@code 3(N-1)} messages
 * per uncontended entry, {@code Σ_a (2(N-1) + g_a)} in general; synchronization delay unbounded.
 *
 * <p>Options:
 * <ul>
 *   <li>{@value #QUORUM}: votes needed, {@code majority} (default, {@code N/2 + 1}, docs/algorithms.md A2's
 *       default), {@code all} (every replica: N) or an integer {@code m >= 1}. The member count N changes with the view, so m is applied as
 *       {@code max(N/2 + 1, min(m, N))}: never less than a strict majority (safety), never more than
 *       N (liveness). Tanenbaum's example {@code m = 3N/4} on 32 replicas is {@code 24}.</li>
 *   <li>{@value #BACKOFF_MS}: base back-off B (default 10): after the t-th failed attempt a client
 *       waits a uniform {@code 1 .. B·2^min(t,cap)} timer units (milliseconds in the runtime, virtual
 *       units in the simulator).</li>
 *   <li>{@value #BACKOFF_CAP}: the cap of that exponent (default {@value #DEFAULT_BACKOFF_CAP}, 0 to 30); a
 *       client that held the CS while its replica refused others also waits one back-off of the full window
 *       before its next request (the courtesy rule, see {@link Decentralized}).</li>
 *   <li>{@value #REPLY_TIMEOUT_MS}: docs/algorithms.md A2 rule 9 (default {@value #DEFAULT_REPLY_TIMEOUT_MS}; 0 turns
 *       it off): an attempt still missing replies after that many timer units counts them as DENY, so
 *       a crashed replica that is still in the view does not block every attempt.</li>
 *   <li>{@value #SEED}: seed of the back-off PRNG where the driver gives none (default 0): the
 *       runtime's nodes draw from a {@link java.util.SplittableRandom} seeded with (seed, node id). The
 *       simulator ignores it: each node's source is forked from the run's seed
 *       ({@link io.dlock.protocol.ProtocolContext#random}).</li>
 * </ul>
 */
public final class DecentralizedDefinition extends AbstractMutexProtocolDefinition<DecentralizedMessage> {

    /** The configuration name. */
    public static final String NAME = "decentralized";
    /** Option key: votes needed ({@code majority}, {@code all} or an integer). */
    public static final String QUORUM = "quorum";
    /** Option key: base back-off in timer units. */
    public static final String BACKOFF_MS = "backoff-ms";
    /** Option key: the largest exponent of the back-off window. */
    public static final String BACKOFF_CAP = "backoff-cap";
    /** Default of {@value #BACKOFF_CAP}: a window of at most 1 024 B, as in docs/algorithms.md A2. */
    public static final int DEFAULT_BACKOFF_CAP = 10;
    /** Option key: seed of the back-off PRNG where the driver gives none. */
    public static final String SEED = "seed";
    /** Option key: reply timeout of an attempt (rule 9), 0 = off. */
    public static final String REPLY_TIMEOUT_MS = "reply-timeout-ms";
    /** Default of {@value #REPLY_TIMEOUT_MS}: far above any reply's round trip, far below a failure detector's delay. */
    public static final long DEFAULT_REPLY_TIMEOUT_MS = 1000;

    /**
     * The settings made last: every lock of a node is created with the same options, so they share one
     * {@link DecentralizedSettings} (immutable; a race at worst makes an equal copy).
     */
    private volatile DecentralizedSettings lastSettings;

    /** Creates the definition; it keeps only the settings made last, so one instance can serve every lock. */
    public DecentralizedDefinition() {
        super(NAME, ProtocolFamily.QUORUM, false, Set.of(QUORUM, BACKOFF_MS, BACKOFF_CAP, SEED, REPLY_TIMEOUT_MS),
                new DecentralizedCodec(), "3(N-1); sum_a 2(N-1)+g_a");
    }

    @Override
    public void validateOptions(ProtocolOptions options) {
        options.requireKeysIn(NAME, optionKeys());
        quorum(options);
        options.getLong(BACKOFF_MS, 10, 1, 1L << 40);
        backoffCap(options);
        options.getLong(SEED, 0, Long.MIN_VALUE, Long.MAX_VALUE);
        options.getLong(REPLY_TIMEOUT_MS, DEFAULT_REPLY_TIMEOUT_MS, 0, 1L << 40);
    }

    private static int backoffCap(ProtocolOptions options) {
        return (int) options.getLong(BACKOFF_CAP, DEFAULT_BACKOFF_CAP, 0, 30);
    }

    private static int quorum(ProtocolOptions options) {
        String v = options.get(QUORUM);
        if (v == null || v.trim().equalsIgnoreCase("majority")) {
            return 0;
        }
        if (v.trim().equalsIgnoreCase("all")) {
            return Integer.MAX_VALUE; // clamped to N
        }
        try {
            return (int) options.getLong(QUORUM, 0, 1, Integer.MAX_VALUE);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("option " + QUORUM + "=" + v
                    + " is not allowed; allowed: majority, all, or an integer >= 1");
        }
    }

    /** @throws IllegalArgumentException if an option is unknown or has a bad value */
    @Override
    public MutexProtocol<DecentralizedMessage> create(ProtocolContext<DecentralizedMessage> context) {
        return new Decentralized(context, settings(context.options()));
    }

    /** The settings of {@code options}: those made last if they were made from equal options, else new ones. */
    private DecentralizedSettings settings(ProtocolOptions options) {
        DecentralizedSettings made = lastSettings;
        if (made != null && made.options().equals(options)) {
            return made;
        }
        validateOptions(options);
        made = new DecentralizedSettings(options, quorum(options), options.getLong(BACKOFF_MS, 10, 1, 1L << 40),
                backoffCap(options), options.getLong(REPLY_TIMEOUT_MS, DEFAULT_REPLY_TIMEOUT_MS, 0, 1L << 40),
                options.getLong(SEED, 0, Long.MIN_VALUE, Long.MAX_VALUE));
        lastSettings = made;
        return made;
    }

    /** Without contention: N-1 REQUEST, N-1 GRANT, N-1 RELEASE (the own replica is local). */
    @Override
    public double expectedMessagesPerEntry(int n) {
        return 3.0 * (n - 1);
    }

    /** Unbounded: a refused client waits a random back-off. */
    @Override
    public double expectedSyncDelay() {
        return Double.NaN;
    }

    /**
     * docs/algorithms.md A2 / DEC-5: the probability that ME1 is violated when each of the m voters of a holder
     * independently resets (forgets its vote) with probability {@code p}:
     * {@code Σ_{k=2m-N}^{m} C(m,k) p^k (1-p)^(m-k)}, computed exactly in {@link BigDecimal} then
     * rounded to a double.
     *
     * @param n replicas, at least 1
     * @param m votes needed, {@code n/2 < m <= n}
     * @param p reset probability, in {@code [0, 1]}
     * @throws IllegalArgumentException for values outside those ranges
     */
    public static double violationProbability(int n, int m, double p) {
        if (n < 1 || m <= n / 2.0 || m > n || !(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("need n >= 1, n/2 < m <= n, 0 <= p <= 1; got n=" + n + ", m=" + m + ", p=" + p);
        }
        MathContext mc = MathContext.DECIMAL128;
        BigDecimal bp = new BigDecimal(p);
        BigDecimal bq = BigDecimal.ONE.subtract(bp);
        BigDecimal sum = BigDecimal.ZERO;
        for (int k = Math.max(0, 2 * m - n); k <= m; k++) {
            BigDecimal term = new BigDecimal(binomial(m, k)).multiply(bp.pow(k, mc), mc).multiply(bq.pow(m - k, mc), mc);
            sum = sum.add(term, mc);
        }
        return sum.doubleValue();
    }

    private static BigInteger binomial(int n, int k) {
        BigInteger r = BigInteger.ONE;
        for (int i = 1; i <= k; i++) {
            r = r.multiply(BigInteger.valueOf(n - k + i)).divide(BigInteger.valueOf(i));
        }
        return r;
    }

    /** Not starvation-free: under contention one node may win every vote for a long time (back-off is random). */
    @Override
    public boolean starvationFree() {
        return false;
    }
}
