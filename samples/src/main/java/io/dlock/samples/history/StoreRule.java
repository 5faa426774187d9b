package io.dlock.samples.history;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rule 3, the fenced store: its accepted entries, in store order, must count 1, 2, 3, ... (a value skipped is a lost
 * update; a value written again is a duplicated update) with tokens that never decrease; and every write a client
 * recorded ({@code write <token> <value>}) must be in the store as that (token, value), one store entry per recorded
 * write. Store entries no client recorded are fine: their writer may have been killed before it logged.
 *
 * <p>Each entry is compared with the one before it only, so one lost update is one violation, not one per later entry.
 */
final class StoreRule {

    private StoreRule() {
    }

    /** Judges {@code store} (in store order) against the clients' recorded {@code writes}. */
    static void check(List<StoreEntry> store, List<ClientWrite> writes, Findings findings) {
        Map<Long, Integer> firstWithValue = new HashMap<>();
        Map<StoreEntry, Integer> unclaimed = new HashMap<>();
        StoreEntry previous = null;
        for (int i = 0; i < store.size(); i++) {
            StoreEntry e = store.get(i);
            String entry = "entry " + (i + 1) + " (token " + e.token() + ", value " + e.value() + ")";
            long expected = previous == null ? 1 : previous.value() + 1;
            Integer seen = firstWithValue.putIfAbsent(e.value(), i + 1);
            if (seen != null) {
                findings.violation(ViolationKind.STORE, entry + " writes value " + e.value() + " again (entry " + seen
                        + " wrote it first): a duplicated update");
            } else if (e.value() > expected) {
                findings.violation(ViolationKind.STORE, entry + after(previous) + ": "
                        + (e.value() == expected + 1 ? "value " + expected + " is" : "values " + expected + ".."
                        + (e.value() - 1) + " are") + " missing, a lost update");
            } else if (e.value() < expected) {
                findings.violation(ViolationKind.STORE, entry + after(previous) + ": the counter must count 1, 2, 3, "
                        + "... in store order, so value " + expected + " was due");
            }
            if (previous != null && e.token() < previous.token()) {
                findings.violation(ViolationKind.STORE, entry + " has a smaller token than entry " + i + " (token "
                        + previous.token() + "): the store accepted a write with an older token");
            }
            unclaimed.merge(e, 1, Integer::sum);
            previous = e;
        }
        for (ClientWrite w : writes) {
            StoreEntry e = new StoreEntry(w.token(), w.value());
            Integer left = unclaimed.get(e);
            if (left == null || left == 0) {
                findings.violation(ViolationKind.STORE, w.process() + " recorded at " + Millis.of(w.at())
                        + " that the store accepted value " + w.value() + " under token " + w.token()
                        + ", but the store has " + (left == null ? "no such entry" : "no such entry left (other "
                        + "clients' writes claimed every copy)"));
            } else {
                unclaimed.put(e, left - 1);
            }
        }
    }

    private static String after(StoreEntry previous) {
        return previous == null ? " is the first entry" : " follows value " + previous.value();
    }
}
