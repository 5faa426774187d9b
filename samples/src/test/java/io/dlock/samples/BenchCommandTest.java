package io.dlock.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** {@code dlock bench}: option parsing, validation, the baselines' row format, and one tiny in-memory run. Never timing. */
@Timeout(60)
class BenchCommandTest {

    private static BenchCommand parse(String... args) {
        BenchCommand c = new BenchCommand();
        new CommandLine(c).parseArgs(args);
        return c;
    }

    /** The defaults are the full matrix: both transports, 3 and 5 nodes, 1 and 4 threads, no hand-off. */
    @Test
    void defaults() {
        BenchCommand c = parse();
        assertEquals("both", c.transport);
        assertEquals(List.of(3, 5), c.nodes);
        assertEquals(List.of(1, 4), c.threads);
        assertEquals(List.of(0), c.handoffs);
        assertNull(c.algorithms);
        assertFalse(c.baselines);
        assertNull(c.validate());
    }

    /** Lists are comma-separated; every option is read. */
    @Test
    void options() {
        BenchCommand c = parse("--transport", "inmemory", "--algorithms", "centralized,lamport", "--nodes", "2,7",
                "--threads", "8", "--handoff", "0,4,16", "--seconds", "2.5", "--warmup", "0", "--format", "json",
                "--no-floor", "--baselines");
        assertEquals("inmemory", c.transport);
        assertEquals(List.of("centralized", "lamport"), c.algorithms);
        assertEquals(List.of(2, 7), c.nodes);
        assertEquals(List.of(8), c.threads);
        assertEquals(List.of(0, 4, 16), c.handoffs);
        assertEquals(2.5, c.seconds);
        assertTrue(c.noFloor && c.baselines);
        assertNull(c.validate());
    }

    /** Bad values are refused naming the option and what is allowed. */
    @Test
    void validation() {
        assertTrue(parse("--transport", "udp").validate().contains("jgroups, inmemory or both"));
        assertTrue(parse("--nodes", "1").validate().contains("--nodes"));
        assertTrue(parse("--threads", "0").validate().contains("--threads"));
        assertTrue(parse("--handoff", "1001").validate().contains("0 and 1000"));
        assertTrue(parse("--seconds", "0").validate().contains("--seconds"));
        assertTrue(parse("--format", "xml").validate().contains("text or json"));
    }

    /** A JSON row round-trips through the parser that reads the baselines' output; other lines are skipped. */
    @Test
    void rowFormat() {
        BenchCommand.Row row = new BenchCommand.Row("curator", "zookeeper", "InterProcessMutex", "contended", 3, 4, 0,
                100, Double.NaN, Double.NaN, 250.5, Double.NaN, 0.98, 3, 0);
        Optional<BenchCommand.Row> back = BenchCommand.parseRow(BenchCommand.json(row));
        assertTrue(back.isPresent());
        assertEquals(row.system(), back.get().system());
        assertEquals(row.threads(), back.get().threads());
        assertEquals(250.5, back.get().opsPerSec(), 1e-9);
        assertTrue(Double.isNaN(back.get().medianUs()));
        assertTrue(BenchCommand.parseRow("[main] WARN something").isEmpty());
    }

    /** One algorithm, in memory, very short: exit 0 and a JSON row per measure. */
    @Test
    void tinyRun() {
        PrintStream saved = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
            code = new CommandLine(new DlockCli()).execute("bench", "--transport", "inmemory", "--algorithms",
                    "centralized", "--nodes", "2", "--threads", "1,2", "--seconds", "0.1", "--warmup", "0",
                    "--lock-timeout", "10", "--format", "json");
        } finally {
            System.setOut(saved);
        }
        String out = buffer.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, out);
        assertTrue(out.contains("\"kind\": \"uncontended\""), out);
        assertEquals(2, out.split("\"kind\": \"contended\"", -1).length - 1, out);
        assertTrue(out.contains("\"algorithm\": \"centralized\""), out);
    }
}
