package io.dlock.samples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pair of {@code dlock bench --baselines} whose two runs met uneven or heavy steal is run again, at most
 * {@link BenchPairs#RERUNS} times; the quietest attempt counts, the others stay in the rows, set aside, and count in
 * no ratio.
 */
class BenchPairsTest {

    private static BenchRow dlock(double ops, double stolen) {
        return new BenchRow("dlock", "jgroups", "centralized", "contended", 3, 1, 0, 100, Double.NaN, Double.NaN, ops,
                2, 1, 1, 0).withStolen(stolen).pairedWith("central-lock2").inRound(2);
    }

    private static BenchRow peer(double ops, double stolen) {
        return new BenchRow("central-lock2", "jgroups-5.3.24", "CENTRAL_LOCK2", "contended", 3, 1, 0, 100, Double.NaN,
                Double.NaN, ops, Double.NaN, 1, 1, 0).withStolen(stolen).pairedWith("centralized").inRound(2);
    }

    /** dlock's run of the workload in its own round (not paired): the report compares the algorithms it has. */
    private static BenchRow ownRound() {
        return new BenchRow("dlock", "jgroups", "centralized", "contended", 3, 1, 0, 100, Double.NaN, Double.NaN, 1,
                2, 1, 1, 0).inRound(2);
    }

    /** Runs that hand out the given rows in turn and count how often they ran. */
    private static final class Runs {
        final List<BenchRow> dlock;
        final List<BenchRow> peer;
        int dlockRuns;
        int peerRuns;

        Runs(List<BenchRow> dlock, List<BenchRow> peer) {
            this.dlock = dlock;
            this.peer = peer;
        }

        List<BenchRow> pair() throws Exception {
            Iterator<BenchRow> d = dlock.iterator();
            Iterator<BenchRow> p = peer.iterator();
            return BenchPairs.quietPair(() -> {
                dlockRuns++;
                return d.next();
            }, () -> {
                peerRuns++;
                return p.next();
            });
        }
    }

    @Test
    void anEvenPairRunsOnce() throws Exception {
        Runs runs = new Runs(List.of(dlock(12_000, 0.03)), List.of(peer(4_000, 0.05)));
        List<BenchRow> rows = runs.pair();
        assertEquals(List.of(dlock(12_000, 0.03), peer(4_000, 0.05)), rows);
        assertEquals(1, runs.dlockRuns);
        assertEquals(1, runs.peerRuns);
    }

    @Test
    void anUnquietPairRunsAgainAndTheEvenAttemptCounts() throws Exception {
        Runs runs = new Runs(List.of(dlock(5_292, 0.26), dlock(12_000, 0.03)),
                List.of(peer(3_776, 0.04), peer(4_000, 0.02)));
        List<BenchRow> rows = runs.pair();
        assertEquals(2, runs.dlockRuns);
        assertEquals(dlock(12_000, 0.03), rows.get(0));
        assertEquals(peer(4_000, 0.02), rows.get(1));
        assertEquals(4, rows.size());
        assertTrue(BenchPairs.isSetAside(rows.get(2)) && BenchPairs.isSetAside(rows.get(3)), rows.toString());
        assertEquals(5_292, rows.get(2).opsPerSec());
        assertEquals(3_776, rows.get(3).opsPerSec());
        assertFalse(BenchPairs.isSetAside(rows.get(0)) || BenchPairs.isSetAside(rows.get(1)));
    }

    /** Where the peer's run met the steal, the rule is the same: it looks at the steal, never at who won. */
    @Test
    void theRuleHoldsBothWays() throws Exception {
        Runs runs = new Runs(List.of(dlock(30_000, 0.0), dlock(20_000, 0.01)),
                List.of(peer(2_000, 0.30), peer(8_000, 0.02)));
        List<BenchRow> rows = runs.pair();
        assertEquals(2, runs.peerRuns);
        assertEquals(20_000, rows.get(0).opsPerSec());
        assertEquals(8_000, rows.get(1).opsPerSec());
    }

    @Test
    void atMostRerunsTimesAgainThenTheQuietestAttempt() throws Exception {
        List<BenchRow> d = List.of(dlock(1, 0.30), dlock(2, 0.20), dlock(3, 0.40));
        List<BenchRow> p = List.of(peer(1, 0.0), peer(2, 0.0), peer(3, 0.0));
        Runs runs = new Runs(d, p);
        List<BenchRow> rows = runs.pair();
        assertEquals(1 + BenchPairs.RERUNS, runs.dlockRuns);
        assertEquals(2, rows.get(0).opsPerSec(), "the attempt whose worse run met the least steal (20 %) counts");
        assertEquals(2 * (1 + BenchPairs.RERUNS), rows.size());
        assertEquals(2 * BenchPairs.RERUNS, rows.stream().filter(BenchPairs::isSetAside).count());
    }

    /** Even but heavy steal in both runs is noisy too: a host that steals 30 % slows a latency-bound lock most. */
    @Test
    void aHeavyStealInBothRunsIsRunAgain() throws Exception {
        Runs runs = new Runs(List.of(dlock(6_825, 0.363), dlock(20_000, 0.02)),
                List.of(peer(6_122, 0.308), peer(8_000, 0.01)));
        List<BenchRow> rows = runs.pair();
        assertEquals(2, runs.dlockRuns);
        assertEquals(20_000, rows.get(0).opsPerSec());
        assertTrue(BenchPairs.noisy(dlock(1, 0.11), peer(1, 0.11)));
        assertFalse(BenchPairs.noisy(dlock(1, 0.10), peer(1, 0.05)));
    }

    /**
     * An attempt that is not noisy counts even where a noisy one met less steal in its worse run (8.6 % against
     * 0.5 % is uneven; 6.8 % against 8.6 % is not).
     */
    @Test
    void theAttemptThatIsNotNoisyCounts() throws Exception {
        Runs runs = new Runs(List.of(dlock(11_006, 0.086), dlock(11_270, 0.068)),
                List.of(peer(3_484, 0.005), peer(4_050, 0.086)));
        List<BenchRow> rows = runs.pair();
        assertEquals(11_270, rows.get(0).opsPerSec());
        assertEquals(4_050, rows.get(1).opsPerSec());
    }

    /** A pair still noisy after its last attempt counts, and its ratio is marked. */
    @Test
    void aPairNoisyToTheEndIsMarked() throws Exception {
        List<BenchRow> d = List.of(dlock(9_000, 0.30), dlock(9_000, 0.30), dlock(9_000, 0.30));
        List<BenchRow> p = List.of(peer(4_500, 0.30), peer(4_500, 0.30), peer(4_500, 0.30));
        List<BenchRow> rows = new ArrayList<>(new Runs(d, p).pair());
        rows.add(ownRound());
        String text = BenchPeersReport.text(rows, List.of());
        assertTrue(text.lines().anyMatch(l -> l.matches("centralized\\s+central-lock2\\s+2\\.00~")), text);
        assertTrue(text.contains("~: from a pair still noisy"), text);
        assertTrue(BenchPeersReport.ratios(rows, "centralized").get(0).noisy());
        String goals = BenchGoals.text(rows);
        assertTrue(goals.lines().anyMatch(l -> l.startsWith("dlock contended / central-lock2, 1 thread")
                && l.endsWith("centralized, round 2, noisy pair")), goals);
        List<BenchRow> quietRows = new ArrayList<>(new Runs(List.of(dlock(9_000, 0.01)), List.of(peer(4_500, 0.02)))
                .pair());
        quietRows.add(ownRound());
        String quiet = BenchPeersReport.text(quietRows, List.of());
        assertTrue(quiet.lines().anyMatch(l -> l.matches("centralized\\s+central-lock2\\s+2\\.00")), quiet);
        assertFalse(quiet.contains("~"), quiet);
    }

    @Test
    void anUnknownStealCountsAsEven() throws Exception {
        Runs runs = new Runs(List.of(dlock(12_000, Double.NaN)), List.of(peer(4_000, 0.08)));
        assertEquals(2, runs.pair().size());
        assertEquals(1, runs.dlockRuns);
    }

    /**
     * The report's ratios use the kept attempt only; the attempts set aside are listed under their own heading, and
     * go through JSON and back still set aside.
     */
    @Test
    void attemptsSetAsideCountInNoRatio() throws Exception {
        List<BenchRow> rows = new ArrayList<>(new Runs(List.of(dlock(5_292, 0.26), dlock(12_000, 0.03)),
                List.of(peer(3_776, 0.04), peer(4_000, 0.02))).pair());
        String text = BenchPeersReport.text(rows, List.of());
        List<BenchPeersReport.PeerRatio> ratios = BenchPeersReport.ratios(rows, "centralized");
        assertEquals(1, ratios.size(), ratios.toString());
        assertEquals(3.0, ratios.get(0).ratio(), 1e-9);
        assertTrue(text.contains("Pairs run again"), text);
        String aside = text.substring(text.indexOf("Pairs run again"));
        assertTrue(aside.lines().anyMatch(l -> l.matches("dlock centralized\\s+3x1\\s+2\\s+5292\\s+-\\s+26\\.0 %")), aside);
        assertTrue(aside.lines().anyMatch(l -> l.matches("central-lock2\\s+3x1\\s+2\\s+3776\\s+-\\s+4\\.0 %")), aside);
        assertTrue(BenchPairs.isSetAside(BenchRow.parse(rows.get(2).json()).orElseThrow()));
        assertFalse(BenchPeersReport.text(rows.subList(0, 2), List.of()).contains("Pairs run again"));
    }
}
