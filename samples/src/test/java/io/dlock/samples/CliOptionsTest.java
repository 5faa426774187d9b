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

    /** {@code --nodes} accepts a number, lists, doubling ranges (upper end included), stepped ranges and mixes. */
    @Test
    void parseNodes_forms() {
        assertEquals(List.of(5), Cli.parseNodes("5", 2, 1024));
        assertEquals(List.of(3, 5, 8), Cli.parseNodes("8,3,5,3", 2, 1024));
        assertEquals(List.of(2, 4, 8, 16, 32, 64, 128, 256), Cli.parseNodes("2..256", 2, Cli.MAX_SWEEP_NODES));
        assertEquals(List.of(3, 6, 12, 20), Cli.parseNodes("3..20", 2, 1024));
        assertEquals(List.of(2, 5, 8, 11), Cli.parseNodes("2..11:3", 2, 1024));
        assertEquals(List.of(3, 8, 16, 32), Cli.parseNodes("3, 8..32", 2, 1024));
    }

    /** Malformed or out-of-range node counts are refused with a message that names the part and the forms. */
    @ParameterizedTest
    @ValueSource(strings = {"x", "2..", "1", "2..2000", "8..2", "2..8:0", ""})
    void parseNodes_refusesBadSpecs(String spec) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Cli.parseNodes(spec, 2, 1024));
        assertTrue(e.getMessage().length() > 10, e.getMessage());
    }

    /** A sweep above N = 256 is refused with a message that says why and what to use instead. */
    @Test
    void sweep_capsN() {
        Run r = Run.dlock("sweep", "--nodes", "2..512");
        assertEquals(2, r.code(), r::toString);
        assertTrue(r.err().startsWith("--nodes: node count 512 in '2..512' is outside 2..256 (above 256"), r::toString);
    }

    /** {@code --format} takes text, json and the old alias table, and nothing else. */
    @Test
    void format_converter() {
        Cli.FormatConverter c = new Cli.FormatConverter();
        assertEquals(Cli.Format.TEXT, c.convert("text"));
        assertEquals(Cli.Format.TEXT, c.convert("table"));
        assertEquals(Cli.Format.JSON, c.convert("JSON"));
        assertThrows(CommandLine.TypeConversionException.class, () -> c.convert("xml"));
    }

    /** Every command answers {@code --help} with its usage and exit code 0. */
    @ParameterizedTest
    @ValueSource(strings = {"compare", "sweep", "report", "trace", "elect", "node"})
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
        for (String c : List.of("compare", "sweep", "report", "trace", "elect", "node")) {
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
        "report --nodes 0..4|--nodes",
        "report --election-nodes x|--election-nodes",
        "trace --nodes 0|--nodes",
        "trace --algorithm nope|nope",
        "trace --delay slow|--delay",
        "elect --ring sideways|--ring",
        "elect --algorithm nope|nope",
        "elect --format yaml|--format",
        "node --algorithm nope --stack loopback|nope"})
    void badOption_oneLineErrorUsageAndExit2(String args, String named) {
        Run r = Run.dlock(args.split(" "));
        assertEquals(2, r.code(), r::toString);
        String[] lines = r.err().split("\\R");
        assertTrue(lines[0].contains(named), r::toString);
        assertTrue(lines[1].startsWith("Usage: dlock"), r::toString);
        assertEquals("", r.out(), r::toString);
    }

    /** An unknown command is refused with exit code 2, naming it and suggesting the nearest commands. */
    @Test
    void unknownCommand_exit2() {
        Run r = Run.dlock("nosuchcommand");
        assertEquals(2, r.code(), r::toString);
        assertTrue(r.err().startsWith("Unmatched argument at index 0: 'nosuchcommand'"), r::toString);
    }
}
