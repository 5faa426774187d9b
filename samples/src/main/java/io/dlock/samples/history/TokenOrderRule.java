package io.dlock.samples.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rule 2, fencing tokens in real-time order: if hold A was certainly over ({@link Hold#overAt()}: its
 * {@code released}, {@code lost} or crash) before hold B's acquire was invoked, A's token must be smaller than B's;
 * and no two holds may share a token. Holds whose order real time does not fix (B requested before A was certainly
 * over) may carry their tokens in either order.
 *
 * <p>For each hold B in acquire order, the largest token among the holds over before B's acquire is kept as a running
 * maximum (those holds come in order of {@code overAt}), so the check costs O(h log h) for h holds. A violation names
 * B and the earlier hold with the largest token.
 */
final class TokenOrderRule {

    private TokenOrderRule() {
    }

    /** Judges {@code holds}, reporting violations to {@code findings}. */
    static void check(List<Hold> holds, Findings findings) {
        List<Hold> over = new ArrayList<>();
        for (Hold h : holds) {
            if (h.overAt() != Hold.NONE) {
                over.add(h);
            }
        }
        over.sort(Comparator.comparingLong(Hold::overAt).thenComparingInt(Hold::seq));
        List<Hold> byAcquire = new ArrayList<>(holds);
        byAcquire.sort(Comparator.comparingLong(Hold::acquireAt).thenComparingInt(Hold::seq));
        int next = 0;
        Hold largest = null;
        for (Hold later : byAcquire) {
            while (next < over.size() && over.get(next).overAt() < later.acquireAt()) {
                Hold h = over.get(next++);
                if (largest == null || h.token() > largest.token()) {
                    largest = h;
                }
            }
            if (largest != null && largest.token() > later.token()) {
                findings.violation(ViolationKind.TOKEN_ORDER, largest.describe() + " was over before "
                        + later.describe() + " was requested, yet its token " + largest.token()
                        + " is greater than " + later.token() + ": a store would refuse the later holder's writes");
            }
        }
        Map<Long, Hold> firstWithToken = new HashMap<>();
        for (Hold h : holds) {
            Hold first = firstWithToken.putIfAbsent(h.token(), h);
            if (first != null) {
                findings.violation(ViolationKind.DUPLICATE_TOKEN, "token " + h.token() + " was granted twice: "
                        + first.describe() + " and " + h.describe());
            }
        }
    }
}
