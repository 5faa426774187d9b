package io.dlock.samples.history;

import java.util.List;
import java.util.Objects;

/**
 * Judges a recorded {@link History} of a lock's clients under faults, Jepsen's way: a mutex model over real-time
 * intervals. The {@linkplain io.dlock.samples.history package overview} states the rules; in short:
 * <ol>
 *   <li>one holder at a time, unless the earlier holder ended {@code lost} or was killed by its node's crash;</li>
 *   <li>fencing tokens increase in real-time order, and no two holds share one;</li>
 *   <li>the fenced store counts 1, 2, 3, ... with tokens that never decrease, and holds every write a client
 *       recorded;</li>
 *   <li>availability figures per fault window (no verdict).</li>
 * </ol>
 * Failed starts, errors and client events out of sequence are violations too.
 *
 * <p>The checker needs nothing of dlock: it reads events, so it judges any lock whose clients record the format.
 * It is a pure function of its arguments; each call is independent and thread-safe. It costs O(n log n) for n
 * events (sorts and sweeps, no comparison of all pairs).
 */
public final class HistoryChecker {

    private HistoryChecker() {
    }

    /**
     * Checks rules 1 to 4, with rule 3 against the fenced store's accepted entries.
     *
     * @param history the recorded history
     * @param store   the store's accepted entries in store order (empty if it accepted none)
     * @return the report: its verdict, violations and figures
     * @throws NullPointerException if an argument is null
     */
    public static CheckReport check(History history, List<StoreEntry> store) {
        return run(history, List.copyOf(Objects.requireNonNull(store, "store")));
    }

    /**
     * Checks rules 1, 2 and 4, for a run without a fenced store: clients' {@code write} events are counted but not
     * matched against a store, and rule 3 is not checked.
     *
     * @param history the recorded history
     * @return the report: its verdict, violations and figures
     * @throws NullPointerException if {@code history} is null
     */
    public static CheckReport check(History history) {
        return run(history, null);
    }

    private static CheckReport run(History history, List<StoreEntry> store) {
        Objects.requireNonNull(history, "history");
        Findings findings = new Findings();
        HistoryReplay replay = HistoryReplay.of(history, findings);
        MutualExclusionRule.check(replay.holds, findings);
        TokenOrderRule.check(replay.holds, findings);
        if (store != null) {
            StoreRule.check(store, replay.writes, findings);
        }
        List<FaultWindowFigures> windows = Availability.figures(replay.windows, replay.grants, replay.nodes,
                replay.lastAt);
        return new CheckReport(replay, findings, windows, Availability.longestStall(replay.grants),
                store == null ? -1 : store.size());
    }
}
