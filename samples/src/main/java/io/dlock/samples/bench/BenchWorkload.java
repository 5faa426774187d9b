package io.dlock.samples.bench;

import io.dlock.bench.PeerProtocol;
import java.util.Comparator;

/**
 * One workload that dlock and the peers both run ({@code dlock bench --baselines}).
 *
 * @param kind    uncontended, contended or per-key
 * @param threads threads per node (1 for uncontended)
 * @param keys    K of a per-key workload, else 0
 */
record BenchWorkload(String kind, int threads, int keys) {

    /** Uncontended first, then contended, then per-key; then by K and threads. */
    static final Comparator<BenchWorkload> ORDER = Comparator.comparingInt(BenchWorkload::rank)
            .thenComparingInt(BenchWorkload::keys).thenComparingInt(BenchWorkload::threads);

    static BenchWorkload of(BenchRow r) {
        return new BenchWorkload(r.kind(), r.threads(), r.perKey().keys());
    }

    boolean matches(BenchRow r) {
        return r.kind().equals(kind) && r.threads() == threads && r.perKey().keys() == keys;
    }

    /** How the report names it: "uncontended", "3x4", "K=1000 3x4". */
    String label(int nodes) {
        return switch (kind) {
            case "uncontended" -> "uncontended";
            case "contended" -> nodes + "x" + threads;
            default -> "K=" + keys + " " + nodes + "x" + threads;
        };
    }

    /** The baselines jar's command that runs it ({@link PeerProtocol}, {@link PeerSession#run}). */
    String command() {
        return switch (kind) {
            case "uncontended" -> PeerProtocol.UNCONTENDED;
            case "contended" -> PeerProtocol.contended(threads);
            default -> PeerProtocol.perKey(keys, threads);
        };
    }

    private int rank() {
        return switch (kind) {
            case "uncontended" -> 0;
            case "contended" -> 1;
            default -> 2;
        };
    }
}
