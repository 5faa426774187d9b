package io.dlock.samples.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dlock.StaleFencingTokenException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fenced store reads only its last line on a write, and sees the same last entry as its whole history. */
class FencedFileTest {

    @TempDir
    Path dir;

    /** An empty store has no last entry, and the first update sees null. */
    @Test
    void emptyStore_hasNoLastEntry() {
        FencedFile store = new FencedFile(dir.resolve("store.txt"));
        assertEquals(Optional.empty(), store.last());
        List<String> seen = new ArrayList<>();
        store.update(1, last -> {
            seen.add(String.valueOf(last));
            return "a";
        });
        assertEquals(List.of("null"), seen);
        assertEquals(Optional.of(new FencedFile.Entry(1, "a")), store.last());
    }

    /**
     * Values shorter and longer than the block the last line is searched in, with characters of several
     * bytes: each update sees exactly the value the one before it wrote, and the history keeps every write.
     */
    @Test
    void update_seesTheLastValue_whateverItsLength() {
        FencedFile store = new FencedFile(dir.resolve("store.txt"));
        List<FencedFile.Entry> written = new ArrayList<>();
        String previous = null;
        for (int i = 0; i < 60; i++) {
            String value = i + ":" + "ä€x".repeat(i * 7 % 200);
            String expected = previous;
            store.update(i / 3, last -> {
                assertEquals(expected, last);
                return value;
            });
            written.add(new FencedFile.Entry(i / 3, value));
            assertEquals(Optional.of(written.get(written.size() - 1)), store.last());
            previous = value;
        }
        assertEquals(written, store.history());
    }

    /** The last line is found after blank lines at the end, and the highest token still fences. */
    @Test
    void lastLine_skipsTrailingLineBreaks_andStillFences() throws IOException {
        Path file = dir.resolve("store.txt");
        Files.write(file, ("3 a\n" + "7 " + "b".repeat(600) + "\n\n\n").getBytes(StandardCharsets.UTF_8));
        FencedFile store = new FencedFile(file);
        assertEquals(Optional.of(new FencedFile.Entry(7, "b".repeat(600))), store.last());
        StaleFencingTokenException e = assertThrows(StaleFencingTokenException.class, () -> store.write(5, "late"));
        assertEquals(7, e.highestAccepted());
        store.write(7, "c");
        assertEquals(Optional.of(new FencedFile.Entry(7, "c")), store.last());
    }

    /** A file of line breaks only is an empty store. */
    @Test
    void onlyLineBreaks_isEmpty() throws IOException {
        Path file = dir.resolve("store.txt");
        Files.writeString(file, "\n".repeat(300));
        assertEquals(Optional.empty(), new FencedFile(file).last());
        assertEquals(List.of(), new FencedFile(file).history());
    }
}
