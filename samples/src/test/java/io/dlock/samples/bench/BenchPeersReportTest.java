package io.dlock.samples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The peers' tables of {@code dlock bench --baselines}: a line per system with a figure per round, the ratios
 * dlock/peer computed round by round from the rows (medians for uncontended, ops/s otherwise), and the peers skipped.
 */
class BenchPeersReportTest {

    /** dlock's rows compared are its JGroups ones; a peer's transport is its own. */
    private static String on(String system) {
        return system.equals("dlock") ? "jgroups" : system + "-server";
    }

    private static BenchRow uncontended(String system, String algorithm, double medianUs, int round) {
        return new BenchRow(system, on(system), algorithm, "uncontended", 3, 1, 0, 100, medianUs, medianUs,
                1e6 / medianUs, Double.NaN, Double.NaN, 0, 0).inRound(round);
    }

    private static BenchRow contended(String system, String algorithm, int threads, double ops, int round) {
        return new BenchRow(system, on(system), algorithm, "contended", 3, threads, 0, 100, Double.NaN, Double.NaN, ops,
                Double.NaN, 0.99, 2, 0).inRound(round);
    }

    private static BenchRow perKey(String system, String algorithm, double ops, int round) {
        return new BenchRow(system, on(system), algorithm, BenchPerKey.KIND, 3, 4, 0, 100, Double.NaN, Double.NaN, ops,
                Double.NaN, 0.9, 2, 0, new BenchRow.PerKey(1000, 0, Double.NaN, 0)).inRound(round);
    }

    private static List<BenchRow> run() {
        List<BenchRow> rows = new ArrayList<>();
        for (int round = 1; round <= 2; round++) {
            rows.add(uncontended("dlock", "centralized", 100 * round, round));
            rows.add(contended("dlock", "centralized", 1, 8000, round));
            rows.add(perKey("dlock", "centralized", 30000, round));
            rows.add(new BenchRow("dlock", "jgroups", "centralized", "contended", 5, 1, 0, 1, Double.NaN, Double.NaN,
                    1, Double.NaN, 1, 1, 0).inRound(round));
            rows.add(uncontended("hazelcast", "FencedLock", 400, round));
            rows.add(contended("hazelcast", "FencedLock", 1, 2000, round));
            rows.add(perKey("hazelcast", "FencedLock", 5000, round));
            rows.add(uncontended("curator", "InterProcessMutex", 2000, round));
            rows.add(contended("curator", "InterProcessMutex", 1, 500, round));
            rows.add(perKey("curator", "InterProcessMutex", 1000 * round, round));
        }
        return rows;
    }

    private static String line(String text, String start) {
        return text.lines().filter(l -> l.startsWith(start)).findFirst()
                .orElseThrow(() -> new AssertionError("no line starting with '" + start + "' in\n" + text));
    }

    @Test
    void aLinePerSystemAndRatiosRoundByRound() {
        String text = BenchPeersReport.text(run(), List.of());
        String throughputTable = text.substring(0, text.indexOf("Peers in detail"));
        for (String system : List.of("dlock centralized", "hazelcast", "curator")) {
            assertEquals(1, throughputTable.lines().filter(l -> l.startsWith(system + " ")).count(), throughputTable);
        }
        assertTrue(line(throughputTable, "system").matches("system\\s+runs on\\s+uncontended\\s+3x1\\s+K=1000 3x4"),
                throughputTable);
        assertTrue(line(throughputTable, "hazelcast").matches("hazelcast\\s+hazelcast-server FencedLock\\s+2500 / 2500"
                + "\\s+2000 / 2000\\s+5000 / 5000"), throughputTable);
        // uncontended: peer median / dlock median (400/100, 400/200); 3x1: 8000/2000; per key: 30000/5000
        assertTrue(line(text, "centralized  hazelcast").matches("centralized\\s+hazelcast\\s+4\\.00 / 2\\.00"
                + "\\s+4\\.00 / 4\\.00\\s+6\\.00 / 6\\.00"), text);
        // per key, round by round: 30000/1000 and 30000/2000
        assertTrue(line(text, "centralized  curator").endsWith("30.00 / 15.00"), text);
        assertEquals(2 * 3 * 3, text.substring(text.indexOf("Peers in detail"), text.indexOf("dlock / peer")).lines()
                .filter(l -> l.matches("(dlock centralized|hazelcast|curator)\\s+.*")).count(),
                "a detail line per system, workload and round");
        assertFalse(text.contains("Peers skipped"), text);
    }

