package io.dlock.mutex.maekawa;

import io.dlock.protocol.AbstractMutexProtocolDefinition;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolFamily;
import io.dlock.protocol.ProtocolOptions;
import java.util.Set;

/**
 * Registry entry for {@linkplain Maekawa Maekawa's algorithm}, deadlock-free version (docs/algorithms.md A10:
 * FAILED, INQUIRE, RELINQUISH and the displacement rule): quorum-based, <b>requires FIFO
 * channels</b>, {@code 3(K-1)} messages per entry without contention and up to about
 * {@code 5(K-1)} under load (K = quorum size), synchronization delay 2T.
 *
 * <p>Option {@value #QUORUM} ({@value #PLANE} or {@value #GRID}, default {@value #PLANE}): how the
 * request sets are built (see {@link Quorums}). {@value #PLANE}: from the projective plane of order
 * q, the smallest prime power with {@code q^2 + q + 1 >= N}, so {@code K <= q + 1} (about √N, as the
 * source notes' 3√N … 5√N cost assumes): N = 7, 9, 13, 16, 31, 57 give K = 3, 4, 4, 5, 6, 8 at most.
 * {@value #GRID}: rows and columns of a square grid, {@code K <= 2 ceil(√N) - 1} (K = 5, 7, 19 for
 * N = 9, 16, 100), kept for comparison.
 *
 * <p>Option {@value #BASIC} ({@code true}/{@code false}, default {@code false}): run the basic
 * version of notes S4 (MA1-MA5) instead: an arbiter locks for the first request it sees and queues
 * the others, with no FAILED, INQUIRE or RELINQUISH. It <b>can deadlock</b> (notes S4's example,
 * docs/algorithms.md MK-3) and is there to show why the default exists; {@code 3(K-1)} messages per entry on
 * every schedule that does not deadlock.
 */
public final class MaekawaDefinition extends AbstractMutexProtocolDefinition<MaekawaMessage> {

    /** The configuration name. */
    public static final String NAME = "maekawa";

    /** Option key: run the basic version (MA1-MA5), which can deadlock. */
    public static final String BASIC = "basic";
    /** Option key: how request sets are built, {@value #PLANE} (default) or {@value #GRID}. */
    public static final String QUORUM = "quorum";
    /** Value of {@value #QUORUM}: request sets from a finite projective plane, {@code K <= q + 1}. */
    public static final String PLANE = "plane";
    /** Value of {@value #QUORUM}: request sets are the rows and columns of a grid, {@code K <= 2 ceil(√N) - 1}. */
    public static final String GRID = "grid";

    /** Creates the definition; stateless, so one instance can serve every lock. */
    public MaekawaDefinition() {
        super(NAME, ProtocolFamily.QUORUM, true, Set.of(BASIC, QUORUM), new MaekawaCodec(), "3(K-1)..5(K-1), K=|S_i|");
    }

    @Override
    public void validateOptions(ProtocolOptions options) {
        options.requireKeysIn(NAME, optionKeys());
        options.getBoolean(BASIC, false);
        quorumKind(options);
    }

    /**
     * @throws IllegalArgumentException if an option is unknown, {@value #BASIC} is not a boolean or
     *                                  {@value #QUORUM} is neither {@value #PLANE} nor {@value #GRID}
     */
    @Override
    public MutexProtocol<MaekawaMessage> create(ProtocolContext<MaekawaMessage> context) {
        validateOptions(context.options());
        boolean basic = context.options().getBoolean(BASIC, false);
        return new Maekawa(context, !basic, quorumKind(context.options()));
    }

    private static Quorums.Kind quorumKind(ProtocolOptions options) {
        String v = options.get(QUORUM);
        if (v == null) {
            return Quorums.Kind.PLANE;
        }
        for (Quorums.Kind kind : Quorums.Kind.values()) {
            if (kind.optionValue().equalsIgnoreCase(v.trim())) {
                return kind;
            }
        }
        throw new IllegalArgumentException("option " + QUORUM + "=" + v + " is not allowed; allowed: " + PLANE + ", " + GRID);
    }

    /** Without contention: {@code 3(K-1)} averaged over the nodes' quorum sizes K (default quorums). */
    @Override
    public double expectedMessagesPerEntry(int n) {
        return uncontended(n);
    }

    /** {@code 3(K-1)} averaged over the default (plane) quorum sizes of {@code n} nodes: the cost of an uncontended entry. */
    public static double uncontended(int n) {
        return uncontended(n, ProtocolOptions.NONE);
    }

    /**
     * {@code 3(K-1)} averaged over the quorum sizes of {@code n} nodes with the quorums {@code options}
     * choose: the cost of an uncontended entry.
     *
     * @throws IllegalArgumentException if {@value #QUORUM} has a bad value
     */
    public static double uncontended(int n, ProtocolOptions options) {
        return 3 * (Quorums.forSize(n, quorumKind(options)).meanSize() - 1);
    }

    /**
     * The largest quorum size K of {@code n} nodes with the quorums {@code options} choose.
     *
     * @throws IllegalArgumentException if {@value #QUORUM} has a bad value
     */
    public static int maxQuorumSize(int n, ProtocolOptions options) {
        return java.util.Arrays.stream(Quorums.forSize(n, quorumKind(options)).sizes()).max().orElse(0);
    }

    /** RELEASE to an arbiter, then LOCKED to the next requester. */
    @Override
    public double expectedSyncDelay() {
        return 2;
    }
}
