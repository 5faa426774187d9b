package io.dlock.samples.history;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rule 4, availability: the figures of each fault window ({@link FaultWindowFigures} defines them) and the longest
 * stall between consecutive grants of the whole history. Grants come in time order, so each figure is a binary
 * search and a scan of the grants it covers.
 */
final class Availability {

    private Availability() {
    }

    /**
     * The figures of each window, in the windows' order.
     *
     * @param windows the fault windows
     * @param grants  every grant, in time order
     * @param nodes   every node seen in the history
     * @param lastAt  the time of the history's last event
     */
    static List<FaultWindowFigures> figures(List<FaultWindow> windows, List<Grant> grants, Set<Integer> nodes,
                                            long lastAt) {
        List<FaultWindowFigures> figures = new ArrayList<>(windows.size());
        for (int index = 0; index < windows.size(); index++) {
            FaultWindow w = windows.get(index);
            Set<Integer> majority = new HashSet<>(w.majority() != null ? w.majority() : nodes);
            if (w.majority() == null) {
                majority.removeAll(w.targets());
            }
            long firstMajorityGrant = Hold.NONE;
            long longestGap = Hold.NONE;
            long close = w.endAt() == Hold.NONE ? lastAt : w.endAt() + FaultWindowFigures.SETTLE_NANOS;
            long previous = w.beginAt();
            for (int i = firstAtOrAfter(grants, w.beginAt()); i < grants.size(); i++) {
                Grant g = grants.get(i);
                if (!majority.contains(g.node())) {
                    continue;
                }
                if (firstMajorityGrant == Hold.NONE) {
                    firstMajorityGrant = g.at() - w.beginAt();
                }
                if (g.at() > close) {
                    break;
                }
                longestGap = Math.max(longestGap, g.at() - previous);
                previous = g.at();
            }
            Map<Integer, Long> rejoin = new LinkedHashMap<>();
            Map<Integer, Long> afterLastHeal = new LinkedHashMap<>();
            for (int target : w.targets()) {
                long r = w.endAt() == Hold.NONE ? Hold.NONE : firstGrantOf(target, grants, w.endAt());
                rejoin.put(target, r);
                afterLastHeal.put(target, r == Hold.NONE ? Hold.NONE
                        : r - (lastHealBefore(windows, index, w.endAt() + r) - w.endAt()));
            }
            figures.add(new FaultWindowFigures(w.kind(), w.targets(), w.beginAt(), w.endAt(), firstMajorityGrant,
                    longestGap, rejoin, afterLastHeal));
        }
        return figures;
    }

    /**
     * The last heal at or before {@code grantAt} of window {@code index} and of the later windows that began before
     * {@code grantAt}: the latest of their ends, where a window not ended by {@code grantAt} counts as ending there.
     */
    private static long lastHealBefore(List<FaultWindow> windows, int index, long grantAt) {
        long heal = windows.get(index).endAt();
        for (int i = index + 1; i < windows.size(); i++) {
            FaultWindow later = windows.get(i);
            if (later.beginAt() >= grantAt) {
                continue;
            }
            long end = later.endAt() == Hold.NONE ? grantAt : Math.min(later.endAt(), grantAt);
            heal = Math.max(heal, end);
        }
        return heal;
    }

    /** The longest time between two consecutive grants (of any clients); -1 with fewer than two grants. */
    static long longestStall(List<Grant> grants) {
        long longest = Hold.NONE;
        for (int i = 1; i < grants.size(); i++) {
            longest = Math.max(longest, grants.get(i).at() - grants.get(i - 1).at());
        }
        return longest;
    }

    private static long firstGrantOf(int node, List<Grant> grants, long from) {
        for (int i = firstAtOrAfter(grants, from); i < grants.size(); i++) {
            if (grants.get(i).node() == node) {
                return grants.get(i).at() - from;
            }
        }
        return Hold.NONE;
    }

    /** The index of the first grant at or after {@code at} ({@code grants.size()} if none). */
    private static int firstAtOrAfter(List<Grant> grants, long at) {
        int low = 0;
        int high = grants.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (grants.get(mid).at() < at) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }
}
