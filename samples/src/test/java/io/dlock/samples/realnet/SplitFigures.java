package io.dlock.samples.realnet;

import io.dlock.samples.examples.FencedFile;
import io.dlock.samples.realnet.RealNetCluster.Event;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What one cut of a host looked like, read from the events of a {@link RealNetCluster} and its store:
 * the checks (safety) and the figures (availability) of a split.
 *
 * @param cutToMajorityView  ms from the cut to the first view of the majority without the cut node
 * @param cutToMajorityGrant ms from the cut to the majority's first grant in that view
 * @param longestMajorityGap the longest time (ms) between two majority writes while the host was cut
 * @param majorityWritesPerS writes per second accepted from the majority while the host was cut
 * @param minorityGrants     grants on the cut node after it saw its view turn non-primary and before the heal
 * @param minorityNonPrimary whether the cut node saw a non-primary view before the heal
 * @param healToGrant        ms from the heal to the cut node's first accepted write (-1 if none)
 */
record SplitFigures(long cutToMajorityView, long cutToMajorityGrant, long longestMajorityGap,
                    double majorityWritesPerS, int minorityGrants, boolean minorityNonPrimary, long healToGrant) {

    /** The figures of the cut of {@code cutNode} from {@code cutAt} to {@code healAt} (wall ms). */
    static SplitFigures of(List<Event> events, Set<Integer> majority, int cutNode, long cutAt, long healAt) {
        long majorityView = -1;
        for (Event e : events) {
            if (e.kind().equals("VIEW") && majority.contains(e.node()) && e.time() >= cutAt && e.time() < healAt
                    && e.arg(1) == majority.size() && Boolean.parseBoolean(e.args().get(2))) {
                majorityView = majorityView < 0 ? e.time() : Math.min(majorityView, e.time());
            }
        }
        long majorityGrant = -1;
        List<Long> writes = new ArrayList<>();
        writes.add(cutAt);
        for (Event e : events) {
            if (!majority.contains(e.node()) || e.time() < cutAt || e.time() >= healAt) {
                continue;
            }
            if (e.kind().equals("ACQ") && majorityView >= 0 && e.time() >= majorityView
                    && (majorityGrant < 0 || e.time() < majorityGrant)) {
                majorityGrant = e.time();
            }
            if (e.kind().equals("W")) {
                writes.add(e.time());
            }
        }
        writes.sort(null);
        writes.add(healAt);
        long gap = 0;
        for (int i = 1; i < writes.size(); i++) {
            gap = Math.max(gap, writes.get(i) - writes.get(i - 1));
        }
        long nonPrimaryAt = -1;
        for (Event e : events) {
            if (e.node() == cutNode && e.kind().equals("VIEW") && e.time() >= cutAt && e.time() < healAt
                    && !Boolean.parseBoolean(e.args().get(2))) {
                nonPrimaryAt = nonPrimaryAt < 0 ? e.time() : Math.min(nonPrimaryAt, e.time());
            }
        }
        int minorityGrants = 0;
        long firstAfterHeal = -1;
        for (Event e : events) {
            if (e.node() != cutNode) {
                continue;
            }
            if (e.kind().equals("ACQ") && nonPrimaryAt >= 0 && e.time() > nonPrimaryAt && e.time() < healAt) {
                minorityGrants++;
            }
            if (e.kind().equals("W") && e.time() >= healAt && firstAfterHeal < 0) {
                firstAfterHeal = e.time();
            }
        }
        return new SplitFigures(majorityView < 0 ? -1 : majorityView - cutAt,
                majorityGrant < 0 ? -1 : majorityGrant - cutAt, gap,
                (writes.size() - 2) * 1000.0 / Math.max(1, healAt - cutAt), minorityGrants, nonPrimaryAt >= 0,
                firstAfterHeal < 0 ? -1 : firstAfterHeal - healAt);
    }

    /**
     * Two holders at once in one epoch, read from the store: an accepted write whose holder read, when it
     * took the lock, a value other than the one just before its own means that others wrote while it held
     * the lock. If one of those writes carries a token of the same epoch (the epoch is the token's high 32
     * bits), two nodes held the lock in one epoch: a violation of mutual exclusion. A write of an older epoch
     * is a cut-off holder's, made before it learned that its view is no longer primary; fencing makes it
     * harmless (the newer holder's write was computed from it, not lost), and it is counted, not refused.
     *
     * @return the violations (same epoch), each described; empty if none
     */
    static List<String> sameEpochOverlaps(List<FencedFile.Entry> history) {
        return overlaps(history, true);
    }

    /** The writes of a holder that others (of older epochs) wrote into while it held the lock. */
    static List<String> olderEpochOverlaps(List<FencedFile.Entry> history) {
        return overlaps(history, false);
    }

    private static List<String> overlaps(List<FencedFile.Entry> history, boolean sameEpoch) {
        List<String> found = new ArrayList<>();
        for (int i = 0; i < history.size(); i++) {
            FencedFile.Entry entry = history.get(i);
            String[] parts = entry.value().split(" ");
            long value = Long.parseLong(parts[0]);
            long read = Long.parseLong(parts[2].substring(1));
            if (value != i + 1) {
                found.add("lost update: value " + value + " at position " + (i + 1) + " (" + entry + ")");
                continue;
            }
            for (long v = read + 1; v < value; v++) {
                FencedFile.Entry other = history.get((int) v - 1);
                if (((other.token() >>> 32) == (entry.token() >>> 32)) == sameEpoch) {
                    found.add(other + " was written while " + entry + " held the lock");
                }
            }
        }
        return found;
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "cut->majority view %d ms, cut->majority grant %d ms, longest majority"
                + " gap %d ms, majority %.1f writes/s while cut, minority grants while non-primary %d, heal->cut"
                + " node's first write %d ms", cutToMajorityView, cutToMajorityGrant, longestMajorityGap,
                majorityWritesPerS, minorityGrants, healToGrant);
    }
}
