package io.dlock.samples;

import io.dlock.MutexVariant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dlock sweep}: each chosen mutual-exclusion algorithm on the simulator for a range of N,
 * messages per entry against the formula. A progress bar shows on the terminal (standard error)
 * unless the output is not a terminal or the format is JSON.
 *
 * <p>By default each point is one seeded run of {@code --entries} entries spread evenly over the nodes, with the
 * simulator's default think and hold times. {@code --workload} changes the think and hold times (docs/performance.md's
 * light, moderate and heavy loads), {@code --entries-per-node} gives every node the same number of entries whatever
 * N, and {@code --seeds} pools several seeded runs per point; with any of them, the text output says so below the
 * table.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run mutual-exclusion algorithms on the simulator for a range of N and compare messages per entry "
                + "with the formula.",
                "Every run: random delays 1-10, channels reordered unless the algorithm needs FIFO, every node makes "
                        + "the same number of requests, except decentralized above N = 64: it makes 64 entries in all, one "
                        + "each by n0..n63 (with every node requesting at once its votes split and it retries, about "
                        + "35 000 messages per entry at N = 1024). Every algorithm for 2..1024 takes under a minute on "
                        + "2 cores; N is capped at 1024. --format json never shows a progress bar."})
final class SweepCommand extends DlockCommand {

    @Mixin
    SweepNodesOption nodes;

    @Mixin
    MutexRunOptions runs;

    @Option(names = "--entries-per-node", paramLabel = "E",
            description = "critical-section entries of every node, whatever N, instead of --entries spread over the "
                    + "nodes (default: not set)")
    Integer entriesPerNode;

    @Option(names = "--workload", paramLabel = "NAME", defaultValue = "default", converter = SweepWorkload.Converter.class,
            description = "think and hold times in simulator time units (a message takes 1-10): default (think 0-20, "
                    + "hold 0-5), moderate (think 0-20N), light (think 0-6250N: requests rarely overlap) or heavy "
                    + "(think 0, hold 1-5: every node asks again as soon as it leaves) (default ${DEFAULT-VALUE})")
    SweepWorkload workload;

    @Option(names = "--seeds", paramLabel = "K", defaultValue = "1",
            description = "runs per point, with seeds S, S+1, ..., S+K-1 (S: --seed), pooled: messages per entry over"
                    + " all their entries, 1-1000 (default ${DEFAULT-VALUE})")
    int seeds;

    @Mixin
    FormatOption format;

    @Override
    public Integer call() {
        long entries = runs.entries();
        Cli.checkWithin(spec, "--seeds", seeds, 1, 1000);
        if (entriesPerNode != null) {
            Cli.checkAtLeast(spec, "--entries-per-node", entriesPerNode, 1);
            if (spec.commandLine().getParseResult().hasMatchedOption("--entries")) {
                throw Cli.invalid(spec, "--entries-per-node", entriesPerNode + " given with --entries " + entries
                        + "; give one of them: --entries spreads a total over the nodes, --entries-per-node gives each "
                        + "node that many");
            }
        }
        Runs how = new Runs(entries, entriesPerNode, workload, runs.seed(), seeds);
        List<Sweep.MutexPoint> points = run(runs.chosen(), nodes.nodes.counts(), how, !format.json());
        print(format.json() ? json(points) : text(points) + how.note());
        return points.stream().allMatch(Sweep.MutexPoint::ok) ? 0 : 1;
    }

    /**
     * How every point of a sweep runs.
     *
     * @param entries        entries per run, spread evenly over the nodes (used unless {@code entriesPerNode})
     * @param entriesPerNode entries of every node, or null to spread {@code entries}
     * @param workload       the think and hold times
     * @param seed           the first seed
     * @param seeds          runs per point, pooled
     */
    record Runs(long entries, Integer entriesPerNode, SweepWorkload workload, long seed, int seeds) {

