package io.dlock.samples.bench;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The output of {@code dlock bench}: aligned tables for people, or one JSON object per {@link BenchRow}. */
final class BenchReport {

    private BenchReport() {
    }

    /** {@code v} formatted with {@code pattern}, or "-" when it was not measured (NaN). */
    static String f(double v, String pattern) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, pattern, v);
    }

    /**
     * The tables for people: the floor, uncontended, contended, per key, idle, the peers, and what the columns mean. With
     * more than one round, every table of dlock's rows starts with the round ("rd").
     *
     * @param skipped the peers skipped because their server is not installed, each "name: why"
     */
    static String text(List<BenchRow> rows, String stack, int warmPasses, double warmup, double seconds, double took,
                       List<String> skipped) {
        StringBuilder sb = new StringBuilder();
        boolean rounds = rows.stream().anyMatch(r -> r.round() > 1);
        List<BenchRow> floor = rows.stream().filter(r -> r.kind().equals("floor") && r.pairedWith().isEmpty()).toList();
        if (!floor.isEmpty()) {
            sb.append("The floor: JGroups, ").append(stack.equals(BenchOptions.DEFAULT_STACK)
                    ? "the default stack (TCP_NIO2, no bundler)" : "the stack " + stack)
                    .append(" on 127.0.0.1, 3 channels in this JVM\n");
            sb.append(rd(rounds)).append(String.format(Locale.ROOT, "%-14s %10s %10s %9s %9s%n", "measure", "median us", "p99 us", "samples",
                    "cpu us"));
            for (BenchRow r : floor) {
                sb.append(rd(rounds, r)).append(String.format(Locale.ROOT, "%-14s %10s %10s %9d %9s%n", r.algorithm(), f(r.medianUs(), "%.1f"),
                        f(r.p99Us(), "%.1f"), r.samples(), f(r.cpuUs(), "%.1f")));
            }
            sb.append('\n');
        }
        List<BenchRow> unc = rows.stream().filter(r -> isOwnRun(r) && r.kind().equals("uncontended")).toList();
        if (!unc.isEmpty()) {
            sb.append("Uncontended lock+unlock, one thread on node 1, nobody else asks\n");
            sb.append(rd(rounds)).append(String.format(Locale.ROOT, "%-9s %-16s %5s %7s %10s %10s %9s %9s %10s %9s %9s %9s%n", "transport",
                    "algorithm", "nodes", "handoff", "median us", "p99 us", "unlock us", "rtt us", "x rtt", "msgs/op",
                    "frames/op", "cpu us"));
            for (BenchRow r : unc) {
                Optional<BenchRow> rtt = r.transport().equals("jgroups")
                        ? BenchFloor.of(rows, BenchFloor.UNICAST_RTT, r.algorithm()) : Optional.empty();
                double rttUs = rtt.map(BenchRow::medianUs).orElse(Double.NaN);
                sb.append(rd(rounds, r)).append(String.format(Locale.ROOT, "%-9s %-16s %5d %7d %10s %10s %9s %9s %10s %9s %9s %9s%n", r.transport(),
                        r.algorithm(), r.nodes(), r.handoff(), f(r.medianUs(), "%.1f"), f(r.p99Us(), "%.1f"),
                        f(r.unlockUs(), "%.1f"), f(rttUs, "%.1f"), f(r.medianUs() / rttUs, "%.2f"), f(r.msgsPerEntry(), "%.2f"),
                        f(r.framesPerEntry(), "%.2f"), f(r.cpuUs(), "%.1f")));
            }
            sb.append('\n');
        }
        List<BenchRow> con = rows.stream().filter(r -> isOwnRun(r) && r.kind().equals("contended")).toList();
        if (!con.isEmpty()) {
            sb.append("Contended: every node runs T threads taking the lock in a loop (throughput of the whole cluster)\n");
            sb.append(rd(rounds)).append(String.format(Locale.ROOT, "%-9s %-16s %5s %3s %7s %10s %10s %12s %6s %7s %8s %9s%n", "transport",
                    "algorithm", "nodes", "T", "handoff", "ops/s", "msgs/entry", "frames/entry", "jain", "maxRun",
                    "failures", "cpu us"));
            for (BenchRow r : con) {
                sb.append(rd(rounds, r)).append(String.format(Locale.ROOT, "%-9s %-16s %5d %3d %7d %10s %10s %12s %6s %7d %8d %9s%n",
                        r.transport(), r.algorithm(), r.nodes(), r.threads(), r.handoff(), f(r.opsPerSec(), "%.0f"),
                        f(r.msgsPerEntry(), "%.2f"), f(r.framesPerEntry(), "%.2f"), f(r.jain(), "%.3f"), r.maxRun(),
                        r.failures(), f(r.cpuUs(), "%.1f")));
            }
            sb.append('\n');
        }
        List<BenchRow> perKey = rows.stream().filter(r -> isOwnRun(r) && r.kind().equals(BenchPerKey.KIND))
                .toList();
        if (!perKey.isEmpty()) {
            sb.append("Per key: every node runs T threads, each entry locks a uniformly random one of K names; "
                    + "then the idle names are reclaimed\n");
            sb.append(rd(rounds)).append(String.format(Locale.ROOT, "%-9s %-16s %5s %3s %7s %8s %10s %10s %6s %9s %8s %8s %10s %7s %8s%n", "transport",
                    "algorithm", "nodes", "T", "handoff", "K", "ops/s", "msgs/entry", "jain", "max share", "x 1/N",
                    "msg jain", "names", "B/name", "engines", "failures"));
            for (BenchRow r : perKey) {
                BenchRow.PerKey p = r.perKey();
                sb.append(rd(rounds, r)).append(String.format(Locale.ROOT, "%-9s %-16s %5d %3d %7d %8d %10s %10s %6s %9s %8s %8s %10d %10s %7d %8d%n",
                        r.transport(), r.algorithm(), r.nodes(), r.threads(), r.handoff(), p.keys(),
                        f(r.opsPerSec(), "%.0f"), f(r.msgsPerEntry(), "%.2f"), f(r.jain(), "%.3f"),
                        f(p.maxNodeShare(), "%.3f"), f(p.maxNodeShare() * r.nodes(), "%.2f"), f(p.nodeMsgJain(), "%.3f"),
                        p.names(), f(p.bytesPerName(), "%.0f"), p.liveEngines(), r.failures()));
            }
            sb.append('\n');
        }
        List<BenchRow> idle = rows.stream().filter(r -> r.kind().equals(BenchIdle.KIND)).toList();
        if (!idle.isEmpty()) {
            sb.append("Idle: after one lock+unlock on node 1, nobody asks (messages of all the nodes, CPU of this JVM)\n");
            sb.append(String.format(Locale.ROOT, "%-9s %-16s %5s %7s %10s %9s %8s%n", "transport", "algorithm", "nodes",
                    "handoff", "msgs/s", "cpu cores", "failures"));
            for (BenchRow r : idle) {
                sb.append(String.format(Locale.ROOT, "%-9s %-16s %5d %7d %10s %9s %8d%n", r.transport(), r.algorithm(),
                        r.nodes(), r.handoff(), f(r.idle().messagesPerSec(), "%.0f"), f(r.idle().cpuCores(), "%.2f"),
                        r.failures()));
            }
            sb.append('\n');
        }
        sb.append(BenchPeersReport.text(rows, skipped));
        sb.append(BenchGoals.text(rows));
        sb.append(String.format(Locale.ROOT, "rtt us: unicast round-trip median timed interleaved with that row's "
                + "run (same slices), else the floor's. x rtt: median / rtt us.%nunlock us: median of the unlock "
                + "alone, within the lock+unlock (a release that is only sent costs its send; one that is confirmed, "
                + "a round trip).%nmsgs/entry: messages sent "
                + "(all nodes) / entries, measured window only.%ncpu us: CPU time of the measuring JVM (every node "
                + "in it, transport, JIT, GC) per operation, measured window only;%n  unlike the times, not moved by "
                + "slow thread wake-ups. A peer's is its own JVM's plus its server processes'.%njain: Jain's index over the nodes' entries (1 = even). "
                + "maxRun: longest run of consecutive entries by one node.%n"));
        if (!perKey.isEmpty()) {
            sb.append("Per key: msgs/entry counts every lock of the nodes (not the reclamation rounds). names: distinct "
                    + "names used (warm-up too).\nmax share: the largest share of those messages handled (sent + "
                    + "received) by one node; x 1/N: that share times the nodes (1 = even).\nmsg jain: Jain's index "
                    + "over the nodes' messages handled (1 = even).\nB/name: heap retained after reclamation (after - before the run, "
                    + "after System.gc()) / names, all nodes together;\nwith few names (small K) it is mostly the "
                    + "heap's noise. engines: lock engines still live then (0 = all reclaimed).\n");
        }
        sb.append(String.format(Locale.ROOT, "%d unmeasured pass%s over the workloads in every JVM first; warm-up "
                + "%.1f s, measured %.1f s per run; total %.0f s.%n", warmPasses, warmPasses == 1 ? "" : "es", warmup,
                seconds, took));
        return sb.toString();
    }

    /** A row of dlock's own runs, not one paired with a peer's ({@link BenchPairs}: those are in the peers' tables). */
    private static boolean isOwnRun(BenchRow r) {
        return r.system().equals("dlock") && r.pairedWith().isEmpty();
    }

    /** The round column's header, or nothing when the run has one round. */
    private static String rd(boolean rounds) {
        return rounds ? "rd " : "";
    }

    /** The row's round, or nothing when the run has one round. */
    private static String rd(boolean rounds, BenchRow r) {
        return rounds ? String.format(Locale.ROOT, "%2d ", r.round()) : "";
    }

    /** A JSON array of the rows, one object per line. */
    static String json(List<BenchRow> rows) {
        StringBuilder sb = new StringBuilder("[\n");
        for (int i = 0; i < rows.size(); i++) {
            sb.append("  ").append(rows.get(i).json()).append(i + 1 < rows.size() ? ",\n" : "\n");
        }
        return sb.append("]\n").toString();
    }
}
