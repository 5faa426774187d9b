package io.dlock.samples.history;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What a check found, as it finds it: violations by kind (every one counted, the first {@link #LISTED_PER_KIND} of
 * each kind kept as text) and notes (the first {@link #NOTES_LISTED} kept). Not thread-safe; one per check.
 */
final class Findings {

    /** Violations of one kind kept as text; the rest are counted. */
    static final int LISTED_PER_KIND = 1_000;
    /** Notes kept as text; the rest are counted. */
    static final int NOTES_LISTED = 200;

    private final Map<ViolationKind, Integer> counts = new EnumMap<>(ViolationKind.class);
    private final List<String> violations = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private int noteCount;
    private int excusedByLoss;
    private int excusedByCrash;

    /** Records a violation of {@code kind}, explained by {@code text}. */
    void violation(ViolationKind kind, String text) {
        int n = counts.merge(kind, 1, Integer::sum);
        if (n <= LISTED_PER_KIND) {
            violations.add("[" + kind.label() + "] " + text);
        }
    }

    /** Records a remark that is no violation. */
    void note(String text) {
        if (++noteCount <= NOTES_LISTED) {
            notes.add(text);
        }
    }

    /** Records an overlap excused because the earlier hold ended so. */
    void excusedOverlap(HoldEnd end, String text) {
        if (end == HoldEnd.LOST) {
            excusedByLoss++;
        } else {
            excusedByCrash++;
        }
        note("excused overlap: " + text);
    }

    int count(ViolationKind kind) {
        return counts.getOrDefault(kind, 0);
    }

    /** The violation lines kept, with one more line per kind that had more than could be kept. */
    List<String> violations() {
        List<String> all = new ArrayList<>(violations);
        for (ViolationKind kind : ViolationKind.values()) {
            int more = count(kind) - LISTED_PER_KIND;
            if (more > 0) {
                all.add("[" + kind.label() + "] ... and " + more + " more not listed");
            }
        }
        return all;
    }

    /** The notes kept, with one more line if there were more. */
    List<String> notes() {
        List<String> all = new ArrayList<>(notes);
        if (noteCount > NOTES_LISTED) {
            all.add("... and " + (noteCount - NOTES_LISTED) + " more notes not listed");
        }
        return all;
    }

    int excusedByLoss() {
        return excusedByLoss;
    }

    int excusedByCrash() {
        return excusedByCrash;
    }
}