    @Test
    void skippedPeersAreListedWithHowToInstallThem() {
        String why = "etcd: etcd is not on the PATH; install it with: apt-get install etcd-server";
        String text = BenchPeersReport.text(run(), List.of(why));
        assertTrue(text.contains("Peers skipped (their server is not installed):\n  " + why + "\n"), text);
        assertEquals("Peers skipped (their server is not installed):\n  " + why + "\n\n",
                BenchPeersReport.text(List.of(uncontended("dlock", "centralized", 100, 1)), List.of(why)));
        assertEquals("", BenchPeersReport.text(List.of(uncontended("dlock", "centralized", 100, 1)), List.of()));
    }

    /**
     * A pair (dlock's run right before the peer's, {@link BenchPairs}) gives the ratio where there is one; dlock's run of
     * the round where there is not (an algorithm not paired, a saved run from before pairs). The paired runs have a
     * line of their own above their peer's, and stay out of dlock's own line.
     */
    @Test
    void aPairGivesTheRatioWhereThereIsOne() {
        List<BenchRow> rows = new ArrayList<>(run());
        for (int round = 1; round <= 2; round++) {
            rows.add(perKey("dlock", "centralized", 10000 * round, round).pairedWith("hazelcast"));
            rows.add(contended("dlock", "centralized", 1, 4000, round).pairedWith("hazelcast"));
            rows.add(uncontended("dlock", "centralized", 50, round).pairedWith("hazelcast"));
        }
        String text = BenchPeersReport.text(rows, List.of());
        String throughputTable = text.substring(0, text.indexOf("Peers in detail"));
        List<String> systems = throughputTable.lines().skip(3).map(l -> l.split("  ")[0].trim())
                .filter(l -> !l.isEmpty()).toList();
        assertEquals(List.of("dlock centralized", "dlock centralized, before hazelcast", "hazelcast", "curator"),
                systems, throughputTable);
        assertTrue(line(throughputTable, "dlock centralized  ").matches("dlock centralized\\s+jgroups\\s+10000 / 5000"
                + "\\s+8000 / 8000\\s+30000 / 30000"), throughputTable);
        // paired: 400/50, 4000/2000, 10000/5000 and 20000/5000; curator has no pair: dlock's own runs
        assertTrue(line(text, "centralized  hazelcast").matches("centralized\\s+hazelcast\\s+8\\.00 / 8\\.00"
                + "\\s+2\\.00 / 2\\.00\\s+2\\.00 / 4\\.00"), text);
        assertTrue(line(text, "centralized  curator").endsWith("30.00 / 15.00"), text);
        assertEquals(List.of(8.0, 8.0, 2.0, 2.0, 2.0, 4.0), BenchPeersReport.ratios(rows, "centralized").stream()
                .filter(r -> r.peer().equals("hazelcast")).map(BenchPeersReport.PeerRatio::ratio).toList());
    }

    @Test
    void aMissingSideIsNotARatio() {
        BenchWorkload w = new BenchWorkload("contended", 1, 0);
        assertTrue(Double.isNaN(BenchPeersReport.ratio(Optional.empty(),
                Optional.of(contended("curator", "InterProcessMutex", 1, 500, 1)), w)));
        assertEquals(16.0, BenchPeersReport.ratio(Optional.of(contended("dlock", "centralized", 1, 8000, 1)),
                Optional.of(contended("curator", "InterProcessMutex", 1, 500, 1)), w), 1e-12);
    }
}
