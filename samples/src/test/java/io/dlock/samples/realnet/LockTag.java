package io.dlock.samples.realnet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lock a history line of {@link NemesisNode} is about, written in front of its process as
 * {@code <lock>/<process>}, and the split of a run's lines into one history per lock, which the history checker
 * judges one by one (it judges one lock's clients and store). Lines whose process carries no lock (a JVM's
 * {@code started} and {@code view} lines, the nemesis's own) belong to every lock's history.
 */
final class LockTag {

    private static final char SEPARATOR = '/';

    private LockTag() {
    }

    /** {@code process} tagged with {@code lock}. */
    static String tag(String lock, String process) {
        return lock + SEPARATOR + process;
    }

    /**
     * Splits history lines ({@code <time> <process> <op> [<arg>...]}) into one list per lock, in the order of
     * {@code locks}, each line in its given order: a tagged line goes, untagged, to its lock's list; an untagged
     * line to every list.
     *
     * @throws IllegalArgumentException naming the line, if it is tagged with a lock not in {@code locks} or has no
     *                                  process
     */
    static Map<String, List<String>> split(List<String> lines, List<String> locks) {
        Map<String, List<String>> byLock = new LinkedHashMap<>();
        locks.forEach(lock -> byLock.put(lock, new ArrayList<>()));
        for (String line : lines) {
            int processStart = line.indexOf(' ') + 1;
            int processEnd = line.indexOf(' ', processStart);
            if (processStart == 0 || processEnd < 0) {
                throw new IllegalArgumentException("a history line without a process: '" + line + "'");
            }
            int separator = line.indexOf(SEPARATOR, processStart);
            if (separator < 0 || separator > processEnd) {
                byLock.values().forEach(list -> list.add(line));
                continue;
            }
            String lock = line.substring(processStart, separator);
            List<String> list = byLock.get(lock);
            if (list == null) {
                throw new IllegalArgumentException("a history line of lock '" + lock + "', which is not one of "
                        + locks + ": '" + line + "'");
            }
            list.add(line.substring(0, processStart) + line.substring(separator + 1));
        }
        return byLock;
    }
}
