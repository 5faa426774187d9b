package io.dlock.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** Option parsing of every command: help, the shared option forms, and usage errors (one line, usage, exit 2). */
@Timeout(60)
class CliOptionsTest {

    /**
     * {@code dlock --version} prints the version of the build, from the pom (a filtered resource), not from the code:
     * {@code dlock 0.1.0-SNAPSHOT} when built from the pom of that version.
     */
    @Test
    void version_isThePomsVersion() {
        String pomVersion = System.getProperty("dlock.test.project-version");
        assertTrue(pomVersion != null && !pomVersion.isEmpty(), "surefire sets dlock.test.project-version (samples/pom.xml)");
        Run r = Run.dlock("--version");
        assertEquals(0, r.code(), r::toString);
        assertEquals("dlock " + pomVersion + System.lineSeparator(), r.out(), r::toString);
    }

    /** {@code --nodes} accepts a number, lists, doubling ranges (upper end included), stepped ranges and mixes. */
    @Test
    void parseNodes_forms() {
        assertEquals(List.of(5), NodeCounts.parse("5", 2, 1024).counts());
        assertEquals(List.of(3, 5, 8), NodeCounts.parse("8,3,5,3", 2, 1024).counts());
        assertEquals(List.of(2, 4, 8, 16, 32, 64, 128, 256),
                NodeCounts.parse("2..256", 2, NodeCounts.MAX_SWEEP_NODES).counts());
        assertEquals(List.of(3, 6, 12, 20), NodeCounts.parse("3..20", 2, 1024).counts());
        assertEquals(List.of(2, 5, 8, 11), NodeCounts.parse("2..11:3", 2, 1024).counts());
        assertEquals(List.of(3, 8, 16, 32), NodeCounts.parse("3, 8..32", 2, 1024).counts());
        assertEquals("3, 8..32", NodeCounts.parse("3, 8..32", 2, 1024).spec(), "the text as written, for the report");
    }

