package io.dlock.samples.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The peers' part of {@code dlock bench --baselines}'s text report: dlock's JGroups rows and every peer's on the same
 * workloads (uncontended, contended per thread count, per-key per K and thread count, at the peers' node count), round
 * by round:
 * <ol>
 *   <li>throughput, one line per system and one column per workload, a cell per round ("r1 / r2"); above each peer,
 *       dlock's runs paired with it ("dlock ALGORITHM, before PEER", {@link BenchPairs});</li>
 *   <li>the details, one line per system, workload and round: median and p99 (uncontended) and the median of the
 *       unlock alone, ops/s, CPU per operation (a peer's: its JVM and its server processes), the stolen share of the
 *       host's CPU, Jain's index over the nodes, failures; then the attempts of pairs run again for noisy steal
 *       ({@link BenchPairs#quietPair}), which count in no ratio;</li>
 *   <li>the ratios dlock/peer, one line per dlock algorithm and peer, a cell per workload and round: how many times
 *       faster dlock is (uncontended: the peer's median over dlock's; otherwise dlock's ops/s over the peer's), each
 *       from one pair (dlock's run right before the peer's, seconds apart) where there is one, else from dlock's run
 *       of the same round; marked {@value #NOISY} where the pair stayed noisy;</li>
 *   <li>the peers skipped, each with how to install its server.</li>
 * </ol>
 */
final class BenchPeersReport {

    /** The system of dlock's rows. */
    private static final String DLOCK = "dlock";
    /** After a ratio from a pair still {@linkplain BenchPairs#noisy noisy} after its last attempt. */
    static final String NOISY = "~";

    private final List<BenchRow> rows;
    private final int nodes;
    private final List<BenchWorkload> workloads;
    private final List<Integer> rounds;
    private final List<String> dlockSystems;
    private final List<String> peerSystems;

    private BenchPeersReport(List<BenchRow> rows, List<BenchRow> peerRows) {
        this.rows = rows;
        this.nodes = peerRows.get(0).nodes();
        this.workloads = peerRows.stream().map(BenchWorkload::of).distinct().sorted(BenchWorkload.ORDER).toList();
        this.rounds = peerRows.stream().map(BenchRow::round).distinct().sorted().toList();
        this.peerSystems = peerRows.stream().map(BenchPeersReport::system).distinct().toList();
        this.dlockSystems = rows.stream().filter(this::isComparableDlock).map(BenchPeersReport::system).distinct()
                .toList();
    }

    /** The peers' tables, or only the skipped peers' lines if no peer ran; empty without peers. */
    static String text(List<BenchRow> rows, List<String> skipped) {
        StringBuilder sb = new StringBuilder();
        List<BenchRow> peerRows = rows.stream().filter(BenchPeersReport::isPeer).toList();
        if (!peerRows.isEmpty()) {
            new BenchPeersReport(rows, peerRows).tables(sb);
        }
        if (!skipped.isEmpty()) {
            sb.append("Peers skipped (their server is not installed):\n");
            skipped.forEach(s -> sb.append("  ").append(s).append('\n'));
            sb.append('\n');
        }
        return sb.toString();
    }

    /**
     * One cell of the dlock/peer ratios: how many times faster one dlock algorithm was than one peer on one workload
     * in one round.
     *
     * @param peer     the peer's system name
     * @param workload the workload both ran
     * @param label    the workload as the report names it ("uncontended", "3x4", "K=1000 3x4")
     * @param round the round both ran in
     * @param ratio dlock's speed over the peer's ({@link #ratio}): above 1, dlock is faster
     * @param noisy whether it comes from a pair still {@linkplain BenchPairs#noisy noisy} after its last attempt
     */
    record PeerRatio(String peer, BenchWorkload workload, String label, int round, double ratio, boolean noisy) {
    }

    /**
     * Every ratio of dlock's {@code algorithm} (JGroups, no local hand-off, at the peers' node count) over each peer,
     * per workload and round where both ran; empty where no peer ran.
     */
    static List<PeerRatio> ratios(List<BenchRow> rows, String algorithm) {
        List<BenchRow> peerRows = rows.stream().filter(BenchPeersReport::isPeer).toList();
        if (peerRows.isEmpty()) {
            return List.of();
        }
        BenchPeersReport report = new BenchPeersReport(rows, peerRows);
        String dlock = DLOCK + " " + algorithm;
        List<PeerRatio> out = new ArrayList<>();
        for (String peer : report.peerSystems) {
            for (BenchWorkload w : report.workloads) {
                for (int round : report.rounds) {
                    Optional<BenchRow> d = report.dlockFor(dlock, peer, w, round);
                    Optional<BenchRow> p = report.find(peer, w, round);
                    double r = ratio(d, p, w);
                    if (!Double.isNaN(r)) {
                        out.add(new PeerRatio(peer, w, w.label(report.nodes), round, r, noisyPair(d, p)));
                    }
                }
            }
        }
        return out;
    }

    /** Whether the row is a peer's: neither dlock's nor the JGroups floor's. */
    static boolean isPeer(BenchRow r) {
        return !r.system().equals(DLOCK) && !r.kind().equals("floor");
    }

    /**
     * "dlock ALGORITHM" for dlock's rows of its own round, "dlock ALGORITHM, before PEER" for its runs paired with a
     * peer's ({@link BenchPairs}), the peer's name for a peer's.
     */
    static String system(BenchRow r) {
        if (!r.system().equals(DLOCK)) {
            return r.system();
        }
        return r.pairedWith().isEmpty() ? DLOCK + " " + r.algorithm() : paired(DLOCK + " " + r.algorithm(), r.pairedWith());
    }

    /** The system name of dlock's {@code dlock} ("dlock ALGORITHM") runs paired with {@code peer}'s. */
    private static String paired(String dlock, String peer) {
        return dlock + ", before " + peer;
    }

    /** dlock's row of its own round: JGroups, no hand-off, at the peers' node count, on a workload the peers ran. */
    private boolean isComparableDlock(BenchRow r) {
        return r.pairedWith().isEmpty() && isDlockOnPeerWorkload(r);
    }

    private boolean isDlockOnPeerWorkload(BenchRow r) {
        return r.system().equals(DLOCK) && r.transport().equals("jgroups") && r.handoff() == 0 && r.nodes() == nodes
                && workloads.stream().anyMatch(w -> w.matches(r));
    }

    /**
     * The dlock row to compare with {@code peer}'s: the run paired with it if there is one (seconds before the peer's),
     * else {@code dlock}'s run of the round.
     */
    private Optional<BenchRow> dlockFor(String dlock, String peer, BenchWorkload w, int round) {
        return find(paired(dlock, peer), w, round).or(() -> find(dlock, w, round));
    }

    private Optional<BenchRow> find(String system, BenchWorkload w, int round) {
        return rows.stream().filter(r -> system(r).equals(system) && w.matches(r) && r.round() == round
                && r.nodes() == nodes && !BenchPairs.isSetAside(r) && (isPeer(r) || isDlockOnPeerWorkload(r)))
                .findFirst();
    }

    private void tables(StringBuilder sb) {
        String perRound = rounds.size() > 1 ? ", one figure per round (" + String.join(" / ",
                rounds.stream().map(r -> "r" + r).toList()) + ")" : "";
        List<String> systems = new ArrayList<>(dlockSystems);
        for (String peer : peerSystems) {
            dlockSystems.stream().map(d -> paired(d, peer))
                    .filter(p -> rows.stream().anyMatch(r -> system(r).equals(p))).forEach(systems::add);
            systems.add(peer);
        }

        sb.append("Peers: the locks users would pick instead, on dlock's workloads, ").append(nodes)
                .append(" nodes on 127.0.0.1; ops/s").append(perRound).append('\n');
        if (systems.size() > dlockSystems.size() + peerSystems.size()) {
            sb.append("\"dlock X, before P\": dlock's run of each workload right before P's run of it, seconds apart "
                    + "(a pair); the ratios below use them\n");
        }
        List<List<String>> throughput = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("system", "runs on"));
        workloads.forEach(w -> header.add(w.label(nodes)));
        throughput.add(header);
        for (String system : systems) {
            List<String> line = new ArrayList<>(List.of(system, transportOf(system)));
            for (BenchWorkload w : workloads) {
                line.add(perRound(round -> find(system, w, round).map(r -> BenchReport.f(r.opsPerSec(), "%.0f"))
                        .orElse("-")));
            }
            throughput.add(line);
        }
        render(throughput, sb);
        sb.append('\n');

        sb.append("Peers in detail (median and p99 of uncontended lock+unlock, and the median of its unlock alone; "
                + "cpu us per op counts a peer's server "
                + "processes; stolen: the share of the host's CPU time the hypervisor gave to other guests in the "
                + "measured window)\n");
        List<List<String>> detail = new ArrayList<>();
        detail.add(List.of("system", "workload", "rd", "ops/s", "median us", "p99 us", "unlock us", "cpu us", "stolen",
                "jain", "failures"));
        for (String system : systems) {
            for (BenchWorkload w : workloads) {
                for (int round : rounds) {
                    find(system, w, round).ifPresent(r -> detail.add(List.of(system, w.label(nodes),
                            Integer.toString(round), BenchReport.f(r.opsPerSec(), "%.0f"),
                            BenchReport.f(r.medianUs(), "%.1f"), BenchReport.f(r.p99Us(), "%.1f"),
                            BenchReport.f(r.unlockUs(), "%.1f"), BenchReport.f(r.cpuUs(), "%.1f"),
                            BenchReport.f(100 * r.stolenShare(), "%.1f %%"), BenchReport.f(r.jain(), "%.3f"),
                            Long.toString(r.failures()))));
                }
            }
        }
        render(detail, sb);
        sb.append('\n');
        setAside(sb);

        if (!dlockSystems.isEmpty()) {
            sb.append("dlock / peer: how many times faster dlock is (uncontended: peer median / dlock median; else "
                    + "dlock ops/s / peer ops/s; > 1: dlock faster), each from one pair where there is one, else from "
                    + "one round").append(perRound).append('\n');
            List<List<String>> ratios = new ArrayList<>();
            List<String> head = new ArrayList<>(List.of("dlock", "peer"));
            workloads.forEach(w -> head.add(w.label(nodes)));
            ratios.add(head);
            for (String d : dlockSystems) {
                for (String peer : peerSystems) {
                    List<String> line = new ArrayList<>(List.of(d.substring(DLOCK.length() + 1), peer));
                    for (BenchWorkload w : workloads) {
                        line.add(perRound(round -> ratioCell(dlockFor(d, peer, w, round), find(peer, w, round), w)));
                    }
                    ratios.add(line);
                }
            }
            render(ratios, sb);
            if (ratios.stream().flatMap(List::stream).anyMatch(c -> c.contains(NOISY))) {
                sb.append(NOISY).append(": from a pair still noisy after its last attempt (its runs' stolen shares "
                        + "differed by more than ").append(BenchReport.f(100 * BenchPairs.EVEN_STEAL, "%.0f"))
                        .append(" points, or one was above ").append(BenchReport.f(100 * BenchPairs.QUIET_STEAL, "%.0f"))
                        .append(" %): a figure of the host as much as of the locks\n");
            }
            sb.append('\n');
        }
    }

    /** The attempts of pairs run again for noisy steal ({@link BenchPairs#quietPair}), if any: they count nowhere. */
    private void setAside(StringBuilder sb) {
        List<BenchRow> aside = rows.stream().filter(BenchPairs::isSetAside).toList();
        if (aside.isEmpty()) {
            return;
        }
        sb.append("Pairs run again: the stolen shares of their two runs differed by more than ")
                .append(BenchReport.f(100 * BenchPairs.EVEN_STEAL, "%.0f")).append(" points, or one was above ")
                .append(BenchReport.f(100 * BenchPairs.QUIET_STEAL, "%.0f")).append(" %; the quietest attempt is the "
                        + "one above, these were set aside\n");
        List<List<String>> lines = new ArrayList<>();
        lines.add(List.of("system", "workload", "rd", "ops/s", "median us", "stolen"));
        for (BenchRow r : aside) {
            lines.add(List.of(r.system().equals(DLOCK) ? DLOCK + " " + r.algorithm() : r.system(),
                    BenchWorkload.of(r).label(nodes), Integer.toString(r.round()), BenchReport.f(r.opsPerSec(), "%.0f"),
                    BenchReport.f(r.medianUs(), "%.1f"), BenchReport.f(100 * r.stolenShare(), "%.1f %%")));
        }
        render(lines, sb);
        sb.append('\n');
    }

    /** A ratio as the table shows it: marked {@link #NOISY} where it comes from a pair that met heavy or uneven steal. */
    private static String ratioCell(Optional<BenchRow> dlock, Optional<BenchRow> peer, BenchWorkload w) {
        String cell = BenchReport.f(ratio(dlock, peer, w), "%.2f");
        return noisyPair(dlock, peer) ? cell + NOISY : cell;
    }

    /** Whether dlock's and the peer's rows are a pair ({@link BenchPairs}) still noisy after its last attempt. */
    private static boolean noisyPair(Optional<BenchRow> dlock, Optional<BenchRow> peer) {
        return dlock.isPresent() && peer.isPresent() && !dlock.get().pairedWith().isEmpty()
                && BenchPairs.noisy(dlock.get(), peer.get());
    }

    /** dlock's speed over the peer's on one workload: medians for uncontended, else ops/s; NaN if one is missing. */
    static double ratio(Optional<BenchRow> dlock, Optional<BenchRow> peer, BenchWorkload w) {
        if (dlock.isEmpty() || peer.isEmpty()) {
            return Double.NaN;
        }
        return w.kind().equals("uncontended") ? peer.get().medianUs() / dlock.get().medianUs()
                : dlock.get().opsPerSec() / peer.get().opsPerSec();
    }

    private String perRound(Function<Integer, String> cell) {
        return String.join(" / ", rounds.stream().map(cell).toList());
    }

    private String transportOf(String system) {
        return rows.stream().filter(r -> system(r).equals(system)).map(r -> r.system().equals(DLOCK)
                ? "jgroups" : r.transport() + " " + r.algorithm()).findFirst().orElse("?");
    }

    /** The lines as left-aligned columns, two spaces apart, each as wide as its widest cell. */
    private static void render(List<List<String>> lines, StringBuilder sb) {
        int columns = lines.stream().mapToInt(List::size).max().orElse(0);
        int[] width = new int[columns];
        for (List<String> line : lines) {
            for (int i = 0; i < line.size(); i++) {
                width[i] = Math.max(width[i], line.get(i).length());
            }
        }
        for (List<String> line : lines) {
            StringBuilder l = new StringBuilder();
            for (int i = 0; i < line.size(); i++) {
                l.append(String.format(Locale.ROOT, "%-" + width[i] + "s", line.get(i)));
                if (i + 1 < line.size()) {
                    l.append("  ");
                }
            }
            sb.append(l.toString().stripTrailing()).append('\n');
        }
    }
}
