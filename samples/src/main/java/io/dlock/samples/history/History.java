package io.dlock.samples.history;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * A recorded history: its events in time order. Lines of a history file need not be sorted (several processes append
 * to it); the events are sorted by {@link HistoryEvent#time() time}, and events with equal times keep their order in
 * the input (a stable sort), so a process's own events, written in order, stay in order.
 *
 * <p>Immutable and thread-safe.
 */
public final class History {

    private static final Comparator<HistoryEvent> BY_TIME = Comparator.comparingLong(HistoryEvent::time);

    private final List<HistoryEvent> events;

    private History(List<HistoryEvent> sorted) {
        this.events = List.copyOf(sorted);
    }

    /**
     * The history of these events, sorted by time (stable).
     *
     * @param events the events, in any order; of equal times, the first in iteration order stays first
     * @return the history
     * @throws NullPointerException if {@code events} or one of them is null
     */
    public static History of(Collection<HistoryEvent> events) {
        List<HistoryEvent> sorted = new ArrayList<>(events);
        sorted.sort(BY_TIME);
        return new History(sorted);
    }

    /**
     * Parses the lines of a history file: {@code <timeNanos> <process> <op> [<arg>...]}, fields separated by single
     * spaces; blank lines and lines starting with {@code #} are skipped.
     *
     * @param lines the lines, in file order
     * @return the history
     * @throws IllegalArgumentException naming the line number (1-based), the line and what is wrong with it
     */
    public static History parse(List<String> lines) {
        List<HistoryEvent> events = new ArrayList<>(lines.size());
        int number = 0;
        for (String line : lines) {
            number++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            try {
                events.add(parseLine(line));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + number + ": '" + line + "': " + e.getMessage(), e);
            }
        }
        return of(events);
    }

    /**
     * Reads and {@linkplain #parse parses} a history file (UTF-8).
     *
     * @param file the history file
     * @return the history
     * @throws IOException              if the file cannot be read
     * @throws IllegalArgumentException naming the file, the line number, the line and what is wrong with it
     */
    public static History read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        try {
            return parse(lines);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    private static HistoryEvent parseLine(String line) {
        int afterTime = line.indexOf(' ');
        int afterProcess = afterTime < 0 ? -1 : line.indexOf(' ', afterTime + 1);
        if (afterProcess < 0) {
            throw new IllegalArgumentException("expected <timeNanos> <process> <op> [<arg>...]");
        }
        String timeText = line.substring(0, afterTime);
        long time;
        try {
            time = Long.parseLong(timeText);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("time '" + timeText + "' is not a whole number of nanoseconds", e);
        }
        String process = line.substring(afterTime + 1, afterProcess);
        int afterOp = line.indexOf(' ', afterProcess + 1);
        String op = afterOp < 0 ? line.substring(afterProcess + 1) : line.substring(afterProcess + 1, afterOp);
        if (process.isEmpty() || op.isEmpty()) {
            throw new IllegalArgumentException("empty " + (process.isEmpty() ? "process" : "operation")
                    + " field (fields are separated by single spaces)");
        }
        String rest = afterOp < 0 ? null : line.substring(afterOp + 1);
        List<String> args;
        if (EventSyntax.isTextOp(op)) {
            args = List.of(rest == null ? "" : rest);
        } else if (rest == null) {
            args = List.of();
        } else {
            args = List.of(rest.split(" ", -1));
        }
        return new HistoryEvent(time, process, op, args);
    }

    /** {@return the events, sorted by time; equal times keep their input order; unmodifiable} */
    public List<HistoryEvent> events() {
        return events;
    }

    /** {@return the time of the first event, from which reports measure their times; 0 if the history is empty} */
    public long startNanos() {
        return events.isEmpty() ? 0 : events.get(0).time();
    }

    /** {@return the time from the first event to the last; 0 if the history has fewer than two events} */
    public long durationNanos() {
        return events.isEmpty() ? 0 : events.get(events.size() - 1).time() - events.get(0).time();
    }

    @Override
    public String toString() {
        return "History[" + events.size() + " events over " + Millis.of(durationNanos()) + "]";
    }
}
