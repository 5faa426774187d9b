package io.dlock.samples.history;

import java.util.ArrayList;
import java.util.List;

/** Hand-made histories for the tests, written with times in milliseconds for readability. */
final class Histories {

    /** Where the hand-made histories' clock starts: an arbitrary {@code System.nanoTime()}, negative on purpose. */
    static final long BASE = -5_000_000_000L;

    private Histories() {
    }

    /**
     * The history of {@code text}: lines {@code <ms> <process> <op> [<arg>...]} whose first field, a time in
     * milliseconds (fractions allowed, e.g. {@code 2.5}), becomes {@code BASE + ms * 10^6} nanoseconds. Blank lines and
     * comments are kept as they are.
     */
    static History history(String text) {
        return History.parse(nanos(text));
    }

    /** {@code text}'s lines with their millisecond times turned into nanoseconds. */
    static List<String> nanos(String text) {
        List<String> lines = new ArrayList<>();
        for (String line : text.strip().split("\n")) {
            line = line.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                lines.add(line);
                continue;
            }
            int space = line.indexOf(' ');
            long nanos = Math.round(Double.parseDouble(line.substring(0, space)) * 1_000_000);
            lines.add((BASE + nanos) + line.substring(space));
        }
        return lines;
    }

    /** {@code ms} milliseconds in nanoseconds. */
    static long ms(double ms) {
        return Math.round(ms * 1_000_000);
    }
}
