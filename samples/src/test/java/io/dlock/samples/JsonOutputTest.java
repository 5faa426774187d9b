package io.dlock.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlock.ElectionAlgorithm;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The JSON output of compare, elect and sweep: valid JSON with the keys each test below lists. */
@Timeout(60)
class JsonOutputTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static void assertKeys(JsonNode node, List<String> keys, Run r) {
        for (String key : keys) {
            assertTrue(node.has(key), () -> "missing key " + key + " in " + node + "\n" + r);
        }
    }

    /** compare --format json: an array, one object per algorithm, with the keys below (algorithm, nodes, entries, messagesPerEntry, ...). */
    @Test
    void compare_json() throws Exception {
        Run r = Run.dlock("compare", "--nodes", "3", "--entries", "30", "--algorithms", "centralized,ricart-agrawala,maekawa",
                "--format", "json");
        assertEquals(0, r.code(), r::toString);
        JsonNode rows = JSON.readTree(r.out());
        assertTrue(rows.isArray(), r::toString);
        assertEquals(3, rows.size(), r::toString);
        for (JsonNode row : rows) {
            assertKeys(row, List.of("algorithm", "nodes", "entries", "messagesPerEntry", "theoryMessagesPerEntry",
                    "syncDelay", "safetyViolations", "ungranted"), r);
            assertEquals(3, row.get("nodes").asInt());
            assertEquals(0, row.get("safetyViolations").asLong());
        }
        assertEquals("ricart-agrawala", rows.get(1).get("algorithm").asText());
        assertEquals(4.0, rows.get(1).get("messagesPerEntry").asDouble(), 1e-9, r::toString); // 2(N-1)
    }

    /** elect --format json: one object per run, with the keys below (algorithm, nodes, ring, leader, messages, ...), for every message-passing election. */
    @Test
    void elect_json() throws Exception {
        for (ElectionAlgorithm a : ElectionAlgorithm.messagePassing()) {
            Run r = Run.dlock("elect", "--nodes", "8", "--algorithm", a.configName(), "--ring", "decreasing", "--format", "json");
            assertEquals(0, r.code(), r::toString);
            JsonNode o = JSON.readTree(r.out());
            assertKeys(o, List.of("algorithm", "nodes", "ring", "leader", "messages", "steps", "theoryMessages"), r);
            assertEquals(8, o.get("leader").asInt(), r::toString);
            assertEquals("decreasing", o.get("ring").asText());
            if (!o.get("theoryMessages").isNull()) {
                assertEquals(o.get("theoryMessages").asLong(), o.get("messages").asLong(), r::toString);
            }
        }
    }

    /** sweep --format json: one object per (algorithm, N), no progress bar, numbers where the formula is exact. */
    @Test
    void sweep_json() throws Exception {
        Run r = Run.dlock("sweep", "--nodes", "2,5..10:5", "--algorithms", "ricart-agrawala,suzuki-kasami,token-ring",
                "--entries", "20", "--format", "json");
        assertEquals(0, r.code(), r::toString);
        JsonNode rows = JSON.readTree(r.out());
        assertEquals(9, rows.size(), r::toString);
        for (JsonNode row : rows) {
            assertKeys(row, List.of("algorithm", "family", "nodes", "entries", "messagesPerEntry", "theoryMessagesPerEntry",
                    "theoryIsLowerBound", "safetyViolations", "ungranted"), r);
            assertTrue(row.get("entries").asLong() >= row.get("nodes").asLong(), r::toString);
            if (row.get("algorithm").asText().equals("ricart-agrawala")) {
                assertEquals(row.get("theoryMessagesPerEntry").asDouble(), row.get("messagesPerEntry").asDouble(), 1e-9);
            }
        }
        assertEquals("", r.err(), "json output shows no progress bar");
    }

    /** sweep's text output has a line per (algorithm, N) and says the checker found nothing. */
    @Test
    void sweep_text() {
        Run r = Run.dlock("sweep", "--nodes", "3,4", "--algorithms", "lamport,raymond", "--entries", "12");
        assertEquals(0, r.code(), r::toString);
        assertEquals(4, r.out().lines().filter(l -> l.matches("^(lamport|raymond) .* ok$")).count(), r::toString);
    }
}
