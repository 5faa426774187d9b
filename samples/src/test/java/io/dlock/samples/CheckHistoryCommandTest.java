package io.dlock.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code dlock check-history}: the summary, and the exit code of the verdict (0 valid, 1 violation, 2 bad file). */
@Timeout(60)
class CheckHistoryCommandTest {

    private static final List<String> HISTORY = List.of(
            "1000 1.1.1 acquire", "2000 1.1.1 granted 1", "3000 1.1.1 write 1 1", "4000 1.1.1 release",
            "5000 1.1.1 released", "1500 2.1.1 acquire", "6000 2.1.1 granted 2", "7000 2.1.1 write 2 2",
            "8000 2.1.1 release", "9000 2.1.1 released");

    /** A valid history with its store: exit 0, the summary printed. */
    @Test
    void validHistory_exitsZero(@TempDir Path dir) throws Exception {
        Path history = Files.write(dir.resolve("history.txt"), HISTORY, StandardCharsets.UTF_8);
        Path store = Files.write(dir.resolve("store.txt"), List.of("1 1 n1 r0", "2 2 n2 r1"), StandardCharsets.UTF_8);
        Run r = Run.dlock("check-history", history.toString(), "--store", store.toString());
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().contains("Verdict: VALID, no violation\n"), r::toString);
        assertTrue(r.out().contains("store: 2 entries"), r::toString);
    }

    /** A store that lost an update: exit 1, the violation printed. */
    @Test
    void lostUpdate_exitsOne(@TempDir Path dir) throws Exception {
        Path history = Files.write(dir.resolve("history.txt"), HISTORY, StandardCharsets.UTF_8);
        Path store = Files.write(dir.resolve("store.txt"), List.of("1 1 n1 r0", "2 3 n2 r1"), StandardCharsets.UTF_8);
        Run r = Run.dlock("check-history", history.toString(), "--store", store.toString());
        assertEquals(1, r.code(), r::toString);
        assertTrue(r.out().contains("[store] entry 2 (token 2, value 3) follows value 1: value 2 is missing"),
                r::toString);
    }

    /** A history line that does not parse: exit 2, naming the file and the line. */
    @Test
    void unparsableHistory_exitsTwoNamingTheLine(@TempDir Path dir) throws Exception {
        Path history = Files.write(dir.resolve("history.txt"), List.of("1000 1.1.1 acquire", "2000 1.1.1 granted one"),
                StandardCharsets.UTF_8);
        Run r = Run.dlock("check-history", history.toString());
        assertEquals(2, r.code(), r::toString);
        assertTrue(r.err().startsWith("Invalid value for option 'FILE': " + history + ": line 2: "
                + "'2000 1.1.1 granted one': granted: token 'one' is not a whole number (a long)"), r::toString);
    }
}
