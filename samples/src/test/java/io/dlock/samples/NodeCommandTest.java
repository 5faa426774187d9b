package io.dlock.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** {@code dlock node}: joins a JGroups cluster, takes the lock the given number of times, prints holder and leader. */
@Timeout(60)
class NodeCommandTest {

    /** A node on the in-JVM loopback stack takes the lock twice, prints each hold with its leader, and exits 0. */
    @Test
    void node_takesTheLockAndExits() {
        PrintStream saved = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
            code = new CommandLine(new DlockCli()).execute("node", "--cluster", "node-test-" + UUID.randomUUID(),
                    "--lock", "L", "--algorithm", "ricart-agrawala", "--stack", "loopback", "--node-id", "4",
                    "--count", "2", "--hold-ms", "1", "--pause-ms", "1");
        } finally {
            System.setOut(saved);
        }
        String out = buffer.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, out);
        assertTrue(out.contains("n4 HOLDS 'L' (entry 2"), out);
        assertTrue(out.contains("leader n4"), out);
    }

    /** An unknown algorithm is refused with exit code 2 and the list of allowed names. */
    @Test
    void node_unknownAlgorithm() {
        PrintStream saved = System.err;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        int code;
        try {
            System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
            code = new CommandLine(new DlockCli()).execute("node", "--algorithm", "nope", "--stack", "loopback");
        } finally {
            System.setErr(saved);
        }
        assertEquals(2, code);
        assertTrue(buffer.toString(StandardCharsets.UTF_8).contains("allowed: centralized"), buffer.toString());
    }
}
