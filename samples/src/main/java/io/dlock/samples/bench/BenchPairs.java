package io.dlock.samples.bench;

import io.dlock.DlockConfig;
import io.dlock.MutexVariant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The paired runs of {@code dlock bench --baselines}: for each peer, its cluster is kept up ({@link PeerSession}) and
 * every workload the peers run (uncontended, contended per {@code --threads}, per-key per {@code --per-key} and
 * {@code --threads}, at the smallest {@code --nodes}) runs twice in a row, first on a fresh dlock cluster of the
 * compared algorithm, then on the peer. The two runs of a pair are seconds apart, so the ratio dlock/peer compares two
 * systems under the same load of a shared machine; with whole runs of one system after the other (a minute or more per
 * system), a host whose stolen CPU went from 0 to 40 % between them moved the ratio by 2&times;.
 *
 * <p>The compared algorithm is dlock's default ({@link DlockConfig#DEFAULT_MUTEX}) when {@code --algorithms} has it,
 * else the first of {@code --algorithms}. dlock's row of a pair is {@linkplain BenchRow#pairedWith paired} with the
 * peer, the peer's with the algorithm; the other algorithms are compared with their own run of the round.
 */
final class BenchPairs {

    private final BenchOptions options;
    private final BenchClusters clusters;
    private final BenchPerKey perKey;
    private final BenchBaselines peers;

    BenchPairs(BenchOptions options, BenchClusters clusters, BenchPerKey perKey, BenchBaselines peers) {
        this.options = options;
        this.clusters = clusters;
        this.perKey = perKey;
        this.peers = peers;
    }

    /** The algorithm whose runs are paired with the peers'. */
    MutexVariant algorithm() {
        List<MutexVariant> chosen = options.algorithms.chosen();
        return chosen.stream().filter(v -> v.name().equals(DlockConfig.DEFAULT_MUTEX)).findFirst()
                .orElse(chosen.get(0));
    }

    /** Every peer's pairs of one round, peer by peer; a peer that cannot run here gives none. */
    List<BenchRow> run(int round) throws Exception {
        List<BenchRow> rows = new ArrayList<>();
        for (String peer : peers.peers()) {
            Optional<PeerSession> session = peers.open(peer);
            if (session.isEmpty()) {
                continue;
            }
            try (PeerSession s = session.get()) {
                for (BenchWorkload w : workloads()) {
                    rows.add(dlock(w).pairedWith(peer).inRound(round));
                    rows.add(s.run(w.command()).pairedWith(algorithm().name()).inRound(round));
                }
            }
        }
        return rows;
    }

    /** The peers skipped, each once: "name: why, and how to install its server". */
    List<String> skipped() {
        return peers.skipped();
    }

    /**
     * The workloads of a pair, in the order they run: uncontended, contended per thread count, per-key per K and
     * thread count.
     */
    List<BenchWorkload> workloads() {
        List<BenchWorkload> out = new ArrayList<>();
        out.add(new BenchWorkload("uncontended", 1, 0));
        options.threads.forEach(t -> out.add(new BenchWorkload("contended", t, 0)));
        for (int k : options.perKeys()) {
            options.threads.forEach(t -> out.add(new BenchWorkload(BenchPerKey.KIND, t, k)));
        }
        return out;
    }

    private BenchRow dlock(BenchWorkload w) throws Exception {
        int n = options.nodes.counts().get(0);
        return switch (w.kind()) {
            case "uncontended" -> clusters.measureOne("jgroups", algorithm(), n, true, 1);
            case "contended" -> clusters.measureOne("jgroups", algorithm(), n, false, w.threads());
            default -> perKey.measureOne("jgroups", algorithm(), n, w.keys(), w.threads());
        };
    }
}
