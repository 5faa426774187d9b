package io.dlock.samples.realnet;

import io.dlock.samples.FencedFile;
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
     * The store's lost updates: every accepted write must carry the value before it plus one (a node reads
     * the last value under the lock and writes it plus one); returns a description of each write that
     * does not, empty if none.
     */
    static List<String> lostUpdates(List<FencedFile.Entry> history) {
        List<String> problems = new ArrayList<>();
        long previous = 0;
        for (FencedFile.Entry entry : history) {
            long value = Long.parseLong(entry.value().split(" ")[0]);
            if (value != previous + 1) {
                problems.add("value " + value + " (" + entry.value() + ", token " + entry.token() + ") after " + previous);
            }
            previous = value;
        }
        return problems;
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "cut->majority view %d ms, cut->majority grant %d ms, longest majority"
                + " gap %d ms, majority %.1f writes/s while cut, minority grants while non-primary %d, heal->cut"
                + " node's first write %d ms", cutToMajorityView, cutToMajorityGrant, longestMajorityGap,
                majorityWritesPerS, minorityGrants, healToGrant);
    }
}
