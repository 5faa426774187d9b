package io.dlock.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlock.MutexAlgorithm;
import io.dlock.inmemory.sim.Simulation;
import io.dlock.inmemory.sim.SimulationResult;
import io.dlock.inmemory.sim.Workload;
import io.dlock.protocol.AlgorithmDefinitions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * {@code dlock sweep}'s run options: {@code --workload}, {@code --entries-per-node} and {@code --seeds} (the token
 * algorithms' figures of docs/performance.md), parsed, refused when out of range, and the numbers of a tiny case
 * against the simulator run directly.
 */
@Timeout(60)
class SweepCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static SweepCommand parse(String... args) {
        SweepCommand c = new SweepCommand();
        new CommandLine(c).parseArgs(args);
        return c;
    }

    /** Without the options a sweep runs as it always did: one seed, the default workload, --entries spread. */
    @Test
    void defaults() {
        SweepCommand c = parse();
        assertEquals(SweepWorkload.DEFAULT, c.workload);
        assertEquals(1, c.seeds);
        assertNull(c.entriesPerNode);
        assertEquals(200, c.runs.entries());
        assertEquals(1, c.runs.seed());
    }

    /** Every option is read; workload names are case-insensitive. */
    @Test
    void options() {
        SweepCommand c = parse("--workload", "LIGHT", "--seeds", "10", "--entries-per-node", "4", "--seed", "3",
                "--nodes", "8,64", "--algorithms", "raymond,token-ring");
        assertEquals(SweepWorkload.LIGHT, c.workload);
        assertEquals(10, c.seeds);
        assertEquals(4, c.entriesPerNode);
        assertEquals(3, c.runs.seed());
        assertEquals(java.util.List.of(8, 64), c.nodes.nodes.counts());
    }

    /** Each workload's think and hold times, in simulator time units; N scales moderate's and light's think times. */
    @Test
    void workloads_thinkAndHold() {
        Workload four = Workload.perNode(4);
        assertEquals("Workload.perNode(4).think(0, 20).hold(0, 5)", SweepWorkload.DEFAULT.shape(four, 64).toString());
        assertEquals("Workload.perNode(4).think(0, 1280).hold(0, 5)", SweepWorkload.MODERATE.shape(four, 64).toString());
        assertEquals("Workload.perNode(4).think(0, 400000).hold(0, 5)", SweepWorkload.LIGHT.shape(four, 64).toString());
        assertEquals("Workload.perNode(4).think(0, 0).hold(1, 5)", SweepWorkload.HEAVY.shape(four, 64).toString());
        assertEquals("Workload.perNode(4).think(0, 50000).hold(0, 5)", SweepWorkload.LIGHT.shape(four, 8).toString());
    }

    /**
     * A tiny case: Raymond on 4 nodes, 2 entries each, heavy load, seeds 5..7. The point pools the three runs: its
     * entries are theirs together, its messages per entry all their messages over all their entries, as the simulator
     * gives them run by run.
     */
    @Test
    void pooledSeeds_matchTheSimulatorRunByRun() throws Exception {
        Run r = Run.dlock("sweep", "--algorithms", "raymond", "--nodes", "4", "--entries-per-node", "2",
                "--workload", "heavy", "--seed", "5", "--seeds", "3", "--format", "json");
        assertEquals(0, r.code(), r::toString);
        JsonNode rows = JSON.readTree(r.out());
        assertEquals(1, rows.size(), r::toString);
        long entries = 0;
        long messages = 0;
        for (long seed = 5; seed <= 7; seed++) {
            SimulationResult run = Simulation.of(AlgorithmDefinitions.mutex(MutexAlgorithm.RAYMOND)).nodes(4).seed(seed)
                    .workload(Workload.perNode(2).think(0, 0).hold(1, 5)).run();
            entries += run.entries();
            messages += run.messages();
        }
        JsonNode row = rows.get(0);
        assertEquals(24, entries, "4 nodes x 2 entries x 3 seeds");
        assertEquals(entries, row.get("entries").asLong(), r::toString);
        assertEquals((double) messages / entries, row.get("messagesPerEntry").asDouble(), 1e-4, r::toString);
        assertEquals(0, row.get("safetyViolations").asLong(), r::toString);
        assertEquals(0, row.get("ungranted").asLong(), r::toString);
    }

    /** With one seed and the default workload, --entries-per-node E is --entries E*N: the same run. */
    @Test
    void entriesPerNode_isEntriesTimesN() {
        Run perNode = Run.dlock("sweep", "--algorithms", "naimi-trehel", "--nodes", "5", "--entries-per-node", "3",
                "--format", "json");
        Run spread = Run.dlock("sweep", "--algorithms", "naimi-trehel", "--nodes", "5", "--entries", "15",
                "--format", "json");
        assertEquals(0, perNode.code(), perNode::toString);
        assertEquals(spread.out(), perNode.out());
    }

    /** The text output says below the table how the points ran when that is not the default; otherwise nothing more. */
    @Test
    void text_saysHowThePointsRan() {
        Run r = Run.dlock("sweep", "--algorithms", "raymond", "--nodes", "4", "--entries-per-node", "2",
                "--workload", "heavy", "--seeds", "3");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().endsWith("runs: workload heavy (think 0, hold 1-5), 2 entries per node, seeds 1..3 pooled "
                + "(messages / entries of all the runs).\n"), r::toString);
        Run plain = Run.dlock("sweep", "--algorithms", "raymond", "--nodes", "4", "--entries", "8");
        assertEquals(0, plain.code(), plain::toString);
        assertFalse(plain.out().contains("runs:"), plain::toString);
        assertTrue(plain.out().endsWith("checker: mutual exclusion, fencing order, double grants, ungranted.\n"),
                plain::toString);
    }
}