        /** The entries of each node at N = {@code nodes}. */
        long perNode(int nodes) {
            return entriesPerNode != null ? entriesPerNode : Sweep.perNode(entries, nodes);
        }

        /** What the text output says below the table when a run differs from the default; empty otherwise. */
        String note() {
            if (entriesPerNode == null && workload == SweepWorkload.DEFAULT && seeds == 1) {
                return "";
            }
            return String.format(Locale.ROOT, "runs: workload %s (%s), %s, %s.\n", workload, workload.times,
                    entriesPerNode != null ? entriesPerNode + " entries per node" : entries + " entries spread over the nodes",
                    seeds == 1 ? "seed " + seed : "seeds " + seed + ".." + (seed + seeds - 1)
                            + " pooled (messages / entries of all the runs)");
        }
    }

    /** Runs every (algorithm, N) point, with a progress bar if {@code bar} and on a terminal. */
    static List<Sweep.MutexPoint> run(List<MutexVariant> chosen, List<Integer> ns, Runs how, boolean bar) {
        List<Sweep.MutexPoint> points = new ArrayList<>();
        try (Progress progress = Progress.of("sweep", (long) chosen.size() * ns.size(), bar)) {
            for (MutexVariant variant : chosen) {
                for (int n : ns) {
                    progress.doing(variant.name() + " N=" + n);
                    points.add(Sweep.mutex(variant, n, how.perNode(n), how.workload(), how.seed(), how.seeds()));
                    progress.step();
                }
            }
        }
        return points;
    }

    private static String text(List<Sweep.MutexPoint> points) {
        StringBuilder sb = new StringBuilder();
        String header = String.format(Locale.ROOT, "%-18s %-10s %5s %7s %11s %11s  %s%n", "algorithm", "family", "N",
                "entries", "msgs/entry", "formula", "checker");
        sb.append(header).append("-".repeat(header.length() - 1)).append('\n');
        String previous = null;
        for (Sweep.MutexPoint p : points) {
            if (previous != null && !previous.equals(p.algorithm())) {
                sb.append('\n');
            }
            previous = p.algorithm();
            sb.append(String.format(Locale.ROOT, "%-18s %-10s %5d %7d %11.3f %11s  %s%n", p.algorithm(),
                    p.family().name().toLowerCase(Locale.ROOT), p.nodes(), p.entries(), p.messagesPerEntry(),
                    String.format(Locale.ROOT, "%s%.3f", p.lowerBound() ? ">=" : "", p.theory()),
                    p.ok() ? "ok" : "violations=" + p.violations() + " ungranted=" + p.ungranted() + "  replay: " + p.replay()));
        }
        sb.append("\nformula: the definition's messages per entry for an even load (>= : a perpetual algorithm, whose\n"
                + "formula is the saturated figure). checker: mutual exclusion, fencing order, double grants, ungranted.\n");
        return sb.toString();
    }

    private static String json(List<Sweep.MutexPoint> points) {
        StringBuilder sb = new StringBuilder("[\n");
        for (int i = 0; i < points.size(); i++) {
            Sweep.MutexPoint p = points.get(i);
            sb.append(String.format(Locale.ROOT,
                    "  {\"algorithm\": %s, \"family\": %s, \"nodes\": %d, \"entries\": %d, \"messagesPerEntry\": %s, "
                            + "\"theoryMessagesPerEntry\": %s, \"theoryIsLowerBound\": %s, \"safetyViolations\": %d, "
                            + "\"ungranted\": %d}",
                    Json.string(p.algorithm()), Json.string(p.family().name().toLowerCase(Locale.ROOT)), p.nodes(),
                    p.entries(), Json.number(p.messagesPerEntry(), 4), Json.number(p.theory(), 4), p.lowerBound(),
                    p.violations(), p.ungranted()));
            sb.append(i + 1 < points.size() ? ",\n" : "\n");
        }
        return sb.append("]\n").toString();
    }
}
