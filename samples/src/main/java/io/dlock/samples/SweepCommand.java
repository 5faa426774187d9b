package io.dlock.samples;

import io.dlock.MutexVariant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code dlock sweep}: each chosen mutual-exclusion algorithm on the simulator for a range of N,
 * messages per entry against the formula. A progress bar shows on the terminal (standard error)
 * unless the output is not a terminal or the format is JSON.
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

    @Mixin
    FormatOption format;

    @Override
    public Integer call() {
        long entries = runs.entries();
        List<Sweep.MutexPoint> points = run(runs.chosen(), nodes.nodes.counts(), entries, runs.seed(), !format.json());
        print(format.json() ? json(points) : text(points));
        return points.stream().allMatch(Sweep.MutexPoint::ok) ? 0 : 1;
    }

    /** Runs every (algorithm, N) point, with a progress bar if {@code bar} and on a terminal. */
    static List<Sweep.MutexPoint> run(List<MutexVariant> chosen, List<Integer> ns, long entries, long seed, boolean bar) {
        List<Sweep.MutexPoint> points = new ArrayList<>();
        try (Progress progress = Progress.of("sweep", (long) chosen.size() * ns.size(), bar)) {
            for (MutexVariant variant : chosen) {
                for (int n : ns) {
                    progress.doing(variant.name() + " N=" + n);
                    points.add(Sweep.mutex(variant, n, Sweep.perNode(entries, n), seed));
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
