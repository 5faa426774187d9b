package io.dlock.samples.bench;

import io.dlock.DlockConfig;
import io.dlock.MutexAlgorithm;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.samples.MutexVariantConverter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * The speed goals of {@code dlock bench}, one line each, from the rows of one run: the measured ratio, the target
 * and whether it is met. A goal whose rows were not measured (an algorithm, transport, thread count or the
 * baselines left out) is printed as "not measured". Where a goal covers every algorithm, the line shows the
 * worst one. Only JGroups rows count: the goals are about the real transport.
 *
 * <ul>
 *   <li>centralized uncontended lock+unlock &le; 1.5 &times; the unicast round trip;</li>
 *   <li>ricart-agrawala and lamport uncontended &le; 1.5 &times; the parallel round trip (the slowest of N-1 at
 *       once), at the floor's size;</li>
 *   <li>(both round-trip goals divide by the round trip timed interleaved with that algorithm's run, in the same
 *       slices, where the run has one; else by the floor's own run);</li>
 *   <li>a held token re-entered with no message (suzuki-kasami's uncontended run) in &le; 2 &micro;s;</li>
 *   <li>every algorithm &ge; 2 &times; JGroups CENTRAL_LOCK2 on uncontended latency and on contended throughput
 *       with 1 and 4 threads per node (3 nodes, the baselines' size), each ratio from one round (one pair for the
 *       algorithm paired with the peers), the worst algorithm and round;</li>
 *   <li>dlock's default configuration ({@link DlockConfig#DEFAULT_MUTEX}) &ge; 2 &times; every peer of
 *       {@code --baselines} (Hazelcast, Redisson, Curator, etcd, CENTRAL_LOCK2) on every workload the peers ran
 *       (uncontended latency, contended and per-key throughput), in every round: one line per peer, its worst
 *       workload and round;</li>
 *   <li>contended throughput with 4 threads per node &ge; with 1, for every algorithm and size, and Jain's index
 *       &ge; 0.95 at 4 threads for the algorithms that promise no starvation;</li>
 *   <li>the token algorithms' saturated throughput (4 threads per node) &ge; 1.5 &times; centralized's, at 3 and 5
 *       nodes.</li>
 * </ul>
 */
final class BenchGoals {

    private static final String JGROUPS = "jgroups";
    private static final String CENTRAL_LOCK2 = "central-lock2";
    /** The algorithms that move a token (or, for Raynal, a privilege) and need no message while it stays. */
    private static final Set<String> TOKEN_ALGORITHMS = Set.of(MutexAlgorithm.SUZUKI_KASAMI.configName(),
            MutexAlgorithm.RAYMOND.configName(), MutexAlgorithm.NAIMI_TREHEL.configName(),
            MutexAlgorithm.TOKEN_RING.configName(), MutexAlgorithm.CTTA.configName());

    private final List<BenchRow> rows;
    private final List<String> lines = new ArrayList<>();

    private BenchGoals(List<BenchRow> rows) {
        this.rows = rows;
    }

    /** The goals section of the text report; empty if no JGroups row was measured. */
    static String text(List<BenchRow> rows) {
        if (rows.stream().noneMatch(r -> r.transport().equals(JGROUPS) && r.system().equals("dlock"))) {
            return "";
        }
        BenchGoals goals = new BenchGoals(rows);
        goals.evaluate();
        StringBuilder sb = new StringBuilder("Speed goals (JGroups, ratios from this run)\n");
        goals.lines.forEach(line -> sb.append(line).append('\n'));
        return sb.append('\n').toString();
    }

    private void evaluate() {
        String central = MutexAlgorithm.CENTRALIZED.configName();
        String centralWhat = "centralized uncontended / unicast round trip";
        Optional<BenchRow> c = uncontended(central);
        Optional<BenchRow> unicast = BenchFloor.of(rows, BenchFloor.UNICAST_RTT, central);
        if (c.isPresent() && unicast.isPresent()) {
            atMost(centralWhat, c.get().medianUs() / unicast.get().medianUs(), 1.5, floorNote("rtt", unicast.get()));
        } else {
            missing(centralWhat);
        }
        for (MutexAlgorithm a : List.of(MutexAlgorithm.RICART_AGRAWALA, MutexAlgorithm.LAMPORT)) {
            String what = a.configName() + " uncontended / parallel round trip";
            Optional<BenchRow> u = uncontended(a.configName()).filter(r -> r.nodes() == BenchFloor.NODES);
            Optional<BenchRow> parallel = BenchFloor.of(rows, BenchFloor.PARALLEL_RTT, a.configName());
            if (u.isPresent() && parallel.isPresent()) {
                atMost(what, u.get().medianUs() / parallel.get().medianUs(), 1.5,
                        floorNote("parallel rtt", parallel.get()));
            } else {
                missing(what);
            }
        }
        uncontended(MutexAlgorithm.SUZUKI_KASAMI.configName()).filter(r -> r.msgsPerEntry() == 0).ifPresentOrElse(
                r -> atMost("held token re-entered, no message (suzuki-kasami), us", r.medianUs(), 2.0, ""),
                () -> missing("held token re-entered, no message (suzuki-kasami), us"));
        againstCentralLock2();
        againstPeers();
        threadsScale();
        tokensAgainstCentralized();
    }

    /**
     * Every algorithm at least twice as fast as CENTRAL_LOCK2: uncontended latency, contended at 1 and 4 threads. Each
     * ratio is from one round (from one pair for the algorithm paired with the peers, {@link BenchPairs}), as the
     * peers' ratios are; the line shows the worst algorithm and round.
     */
    private void againstCentralLock2() {
        List<String> algorithms = rows.stream().filter(BenchGoals::isDlock).map(BenchRow::algorithm).distinct()
                .toList();
        worstAgainstCentralLock2("central-lock2 uncontended / dlock's, worst algorithm", algorithms,
                w -> w.kind().equals("uncontended"));
        for (int threads : List.of(1, 4)) {
            worstAgainstCentralLock2("dlock contended / central-lock2, " + threads + " thread(s) per node, worst "
                    + "algorithm", algorithms, w -> w.kind().equals("contended") && w.threads() == threads);
        }
    }

    private void worstAgainstCentralLock2(String what, List<String> algorithms, Predicate<BenchWorkload> workload) {
        BenchPeersReport.PeerRatio worst = null;
        String worstAlgorithm = null;
        for (String a : algorithms) {
            for (BenchPeersReport.PeerRatio r : BenchPeersReport.ratios(rows, a)) {
                if (r.peer().equals(CENTRAL_LOCK2) && workload.test(r.workload())
                        && (worst == null || r.ratio() < worst.ratio())) {
                    worst = r;
                    worstAlgorithm = a;
                }
            }
        }
        if (worst == null) {
            missing(what);
        } else {
            boolean rounds = rows.stream().anyMatch(r -> r.round() > 1);
            atLeast(what, worst.ratio(), 2.0, worstAlgorithm + (rounds ? ", round " + worst.round() : "")
                    + noisy(worst));
        }
    }

    /**
     * dlock's default configuration at least twice as fast as every peer, on each workload the peers ran and in each
     * round: a line per peer with its worst cell. Nothing when no peer ran (a run without {@code --baselines}).
     */
    private void againstPeers() {
        String algorithm = DlockConfig.DEFAULT_MUTEX.configName();
        List<BenchPeersReport.PeerRatio> ratios = BenchPeersReport.ratios(rows, algorithm);
        ratios.stream().map(BenchPeersReport.PeerRatio::peer).distinct().forEach(peer -> {
            BenchPeersReport.PeerRatio worst = ratios.stream().filter(r -> r.peer().equals(peer))
                    .min(Comparator.comparingDouble(BenchPeersReport.PeerRatio::ratio)).orElseThrow();
            long cells = ratios.stream().filter(r -> r.peer().equals(peer)).count();
            atLeast("dlock default (" + algorithm + ") / " + peer + ", worst of " + cells + " workload-rounds",
                    worst.ratio(), 2.0, worst.label() + ", round " + worst.round() + noisy(worst));
        });
    }

    /** What a worst cell from a pair still noisy after its last attempt adds to its goal line. */
    private static String noisy(BenchPeersReport.PeerRatio worst) {
        return worst.noisy() ? ", noisy pair" : "";
    }

    /** 4 threads per node at least as fast as 1, for every algorithm and size; fairness kept. */
    private void threadsScale() {
        String what = "4 threads / 1 thread per node, worst algorithm and size";
        BenchRow worst = null;
        double worstRatio = Double.POSITIVE_INFINITY;
        for (BenchRow four : rows.stream().filter(r -> isDlock(r) && r.kind().equals("contended") && r.threads() == 4)
                .toList()) {
            Optional<BenchRow> one = contended(four.nodes(), 1).stream()
                    .filter(r -> r.algorithm().equals(four.algorithm())).findFirst();
            if (one.isPresent()) {
                double ratio = four.opsPerSec() / one.get().opsPerSec();
                if (ratio < worstRatio) {
                    worstRatio = ratio;
                    worst = four;
                }
            }
        }
        if (worst != null) {
            atLeast(what, worstRatio, 1.0, worst.algorithm() + ", " + worst.nodes() + " nodes");
        } else {
            missing(what);
        }
        String fair = "Jain's index at 4 threads per node, worst starvation-free algorithm";
        List<BenchRow> fairRows = rows.stream().filter(r -> isDlock(r) && r.kind().equals("contended")
                && r.threads() == 4 && starvationFree(r.algorithm())).toList();
        if (fairRows.isEmpty()) {
            missing(fair);
        } else {
            BenchRow least = fairRows.stream().min(Comparator.comparingDouble(BenchRow::jain)).orElseThrow();
            atLeast(fair, least.jain(), 0.95, least.algorithm() + ", " + least.nodes() + " nodes");
        }
    }

    /** The token algorithms saturated (4 threads per node) at least 1.5 times centralized, at 3 and 5 nodes. */
    private void tokensAgainstCentralized() {
        for (int nodes : List.of(3, 5)) {
            String what = "token algorithms / centralized saturated, " + nodes + " nodes, worst token algorithm";
            Optional<BenchRow> central = contended(nodes, 4).stream()
                    .filter(r -> r.algorithm().equals(MutexAlgorithm.CENTRALIZED.configName())).findFirst();
            List<BenchRow> tokens = contended(nodes, 4).stream()
                    .filter(r -> TOKEN_ALGORITHMS.contains(r.algorithm())).toList();
            if (central.isPresent() && !tokens.isEmpty()) {
                BenchRow worst = worst(tokens, r -> r.opsPerSec() / central.get().opsPerSec());
                atLeast(what, worst.opsPerSec() / central.get().opsPerSec(), 1.5, worst.algorithm());
            } else {
                missing(what);
            }
        }
    }

    /** Whether the algorithm (or variant) of that name promises that every request is granted. */
    private static boolean starvationFree(String name) {
        try {
            return AlgorithmDefinitions.mutex(new MutexVariantConverter().convert(name).algorithm()).starvationFree();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static boolean isDlock(BenchRow r) {
        return r.system().equals("dlock") && r.transport().equals(JGROUPS) && r.handoff() == 0
                && r.pairedWith().isEmpty();
    }

    private static String floorNote(String what, BenchRow floor) {
        return String.format(Locale.ROOT, "%s %.1f us%s", what, floor.medianUs(),
                floor.pairedWith().isEmpty() ? " (floor run)" : " (same slices)");
    }

    private Optional<BenchRow> uncontended(String algorithm) {
        return rows.stream().filter(r -> isDlock(r) && r.kind().equals("uncontended")
                && r.algorithm().equals(algorithm)).findFirst();
    }

    private List<BenchRow> contended(int nodes, int threads) {
        return rows.stream().filter(r -> isDlock(r) && r.kind().equals("contended") && r.nodes() == nodes
                && r.threads() == threads).toList();
    }

    private static BenchRow worst(List<BenchRow> candidates, ToDoubleFunction<BenchRow> ratio) {
        return candidates.stream().min(Comparator.comparingDouble(ratio)).orElseThrow();
    }

    private void atMost(String what, double measured, double target, String note) {
        line(what, measured, "<= " + target, measured <= target, note);
    }

    private void atLeast(String what, double measured, double target, String note) {
        line(what, measured, ">= " + target, measured >= target, note);
    }

    private void line(String what, double measured, String target, boolean met, String note) {
        lines.add(String.format(Locale.ROOT, "%-78s %8.2f  %-7s %-8s %s", what, measured, target,
                met ? "met" : "NOT met", note).stripTrailing());
    }

    private void missing(String what) {
        lines.add(String.format(Locale.ROOT, "%-78s %8s  %-7s %s", what, "-", "", "not measured"));
    }
}
