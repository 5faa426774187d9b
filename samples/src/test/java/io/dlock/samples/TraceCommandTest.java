package io.dlock.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.MutexAlgorithm;
import io.dlock.MutexVariant;
import io.dlock.inmemory.sim.SimulationResult;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code dlock trace}: every message of the run appears exactly once, in the text and in the Mermaid diagram. */
@Timeout(60)
class TraceCommandTest {

    private static final Pattern TEXT_MESSAGE = Pattern.compile("^\\s*\\S+\\s+\\S*\\s+n\\d+ -> n\\d+  #(\\d+) ", Pattern.MULTILINE);
    private static final Pattern MERMAID_MESSAGE = Pattern.compile("^    n\\d+(?:->>|-x)n\\d+: m(\\d+) ", Pattern.MULTILINE);

    private static Map<Long, Integer> ids(Pattern p, String text) {
        Map<Long, Integer> seen = new HashMap<>();
        Matcher m = p.matcher(text);
        while (m.find()) {
            seen.merge(Long.parseLong(m.group(1)), 1, Integer::sum);
        }
        return seen;
    }

    private static void assertEveryMessageOnce(Map<Long, Integer> seen, SimulationResult r, String output) {
        assertEquals(r.messages(), seen.size(), () -> "messages of the run vs message lines\n" + output);
        for (long id = 1; id <= r.messages(); id++) {
            assertEquals(1, seen.getOrDefault(id, 0), "message #" + id + "\n" + output);
        }
    }

    /** For every algorithm (3 nodes, 2 entries): one line per message of the run, ids 1..messages, each once. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void trace_everyMessageOnce(MutexAlgorithm algorithm) {
        MutexVariant variant = new MutexVariant(algorithm.configName(), algorithm, Map.of());
        TraceCommand.Recorder recorder = new TraceCommand.Recorder(3);
        SimulationResult r = TraceCommand.record(variant, 3, 2, 1, MessageDelay.RANDOM, recorder);
        assertTrue(r.ok(), r::describeFailure);
        String text = recorder.text(r);
        assertEveryMessageOnce(ids(TEXT_MESSAGE, text), r, text);
        String mermaid = recorder.mermaid(r);
        assertTrue(mermaid.startsWith("sequenceDiagram\n"), mermaid);
        assertEveryMessageOnce(ids(MERMAID_MESSAGE, mermaid), r, mermaid);
        assertEquals(r.entries(), text.lines().filter(l -> l.contains(" ENTERS (granted")).count(), text);
        assertEquals(r.entries(), mermaid.lines().filter(l -> l.contains(" ENTERS (granted")).count(), mermaid);
    }

    /** From the command line: the header names the run, the holder column shows the holder, the footer the count. */
    @Test
    void trace_commandLine() {
        Run r = Run.dlock("trace", "--algorithm", "ricart-agrawala", "--nodes", "3", "--entries", "2", "--seed", "1");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().startsWith("# ricart-agrawala, 3 nodes, 2 entries, seed 1"), r::toString);
        assertTrue(r.out().lines().anyMatch(l -> l.matches("\\s*\\d+\\s+(n\\d) +\\1 ENTERS .*")), r::toString);
        // Ricart-Agrawala: 2(N-1) = 4 messages per entry
        assertTrue(r.out().contains("# 8 messages"), r::toString);
        assertEquals(8, ids(TEXT_MESSAGE, r.out()).size(), r::toString);
        Run m = Run.dlock("trace", "--algorithm", "ricart-agrawala", "--nodes", "3", "--entries", "2", "--seed", "1", "--mermaid");
        assertEquals(0, m.code(), m::toString);
        assertEquals(8, ids(MERMAID_MESSAGE, m.out()).size(), m::toString);
    }
}
