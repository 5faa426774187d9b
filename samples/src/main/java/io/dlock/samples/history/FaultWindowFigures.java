package io.dlock.samples.history;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The availability figures of one fault window of the nemesis, from its {@code begin} to its {@code end} (or
 * {@code heal}). These are measurements, not a verdict. Every time is in nanoseconds; {@code -1} means "none".
 *
 * <p>The majority is the node list the {@code begin} line gave after {@code majority}, or else every node seen in the
 * history (a client or a node's JVM recorded an event for it) minus the targets. A majority grant is a
 * {@code granted} event of a client of a majority node.
 *
 * @param kind                    the fault's kind as the nemesis wrote it ({@code pause}, {@code isolate},
 *                                {@code split}, {@code kill}, {@code restart}, {@code rolling}, {@code leave} or any
 *                                other word)
 * @param targets                 the nodes the fault hit, as listed (empty for {@code -})
 * @param beginNanos              the window's begin, since the history's first event
 * @param endNanos                the window's end, since the history's first event; -1 if it had not ended by the end
 *                                of the history
 * @param firstMajorityGrantNanos from the begin to the first majority grant at or after it (at any time later, even
 *                                after the end); -1 if there was none
 * @param longestMajorityGapNanos the longest time without a majority grant within [begin, end + 10 s] (or [begin,
 *                                last event] if the window never ended), counting from the begin to the first grant
 *                                and between consecutive grants, not from the last grant to the window's close;
 *                                -1 if there was no majority grant in the window
 * @param rejoinNanos             for each target node in order: from the end to the first grant of a client of that
 *                                node at or after it (any incarnation); -1 if there was none (or the window never
 *                                ended). Unmodifiable
 * @param rejoinAfterLastHealNanos for each target node in order: the same first grant, measured from the last heal
 *                                before it. That is this window's end, unless later faults began before the target's
 *                                first grant: then it is the latest end among them (a fault still going on at the grant
 *                                counts as ending there, so the figure is 0). Equal to {@code rejoinNanos} when the
 *                                target was granted before the next fault began; it judges a chain of overlapping
 *                                faults as one, from its last heal. -1 where {@code rejoinNanos} is -1. Unmodifiable
 */
public record FaultWindowFigures(String kind, List<Integer> targets, long beginNanos, long endNanos,
        long firstMajorityGrantNanos, long longestMajorityGapNanos, Map<Integer, Long> rejoinNanos,
        Map<Integer, Long> rejoinAfterLastHealNanos) {

    /** After a window's end, majority grants still count towards its longest gap for this long. */
    public static final long SETTLE_NANOS = 10_000_000_000L;

    /**
     * Copies the lists and the map (keeping the map's order).
     *
     * @param kind                    the fault's kind
     * @param targets                 the nodes the fault hit
     * @param beginNanos              the window's begin
     * @param endNanos                the window's end, or -1
     * @param firstMajorityGrantNanos from the begin to the first majority grant, or -1
     * @param longestMajorityGapNanos the longest gap between majority grants, or -1
     * @param rejoinNanos             per target, from the end to its first grant, or -1
     * @param rejoinAfterLastHealNanos per target, from the last heal before its first grant to that grant, or -1
     * @throws NullPointerException if {@code kind}, {@code targets} or a map is null
     */
    public FaultWindowFigures {
        Objects.requireNonNull(kind, "kind");
        targets = List.copyOf(targets);
        rejoinNanos = Collections.unmodifiableMap(new LinkedHashMap<>(rejoinNanos));
        rejoinAfterLastHealNanos = Collections.unmodifiableMap(new LinkedHashMap<>(rejoinAfterLastHealNanos));
    }
}