    /** Malformed or out-of-range node counts are refused with a message that names the part and the forms. */
    @ParameterizedTest
    @ValueSource(strings = {"x", "2..", "1", "2..2000", "8..2", "2..8:0", ""})
    void parseNodes_refusesBadSpecs(String spec) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NodeCounts.parse(spec, 2, 1024));
        assertTrue(e.getMessage().length() > 10, e.getMessage());
    }

    /** A sweep above N = 1024 is refused with a message that says why and what to use instead. */
    @Test
    void sweep_capsN() {
        Run r = Run.dlock("sweep", "--nodes", "2..2048");
        assertEquals(2, r.code(), r::toString);
        assertTrue(r.err().startsWith("Invalid value for option '--nodes': node count 2048 in '2..2048' is outside "
                + "2..1024 (above 1024"), r::toString);
        assertTrue(r.err().contains("Usage: dlock sweep"), r::toString);
    }

    /** {@code --format} takes text, json and the old alias table, and nothing else. */
    @Test
    void format_converter() {
        OutputFormat.Converter c = new OutputFormat.Converter();
        assertEquals(OutputFormat.TEXT, c.convert("text"));
        assertEquals(OutputFormat.TEXT, c.convert("table"));
        assertEquals(OutputFormat.JSON, c.convert("JSON"));
        assertThrows(CommandLine.TypeConversionException.class, () -> c.convert("xml"));
    }

    /** Every command answers {@code --help} with its usage and exit code 0. */
    @ParameterizedTest
    @ValueSource(strings = {"compare", "sweep", "report", "trace", "elect", "node", "bench", "check-history"})
    void help_everyCommand(String command) {
        Run r = Run.dlock(command, "--help");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().startsWith("Usage: dlock " + command), r::toString);
    }

    /** With no command the jar prints its usage, listing every command. */
    @Test
    void noArguments_printsUsage() {
        Run r = Run.dlock();
        assertEquals(0, r.code(), r::toString);
        for (String c : List.of("compare", "sweep", "report", "trace", "elect", "node", "bench", "check-history")) {
            assertTrue(r.out().contains("  " + c + " "), r::toString);
        }
    }

    /** A bad option gives a one-line error naming it, then the command's usage, and exit code 2. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "compare --format xml|--format",
        "compare --nodes 0|--nodes",
        "compare --algorithms nope|nope",
        "compare --bogus|--bogus",
        "sweep --nodes 2..x|--nodes",
        "sweep --algorithms ricart-agrawala,nope|nope",
        "sweep --entries 0|--entries",
        "sweep --workload busy|--workload",
        "sweep --seeds 0|--seeds",
        "sweep --entries-per-node 0|--entries-per-node",
        "bench --mutex-option nope=1|--mutex-option",
        "report --nodes 0..4|--nodes",
        "report --election-nodes x|--election-nodes",
        "trace --nodes 0|--nodes",
        "trace --algorithm nope|nope",
        "trace --delay slow|--delay",
        "elect --ring sideways|--ring",
        "elect --algorithm nope|nope",
        "elect --format yaml|--format",
        "elect --crash-leader --nodes 1|--crash-leader",
        "node --algorithm nope --stack loopback|nope",
        "bench --nodes 1|--nodes",
        "bench --format yaml|--format"})
    void badOption_oneLineErrorUsageAndExit2(String args, String named) {
        Run r = Run.dlock(args.split(" "));
        assertEquals(2, r.code(), r::toString);
        String[] lines = r.err().split("\\R");
        assertTrue(lines[0].contains(named), r::toString);
        assertTrue(lines[1].startsWith("Usage: dlock " + args.split(" ")[0]), r::toString);
        assertEquals("", r.out(), r::toString);
    }

    /**
     * Every command refuses a bad value the same way: "Invalid value for option '--x'", the bad value and the
     * allowed values on the first line, then the command's usage, exit code 2. One row per kind of option: a
     * format, a node-count set, a number out of range, a named choice, an algorithm.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "compare --format xml|--format|'xml' is not a format; allowed: text, table, json",
        "sweep --format csv|--format|'csv' is not a format; allowed: text, table, json",
        "elect --format yaml|--format|'yaml' is not a format; allowed: text, table, json",
        "bench --format xml|--format|'xml' is not a format; allowed: text, table, json",
        "sweep --nodes 2..x|--nodes|'2..x' is not a node count; allowed: a number, a list 3,5,8, a doubling range",
        "report --nodes 0..4|--nodes|node count 0 in '0..4' is outside 2..1024",
        "report --election-nodes 2..5000|--election-nodes|node count 5000 in '2..5000' is outside 2..4096",
        "bench --nodes 65|--nodes|node count 65 in '65' is outside 2..64",
        "compare --nodes 0|--nodes|0 is outside 1..1024",
        "elect --nodes 5000|--nodes|5000 is outside 1..4096",
        "trace --nodes 65|--nodes|65 is outside 1..64",
        "sweep --entries 0|--entries|0 is less than 1",
        "sweep --workload busy|--workload|'busy' is not a workload; allowed: default, moderate, light, heavy",
        "sweep --seeds 1001|--seeds|1001 is outside 1..1000",
        "sweep --entries-per-node 0|--entries-per-node|0 is less than 1",
        "sweep --entries 10 --entries-per-node 2|--entries-per-node|2 given with --entries 10; give one of them",
        "trace --entries -1|--entries|-1 is less than 0",
        "elect --ring sideways|--ring|'sideways' is not a ring order; allowed: increasing, decreasing, random",
        "elect --starters some|--starters|'some' is not a choice of starters; allowed: all, lowest, highest, random",
        "elect --delay slow|--delay|'slow' is not a delay model; allowed: unit, random",
        "trace --delay slow|--delay|'slow' is not a delay model; allowed: unit, random",
        "bench --transport udp|--transport|'udp' is not a transport choice; allowed: jgroups, inmemory, both",
        "elect --algorithm nope|--algorithm|dlock.election=nope is not a known algorithm; allowed: ",
        "elect --algorithm view|--algorithm|the view election sends no messages; choose a message-passing one: bully",
        "compare --algorithms lamport,nope|--algorithms|dlock.mutex=nope is not a known algorithm; allowed: centralized",
        "trace --algorithm nope|--algorithm|dlock.mutex=nope is not a known algorithm; allowed: centralized"})
    void badValue_namesOptionValueAndAllowedValues(String args, String option, String message) {
        Run r = Run.dlock(args.split(" "));
        assertEquals(2, r.code(), r::toString);
        String[] lines = r.err().split("\\R");
        assertTrue(lines[0].startsWith("Invalid value for option '" + option + "'"), r::toString);
        assertTrue(lines[0].contains(message), r::toString);
        assertTrue(lines[1].startsWith("Usage: dlock " + args.split(" ")[0]), r::toString);
        assertEquals("", r.out(), r::toString);
    }

    /** Names are case-insensitive, and the documented spellings give the documented output. */
    @Test
    void choices_caseInsensitive() {
        Run upper = Run.dlock("elect", "--nodes", "4", "--ring", "DECREASING", "--delay", "Unit", "--format", "JSON");
        Run lower = Run.dlock("elect", "--nodes", "4", "--ring", "decreasing", "--delay", "unit", "--format", "json");
        assertEquals(0, upper.code(), upper::toString);
        assertEquals(lower, upper);
        assertTrue(lower.out().contains("\"ring\": \"decreasing\""), lower::toString);
    }

    /** An unknown command is refused with exit code 2, naming it and suggesting the nearest commands. */
    @Test
    void unknownCommand_exit2() {
        Run r = Run.dlock("nosuchcommand");
        assertEquals(2, r.code(), r::toString);
        assertTrue(r.err().startsWith("Unmatched argument at index 0: 'nosuchcommand'"), r::toString);
    }
}
