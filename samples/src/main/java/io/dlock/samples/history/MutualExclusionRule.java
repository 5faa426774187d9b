package io.dlock.samples.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Rule 1, one holder at a time: two holds whose certain intervals ({@code [grantedAt, heldUntil]}) share more than an
 * instant are a violation, unless the one granted first ended {@link HoldEnd#LOST lost} or {@link HoldEnd#CRASHED
 * crashed} (then the overlap is excused and noted). Holds still open at the end of the history have no certain end
 * and are left out.
 *
 * <p>Intervals that merely touch ({@code release} of one at the same nanosecond as {@code granted} of the next) do not
 * overlap: with a correct lock and one clock the release reading comes before the unlock and the grant reading after
 * the acquire returned, so equal readings are possible. Of two holds granted at the same instant, the one recorded
 * first counts as granted first.
 *
 * <p>A sweep over the holds in grant order keeps the holds still held (at most one per client, since each client is
 * sequential), so the check costs O(h log h) for h holds plus one step per overlapping pair.
 */
final class MutualExclusionRule {

    private static final Comparator<Hold> BY_GRANT = Comparator.comparingLong(Hold::grantedAt)
            .thenComparingInt(Hold::seq);

    private MutualExclusionRule() {
    }

    /** Judges {@code holds}, reporting violations and excused overlaps to {@code findings}. */
    static void check(List<Hold> holds, Findings findings) {
        List<Hold> timed = new ArrayList<>();
        for (Hold h : holds) {
            if (h.heldUntil() != Hold.NONE) {
                timed.add(h);
            }
        }
        timed.sort(BY_GRANT);
        PriorityQueue<Hold> held = new PriorityQueue<>(Comparator.comparingLong(Hold::heldUntil));
        List<Hold> overlapping = new ArrayList<>();
        for (Hold later : timed) {
            while (!held.isEmpty() && held.peek().heldUntil() <= later.grantedAt()) {
                held.poll();
            }
            if (later.grantedAt() < later.heldUntil() && !held.isEmpty()) {
                overlapping.clear();
                overlapping.addAll(held);
                overlapping.sort(BY_GRANT);
                for (Hold earlier : overlapping) {
                    judge(earlier, later, findings);
                }
            }
            held.add(later);
        }
    }

    private static void judge(Hold earlier, Hold later, Findings findings) {
        long from = later.grantedAt();
        long to = Math.min(earlier.heldUntil(), later.heldUntil());
        String both = earlier.describe() + " and " + later.describe() + " were both held during "
                + Millis.number(from) + ".." + Millis.of(to);
        if (earlier.end().excusesOverlap()) {
            findings.excusedOverlap(earlier.end(), both + "; the earlier-granted one " + excuse(earlier.end()));
        } else {
            findings.violation(ViolationKind.MUTUAL_EXCLUSION, both + "; the earlier-granted one ended "
                    + earlier.end() + ", neither lost nor killed by a crash, so nothing excuses the overlap");
        }
    }

    private static String excuse(HoldEnd end) {
        return end == HoldEnd.LOST ? "ended lost (its holder was told it may have overlapped another)"
                : "was killed by its node's crash inside its critical section";
    }
}
