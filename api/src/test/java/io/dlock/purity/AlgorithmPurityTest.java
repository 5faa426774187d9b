package io.dlock.purity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The algorithm packages ({@code io.dlock.mutex.*}, {@code io.dlock.election.*}), the condition protocol
 * ({@code io.dlock.condition}), the reclamation round ({@code io.dlock.reclaim}) and the membership rules every driver shares ({@code io.dlock.membership}:
 * the majority rule, the gate, the epoch inbox, which the simulator's nodes run too) stay pure state machines,
 * checked mechanically on their sources: no clock, sleep, unseeded randomness, thread, executor, lock
 * primitive, network or JGroups API, and no logging side channel (DESIGN.md, "The three layers").
 */
class AlgorithmPurityTest {

    /**
     * What an algorithm may not use, with why. Comments and Javadoc are not scanned. {@code Clock.} is
     * {@code java.time.Clock}, matched as a whole word: {@code LogicalClock.tick(...)}, the pure Lamport
     * clock's rules, is allowed.
     */
    private static final List<Pattern> FORBIDDEN = Stream.of(
            "System\\.(nanoTime|currentTimeMillis)", "Instant\\.now", "\\bClock\\.", "Thread\\.sleep",
            "new Random\\(\\)", "Math\\.random", "ThreadLocalRandom", "new Thread\\(", "Executor",
            "\\bsynchronized\\b", "java\\.util\\.concurrent\\.locks", "java\\.net\\.", "org\\.jgroups\\.",
            "org\\.slf4j\\.", "System\\.(out|err)", "java\\.io\\.(File|PrintStream)").map(Pattern::compile).toList();

    private static final Pattern COMMENTS = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n]*");

    /** No forbidden API appears in the code of any algorithm package. */
    @Test
    void algorithmPackagesUseNoClockThreadIoOrLogging() throws IOException {
        List<String> found = new ArrayList<>();
        int files = 0;
        for (String family : List.of("mutex", "election", "condition", "membership", "reclaim")) {
            Path root = Path.of("src/main/java/io/dlock", family);
            assertTrue(Files.isDirectory(root), "run from the api module: " + root.toAbsolutePath());
            try (Stream<Path> sources = Files.walk(root)) {
                for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                    files++;
                    scan(source, found);
                }
            }
        }
        assertTrue(files > 50, "scanned only " + files + " files");
        assertEquals(List.of(), found);
    }

    /** Adds to {@code found} each forbidden API that {@code source}'s code (not its comments) uses. */
    private static void scan(Path source, List<String> found) throws IOException {
        String code = COMMENTS.matcher(Files.readString(source)).replaceAll("");
        for (Pattern p : FORBIDDEN) {
            Matcher m = p.matcher(code);
            if (m.find()) {
                found.add(source + ": " + m.group());
            }
        }
    }
}
