package io.dlock.samples.history;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What {@link HistoryChecker#check} found in a history: the verdict, each violation as a readable line, the counts and
 * the availability figures. Times in violation lines and in the {@link #summary()} are milliseconds with three
 * decimals since the history's first event. Immutable and thread-safe.
 *
 * <p>Every violation is counted; the first 1000 of each {@link ViolationKind} are kept as text, and
 * {@link #violations()} ends with one "... and N more not listed" line per kind that had more.
 */
public final class CheckReport {

    private final int events;
    private final long durationNanos;
    private final int nodes;
    private final int acquires;
    private final int grants;
    private final int holds;
    private final int openHolds;
    private final int unlocksPending;
    private final int refused;
    private final int indeterminateAcquires;
    private final int pendingAcquires;
    private final int lostHolds;
    private final int crashedHolds;
    private final int told;
    private final int writes;
    private final int staleWrites;
    private final int errors;
    private final int starts;
    private final long slowestStartMillis;
    private final int failedStarts;
    private final int crashes;
    private final int ignoredAfterCrash;
    private final int excusedByLoss;
    private final int excusedByCrash;
    private final int storeEntries;
    private final long longestStallNanos;
    private final Map<ViolationKind, Integer> violationCounts;
    private final List<String> violations;
    private final List<String> notes;
    private final List<FaultWindowFigures> windows;

    CheckReport(HistoryReplay replay, Findings findings, List<FaultWindowFigures> windows, long longestStallNanos,
                int storeEntries) {
        this.events = replay.events;
        this.durationNanos = replay.lastAt;
        this.nodes = replay.nodes.size();
        this.acquires = replay.acquires;
        this.grants = replay.grants.size();
        this.holds = count(replay.holds, null) - count(replay.holds, HoldEnd.OPEN);
        this.openHolds = count(replay.holds, HoldEnd.OPEN);
        this.unlocksPending = count(replay.holds, HoldEnd.UNLOCK_PENDING);
        this.refused = replay.refused;
        this.indeterminateAcquires = replay.indeterminateAcquires;
        this.pendingAcquires = replay.pendingAcquires;
        this.lostHolds = count(replay.holds, HoldEnd.LOST);
        this.crashedHolds = count(replay.holds, HoldEnd.CRASHED);
        this.told = replay.told;
        this.writes = replay.writes.size();
        this.staleWrites = replay.staleWrites;
        this.errors = replay.errors;
        this.starts = replay.starts;
        this.slowestStartMillis = replay.slowestStartMillis;
        this.failedStarts = replay.failedStarts;
        this.crashes = replay.crashes;
        this.ignoredAfterCrash = replay.ignoredAfterCrash;
        this.excusedByLoss = findings.excusedByLoss();
        this.excusedByCrash = findings.excusedByCrash();
        this.storeEntries = storeEntries;
        this.longestStallNanos = longestStallNanos;
        EnumMap<ViolationKind, Integer> counts = new EnumMap<>(ViolationKind.class);
        for (ViolationKind kind : ViolationKind.values()) {
            counts.put(kind, findings.count(kind));
        }
        this.violationCounts = counts;
        this.violations = List.copyOf(findings.violations());
        this.notes = List.copyOf(findings.notes());
        this.windows = List.copyOf(windows);
    }

    private static int count(List<Hold> holds, HoldEnd end) {
        if (end == null) {
            return holds.size();
        }
        int n = 0;
        for (Hold h : holds) {
            if (h.end() == end) {
                n++;
            }
        }
        return n;
    }

    /**
     * {@return whether the history passed: no violation of rules 1 to 3, no failed start, no error and no client event
     * out of sequence ({@link #violationCount()} is 0)}
     */
    public boolean valid() {
        return violationCount() == 0;
    }

    /** {@return the number of violations found, of every kind} */
    public int violationCount() {
        int n = 0;
        for (int c : violationCounts.values()) {
            n += c;
        }
        return n;
    }

    /**
     * {@return the number of violations of one kind found}
     *
     * @param kind the kind
     */
    public int violationCount(ViolationKind kind) {
        return violationCounts.get(kind);
    }

    /**
     * {@return each violation as a readable line starting with its kind's label in brackets, in the order found:
     * failed starts, errors and malformed events in time order, then rule 1, rule 2 and rule 3; unmodifiable}
     */
    public List<String> violations() {
        return violations;
    }

    /**
     * {@return the {@linkplain #violations() violation lines} of one kind}
     *
     * @param kind the kind
     */
    public List<String> violations(ViolationKind kind) {
        String prefix = "[" + kind.label() + "] ";
        return violations.stream().filter(v -> v.startsWith(prefix)).collect(Collectors.toUnmodifiableList());
    }

    /**
     * {@return remarks that are no violation: excused overlaps (which holds, and why excused), holds open or being
     * released at the end of the history, events ignored after their node's crash, nemesis ends that closed no
     * window; the first 200 are kept}
     */
    public List<String> notes() {
        return notes;
    }

    /** {@return the availability figures of each fault window, in order of their begin} */
    public List<FaultWindowFigures> windows() {
        return windows;
    }

    /**
     * {@return the longest time between two consecutive {@code granted} events of any clients; -1 with fewer than
     * two}
     */
    public long longestStallNanos() {
        return longestStallNanos;
    }

    /** {@return the number of events in the history} */
    public int events() {
        return events;
    }

    /** {@return the time from the history's first event to its last} */
    public long durationNanos() {
        return durationNanos;
    }

    /** {@return the number of nodes that recorded events (through a client or the node's JVM)} */
    public int nodes() {
        return nodes;
    }

    /** {@return the number of {@code acquire} events} */
    public int acquires() {
        return acquires;
    }

    /** {@return the number of {@code granted} events: {@link #holds()} plus {@link #openHolds()}} */
    public int grants() {
        return grants;
    }

    /**
     * {@return the number of holds with a certain end of their holding interval: unlock invoked (whatever it
     * returned, if it returned) or the node crashed; these are the holds rule 1 judges}
     */
    public int holds() {
        return holds;
    }

    /**
     * {@return the number of holds still held at the end of the history (unlock never invoked): counted, not judged
     * by rule 1}
     */
    public int openHolds() {
        return openHolds;
    }

    /**
     * {@return the number of holds whose unlock was invoked but had not returned by the end of the history (among
     * {@link #holds()})}
     */
    public int unlocksPending() {
        return unlocksPending;
    }

    /** {@return the number of {@code refused} events: acquires that returned without the lock} */
    public int refused() {
        return refused;
    }

    /**
     * {@return the number of acquires ended by a crash of their node or an {@code error}, so whether they were
     * granted is unknown}
     */
    public int indeterminateAcquires() {
        return indeterminateAcquires;
    }

    /** {@return the number of acquires still pending at the end of the history} */
    public int pendingAcquires() {
        return pendingAcquires;
    }

    /** {@return the number of holds that ended {@code lost}} */
    public int lostHolds() {
        return lostHolds;
    }

    /** {@return the number of holds ended by a crash of their node} */
    public int crashedHolds() {
        return crashedHolds;
    }

    /** {@return the number of {@code told} events (an ownership listener said a hold was lost)} */
    public int told() {
        return told;
    }

    /** {@return the number of {@code write} events: writes the store accepted, as the clients recorded them} */
    public int writes() {
        return writes;
    }

    /** {@return the number of {@code stale} events: writes the store refused} */
    public int staleWrites() {
        return staleWrites;
    }

    /** {@return the number of {@code error} events, of any process} */
    public int errors() {
        return errors;
    }

    /** {@return the number of {@code started} events of the nodes' JVMs} */
    public int starts() {
        return starts;
    }

    /** {@return the longest {@code started <millisToStart>}; -1 without a start} */
    public long slowestStartMillis() {
        return slowestStartMillis;
    }

    /** {@return the number of {@code startfail} events} */
    public int failedStarts() {
        return failedStarts;
    }

    /** {@return the number of the nemesis's {@code crash} events} */
    public int crashes() {
        return crashes;
    }

    /** {@return the number of events of an incarnation recorded after its node's crash, ignored} */
    public int ignoredAfterCrash() {
        return ignoredAfterCrash;
    }

    /** {@return the number of overlaps of rule 1 excused because the earlier hold ended {@code lost} or by a crash} */
    public int excusedOverlaps() {
        return excusedByLoss + excusedByCrash;
    }

    /** {@return the number of store entries checked by rule 3; -1 if the check had no store} */
    public int storeEntries() {
        return storeEntries;
    }

    /**
     * {@return a multi-line report for humans: the verdict, the counts, the longest stall, the table of fault windows,
     * the violations and the notes; it ends with a line break}
     */
    public String summary() {
        StringBuilder s = new StringBuilder();
        s.append("History: ").append(events).append(" events over ").append(Millis.of(durationNanos)).append(", ")
                .append(nodes).append(" nodes\n");
        s.append("Verdict: ");
        if (valid()) {
            s.append("VALID, no violation\n");
        } else {
            List<String> kinds = new ArrayList<>();
            violationCounts.forEach((kind, n) -> {
                if (n > 0) {
                    kinds.add(kind.label() + " " + n);
                }
            });
            s.append("INVALID, ").append(violationCount()).append(" violation(s): ").append(String.join(", ", kinds))
                    .append('\n');
        }
        s.append("Acquires: ").append(acquires).append(", granted ").append(grants).append(", refused ")
                .append(refused).append(", indeterminate ").append(indeterminateAcquires)
                .append(", pending at the end ").append(pendingAcquires).append('\n');
        s.append("Holds: ").append(holds).append(" judged (").append(lostHolds).append(" lost, ").append(crashedHolds)
                .append(" killed by a crash, ").append(unlocksPending).append(" unlock pending at the end), ")
                .append(openHolds).append(" open at the end; overlaps excused: ").append(excusedOverlaps())
                .append(" (lost ").append(excusedByLoss).append(", crash ").append(excusedByCrash).append(")\n");
        s.append("Writes: ").append(writes).append(" accepted, ").append(staleWrites).append(" stale; store: ")
                .append(storeEntries < 0 ? "not checked" : storeEntries + " entries").append('\n');
        s.append("Nodes: ").append(starts).append(" starts");
        if (slowestStartMillis >= 0) {
            s.append(" (slowest ").append(slowestStartMillis).append(" ms)");
        }
        s.append(", ").append(failedStarts).append(" failed, ").append(crashes).append(" crashes (")
                .append(ignoredAfterCrash).append(" later events ignored); told ").append(told).append(", errors ")
                .append(errors).append('\n');
        s.append("Longest stall between consecutive grants: ")
                .append(longestStallNanos < 0 ? "none (fewer than two grants)" : Millis.of(longestStallNanos))
                .append('\n');
        appendWindows(s);
        if (!violations.isEmpty()) {
            s.append("Violations:\n");
            violations.forEach(v -> s.append("  ").append(v).append('\n'));
        }
        if (!notes.isEmpty()) {
            s.append("Notes:\n");
            notes.forEach(n -> s.append("  ").append(n).append('\n'));
        }
        return s.toString();
    }

    private void appendWindows(StringBuilder s) {
        if (windows.isEmpty()) {
            s.append("Fault windows: none\n");
            return;
        }
        s.append("Fault windows (ms since the first event; the gap is the longest without a majority grant in "
                + "[begin, end + 10 s]; rejoin is from the end to each target's first grant, and, where later "
                + "faults began before that grant, from the last of their heals):\n");
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"kind", "targets", "begin", "end", "first majority grant", "longest majority gap",
            "rejoin"});
        for (FaultWindowFigures w : windows) {
            List<String> rejoin = new ArrayList<>();
            w.rejoinNanos().forEach((node, nanos) -> {
                long afterLastHeal = w.rejoinAfterLastHealNanos().get(node);
                rejoin.add(node + ": " + orNone(nanos) + (afterLastHeal == nanos ? ""
                        : " (" + orNone(afterLastHeal) + " after the last heal)"));
            });
            rows.add(new String[] {w.kind(), w.targets().isEmpty() ? "-" : w.targets().stream().map(String::valueOf)
                    .collect(Collectors.joining(",")), Millis.number(w.beginNanos()),
                orNone(w.endNanos()), orNone(w.firstMajorityGrantNanos()), orNone(w.longestMajorityGapNanos()),
                rejoin.isEmpty() ? "-" : String.join(", ", rejoin)});
        }
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder("  ");
            for (int i = 0; i < row.length; i++) {
                line.append(row[i]);
                if (i < row.length - 1) {
                    line.append(" ".repeat(widths[i] - row[i].length() + 2));
                }
            }
            s.append(line.toString().stripTrailing()).append('\n');
        }
    }

    private static String orNone(long nanos) {
        return nanos < 0 ? "none" : Millis.number(nanos);
    }

    /** The summary's first two lines. */
    @Override
    public String toString() {
        String summary = summary();
        int second = summary.indexOf('\n', summary.indexOf('\n') + 1);
        return summary.substring(0, second);
    }
}
