package io.dlock.samples.history;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the accepted writes of a fenced store kept as text, as {@code io.dlock.samples.examples.FencedFile} keeps them: one line
 * per accepted write, oldest first, {@code <token> <value>}, where the value's first word is the counter
 * (e.g. {@code 17 5 n2 r4}: token 17, counter 5; the rest of the value is ignored). Empty lines are skipped.
 *
 * <p>This class only reads text; it does not depend on {@code FencedFile}, so any store that can print its accepted
 * writes in this form can be checked.
 */
public final class StoreFile {

    private StoreFile() {
    }

    /**
     * The entries of these lines, in order.
     *
     * @param lines the lines of a store file, oldest write first
     * @return the entries, in store order; unmodifiable
     * @throws IllegalArgumentException naming the line number (1-based), the line and what is wrong with it
     */
    public static List<StoreEntry> parse(List<String> lines) {
        List<StoreEntry> entries = new ArrayList<>(lines.size());
        int number = 0;
        for (String line : lines) {
            number++;
            if (line.isEmpty()) {
                continue;
            }
            String[] words = line.split(" ", 3);
            if (words.length < 2) {
                throw new IllegalArgumentException("line " + number + ": '" + line
                        + "': expected <token> <counter>[ <rest of the value>]");
            }
            entries.add(new StoreEntry(number(words[0], "token", number, line),
                    number(words[1], "counter", number, line)));
        }
        return List.copyOf(entries);
    }

    /**
     * Reads and {@linkplain #parse parses} a store file (UTF-8).
     *
     * @param file the store file
     * @return the entries, in store order; unmodifiable
     * @throws IOException              if the file cannot be read
     * @throws IllegalArgumentException naming the file, the line number, the line and what is wrong with it
     */
    public static List<StoreEntry> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        try {
            return parse(lines);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    private static long number(String text, String what, int number, String line) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("line " + number + ": '" + line + "': the " + what + " '" + text
                    + "' is not a whole number (a long)", e);
        }
    }
}
