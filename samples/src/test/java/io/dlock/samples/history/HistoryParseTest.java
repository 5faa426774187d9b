package io.dlock.samples.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link History#parse}, {@link History#read}, {@link HistoryEvent} and {@link StoreFile}: the fixed text formats. */
class HistoryParseTest {

    /** Lines come back sorted by time; equal times keep their file order; blank lines and comments are skipped. */
    @Test
    void parse_sortsByTimeStably_andSkipsBlankAndCommentLines() {
        History h = History.parse(List.of(
                "# a history",
                "30 1.1.1 release",
                "",
                "10 1.1.1 acquire",
                "   ",
                "20 1.1.1 granted 7",
                "20 2.1.1 acquire",
                "-5 nemesis begin pause 2,3 majority 1",
                "20 1.1.1 write 7 1"));
        assertEquals(List.of("-5 nemesis begin pause 2,3 majority 1", "10 1.1.1 acquire", "20 1.1.1 granted 7",
                "20 2.1.1 acquire", "20 1.1.1 write 7 1", "30 1.1.1 release"),
                h.events().stream().map(HistoryEvent::toLine).toList());
        assertEquals(-5, h.startNanos());
        assertEquals(35, h.durationNanos());
        HistoryEvent write = h.events().get(4);
        assertEquals(new HistoryEvent(20, "1.1.1", "write", List.of("7", "1")), write);
        assertEquals(7, write.longArg(0));
    }

    /** The free text of {@code error} and {@code startfail} is one argument, kept verbatim. */
    @Test
    void parse_keepsErrorTextVerbatim() {
        History h = History.parse(List.of("1 3.1.2 error java.io.IOException:  two  spaces", "2 3.1.0 startfail",
                "3 nemesis error"));
        assertEquals(List.of("java.io.IOException:  two  spaces"), h.events().get(0).args());
        assertEquals(List.of(""), h.events().get(1).args());
        assertEquals("1 3.1.2 error java.io.IOException:  two  spaces", h.events().get(0).toLine());
        assertEquals("2 3.1.0 startfail", h.events().get(1).toLine());
    }

    /** A line that does not parse is refused with its line number (1-based, blank lines counted), its text and why. */
    @Test
    void parse_errorNamesLineNumberTextAndReason() {
        assertParseError("line 3: '5 1.1.1 granted x': granted: token 'x' is not a whole number (a long)",
                "1 1.1.1 acquire", "", "5 1.1.1 granted x");
        assertParseError("line 1: 'abc 1.1.1 acquire': time 'abc' is not a whole number of nanoseconds",
                "abc 1.1.1 acquire");
        assertParseError("line 1: '1 1.1.1 grant 3': unknown client operation 'grant' (allowed: acquire, granted, "
                + "refused, release, released, lost, told, write, stale, error)", "1 1.1.1 grant 3");
        assertParseError("line 1: '1 node3 acquire': process 'node3' is neither 'nemesis' nor "
                + "<node>.<incarnation>.<thread> (three non-negative numbers, e.g. 3.1.2)", "1 node3 acquire");
        assertParseError("line 1: '1 1.1.1 granted  3': granted: argument '' is empty or holds a space (fields are "
                + "separated by single spaces)",
                "1 1.1.1 granted  3");
        assertParseError("line 1: '1 1.1.1': expected <timeNanos> <process> <op> [<arg>...]", "1 1.1.1");
        assertParseError("line 1: '1 1.1.1 acquire now': acquire takes 0 argument(s) (acquire), got 1: [now]",
                "1 1.1.1 acquire now");
        assertParseError("line 1: '1 1.1.0 acquire': unknown operation 'acquire' of a node's JVM (thread 0) "
                + "(allowed: started, startfail, view, told, error)", "1 1.1.0 acquire");
        assertParseError("line 1: '1 nemesis begin pause 2;3': node list '2;3' is neither '-' nor comma-separated "
                + "node numbers (e.g. 1,3): '2;3' is not one", "1 nemesis begin pause 2;3");
        assertParseError("line 1: '1 nemesis begin pause 2 minority 1': begin takes <kind> <n1,n2,...|-> "
                + "[majority <m1,m2,...|->], got 4 argument(s): [pause, 2, minority, 1]",
                "1 nemesis begin pause 2 minority 1");
        assertParseError("line 1: '1 nemesis crash 1,2': crash takes one node number, got '1,2'",
                "1 nemesis crash 1,2");
    }

    /** {@link History#read} reads a UTF-8 file and names the file in a parse error. */
    @Test
    void read_namesFileInParseError(@TempDir Path dir) throws IOException {
        Path good = dir.resolve("good.txt");
        Files.write(good, List.of("2 nemesis crash 1", "1 1.1.0 started 10"), StandardCharsets.UTF_8);
        assertEquals(List.of("1 1.1.0 started 10", "2 nemesis crash 1"),
                History.read(good).events().stream().map(HistoryEvent::toLine).toList());
        Path bad = dir.resolve("bad.txt");
        Files.write(bad, List.of("1 1.1.0 started soon"), StandardCharsets.UTF_8);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> History.read(bad));
        assertEquals(bad + ": line 1: '1 1.1.0 started soon': started: millisToStart 'soon' is not a whole number "
                + "(a long)", e.getMessage());
    }

    /** An event built in code is checked as a parsed line is. */
    @Test
    void event_isWellFormedByConstruction() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new HistoryEvent(1, "1.1.1", "write", List.of("7")));
        assertEquals("write takes 2 argument(s) (write <token> <value>), got 1: [7]", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new HistoryEvent(1, "1.1.1", "error", List.of("a\nb")));
        assertThrows(IllegalArgumentException.class, () -> new HistoryEvent(1, "1.-1.1", "acquire", List.of()));
    }

    /** A store file: {@code <token> <counter> [rest]} per line, as FencedFile writes it; errors name the line. */
    @Test
    void storeFile_readsTokenAndCounter(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("store.txt");
        Files.write(file, List.of("3 1 n1 r0", "", "5 2 n2 r1", "5 3"), StandardCharsets.UTF_8);
        assertEquals(List.of(new StoreEntry(3, 1), new StoreEntry(5, 2), new StoreEntry(5, 3)), StoreFile.read(file));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StoreFile.parse(List.of("3 1 n1 r0", "4 n2 r1")));
        assertEquals("line 2: '4 n2 r1': the counter 'n2' is not a whole number (a long)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> StoreFile.parse(List.of("42")));
        assertTrue(e.getMessage().startsWith("line 1: '42': expected <token> <counter>"), e.getMessage());
    }

    private static void assertParseError(String expected, String... lines) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> History.parse(List.of(lines)));
        assertEquals(expected, e.getMessage());
    }
}
