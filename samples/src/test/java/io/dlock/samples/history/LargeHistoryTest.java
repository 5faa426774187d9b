package io.dlock.samples.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A history of 250 000 events in shuffled lines (as several processes would append them), checked with exact counts:
 * the checker sorts and sweeps, so this takes a fraction of a second (the test asserts results, not speed). Seeded.
 */
class LargeHistoryTest {

    private static final int HOLDS = 50_000;
    private static final int CLIENTS = 8;
    private static final long STEP = 10_000;

    /**
     * {@link #HOLDS} holds taking turns among {@link #CLIENTS} clients, each acquired in the previous hold's critical
     * section; hold i is granted at {@code i * STEP} ns, from the 20 000th on 5 ms later. With {@code broken}, hold
     * 30 000 is granted before hold 29 999 is released, and holds 40 000 and 40 002 swap tokens (40 000 is over before
     * 40 002 is requested).
     */
    private static List<String> lines(boolean broken) {
        List<String> lines = new ArrayList<>();
        long delay = 0;
        for (int i = 0; i < HOLDS; i++) {
            if (i == 20_000) {
                delay = 5_000_000;
            }
            String p = "1.1." + (i % CLIENTS + 1);
            long granted = i * STEP + delay;
            long token = token(i, broken);
            long release = granted + STEP / 2;
            if (broken && i == 29_999) {
                release = granted + STEP + 1;
            }
            lines.add((granted - STEP / 2) + " " + p + " acquire");
            lines.add(granted + " " + p + " granted " + token);
            lines.add((granted + 1) + " " + p + " write " + token + " " + (i + 1));
            lines.add(release + " " + p + " release");
            lines.add((release + 1) + " " + p + " released");
        }
        Collections.shuffle(lines, new Random(42));
        return lines;
    }

    /** Hold i's token: i + 1, except that with {@code broken} holds 40 000 and 40 002 swap theirs. */
    private static long token(int i, boolean broken) {
        if (broken && i == 40_000) {
            return 40_003;
        }
        if (broken && i == 40_002) {
            return 40_001;
        }
        return i + 1;
    }

    /** The store as the clients' writes filled it, in grant order. */
    private static List<StoreEntry> store(boolean broken) {
        List<StoreEntry> store = new ArrayList<>(HOLDS);
        for (int i = 0; i < HOLDS; i++) {
            store.add(new StoreEntry(token(i, broken), i + 1));
        }
        return store;
    }

    /** The correct large history is valid, with every count exact. */
    @Test
    void largeValidHistory_passesWithExactCounts() {
        CheckReport r = HistoryChecker.check(History.parse(lines(false)), store(false));
        assertTrue(r.valid(), () -> r.violations().toString());
        assertEquals(5 * HOLDS, r.events());
        assertEquals(HOLDS, r.grants());
        assertEquals(HOLDS, r.holds());
        assertEquals(HOLDS, r.writes());
        assertEquals(STEP + 5_000_000, r.longestStallNanos());
    }

    /**
     * One overlap and one pair of swapped tokens among 50 000 holds: exactly those violations are found, the swap
     * twice more in the store (two entries with a smaller token than the one before).
     */
    @Test
    void largeBrokenHistory_findsExactlyTheInjectedViolations() {
        CheckReport r = HistoryChecker.check(History.parse(lines(true)), store(true));
        assertEquals(1, r.violationCount(ViolationKind.MUTUAL_EXCLUSION), () -> r.violations().toString());
        assertTrue(r.violations(ViolationKind.MUTUAL_EXCLUSION).get(0).startsWith("[mutual exclusion] hold of 1.1.8 "
                + "with token 30000 "), () -> r.violations().toString());
        assertEquals(1, r.violationCount(ViolationKind.TOKEN_ORDER), () -> r.violations().toString());
        assertTrue(r.violations(ViolationKind.TOKEN_ORDER).get(0).contains("with token 40003 (")
                && r.violations(ViolationKind.TOKEN_ORDER).get(0).contains("with token 40001 ("),
                () -> r.violations().toString());
        assertEquals(2, r.violationCount(ViolationKind.STORE), () -> r.violations().toString());
        assertEquals(4, r.violationCount());
    }
}
