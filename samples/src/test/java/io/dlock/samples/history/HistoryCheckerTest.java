package io.dlock.samples.history;

import static io.dlock.samples.history.Histories.history;
import static io.dlock.samples.history.Histories.ms;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Rules 1 to 3 of {@link HistoryChecker} on hand-made histories (times in ms, see {@link Histories}). */
class HistoryCheckerTest {

    /** Two clients taking turns, a refused tryLock, a store that counts 1, 2: valid, with exact counts. */
    @Test
    void validHistory_passes() {
        CheckReport r = HistoryChecker.check(history("""
                # two nodes take turns
                0 1.1.0 started 1500
                0 2.1.0 started 1400
                1 1.1.1 acquire
                2 1.1.1 granted 1
                3 1.1.1 write 1 1
                4 2.1.1 acquire
                5 1.1.1 release
                6 1.1.1 released
                7 2.1.1 granted 2
                8 2.1.1 write 2 2
                9 1.1.1 acquire
                10 2.1.1 release
                11 2.1.1 released
                12 1.1.1 refused
                """), List.of(new StoreEntry(1, 1), new StoreEntry(2, 2)));
        assertTrue(r.valid(), r::summary);
        assertEquals(List.of(), r.violations());
        assertEquals(14, r.events());
        assertEquals(3, r.acquires());
        assertEquals(2, r.grants());
        assertEquals(2, r.holds());
        assertEquals(0, r.openHolds());
        assertEquals(1, r.refused());
        assertEquals(2, r.writes());
        assertEquals(2, r.starts());
        assertEquals(1500, r.slowestStartMillis());
        assertEquals(2, r.storeEntries());
        assertEquals(ms(5), r.longestStallNanos());
        assertTrue(r.summary().startsWith("History: 14 events over 12.000 ms, 2 nodes\nVerdict: VALID, no violation\n"),
                r::summary);
    }

    /** Rule 1: two holds whose certain intervals intersect are rejected; the violation names both and when. */
    @Test
    void overlappingHolds_rejected_namingBoth() {
        CheckReport r = HistoryChecker.check(history("""
                0 1.1.1 acquire
                1 1.1.1 granted 1
                2 2.1.1 acquire
                3 2.1.1 granted 2
                4 1.1.1 release
                5 1.1.1 released
                6 2.1.1 release
                7 2.1.1 released
                """));
        assertFalse(r.valid());
        assertEquals(1, r.violationCount());
        assertEquals(List.of("[mutual exclusion] hold of 1.1.1 with token 1 (acquire 0.000 ms, granted 1.000 ms, "
                + "release 4.000 ms, released 5.000 ms) and hold of 2.1.1 with token 2 (acquire 2.000 ms, granted "
                + "3.000 ms, release 6.000 ms, released 7.000 ms) were both held during 3.000..4.000 ms; the "
                + "earlier-granted one ended released, neither lost nor killed by a crash, so nothing excuses the "
                + "overlap"), r.violations(ViolationKind.MUTUAL_EXCLUSION));
        assertTrue(r.summary().contains("Verdict: INVALID, 1 violation(s): mutual exclusion 1\n"), r::summary);
    }

    /** Holds that only touch (release and the next grant at the same nanosecond) do not overlap. */
    @Test
    void touchingHolds_accepted() {
        CheckReport r = HistoryChecker.check(history("""
                0 1.1.1 acquire
                1 1.1.1 granted 1
                0.5 2.1.1 acquire
                4 1.1.1 release
                4 2.1.1 granted 2
                5 1.1.1 released
                6 2.1.1 release
                7 2.1.1 released
                """));
        assertTrue(r.valid(), r::summary);
    }

    /** Rule 1's excuse: the earlier-granted hold ended {@code lost}; the overlap is noted, not a violation. */
    @Test
    void overlap_excused_whenEarlierHolderEndedLost() {
        CheckReport r = HistoryChecker.check(history("""
                0 1.1.1 acquire
                1 1.1.1 granted 1
                2 2.1.1 acquire
                3 2.1.1 granted 2
                3.5 1.1.0 told 1
                4 1.1.1 release
                5 1.1.1 lost 1
                6 2.1.1 release
                7 2.1.1 released
                """));
        assertTrue(r.valid(), r::summary);
        assertEquals(1, r.lostHolds());
        assertEquals(1, r.told());
        assertEquals(1, r.excusedOverlaps());
        assertTrue(r.notes().get(0).startsWith("excused overlap: hold of 1.1.1 with token 1"), r.notes()::toString);
        assertTrue(r.notes().get(0).endsWith("the earlier-granted one ended lost (its holder was told it may have "
                + "overlapped another)"), r.notes()::toString);
    }

    /** Rule 1's excuse: the earlier holder's node crashed inside its critical section; its later events are ignored. */
    @Test
    void overlap_excused_whenEarlierHoldersNodeCrashed() {
        CheckReport r = HistoryChecker.check(history("""
                0 1.1.1 acquire
                1 1.1.1 granted 1
                2 2.1.1 acquire
                3 2.1.1 granted 2
                4 nemesis crash 1
                4.1 1.1.1 release
                6 2.1.1 release
                7 2.1.1 released
                8 1.2.0 started 900
                9 1.2.1 acquire
                10 1.2.1 granted 3
                11 1.2.1 release
                12 1.2.1 released
                """));
        assertTrue(r.valid(), r::summary);
        assertEquals(1, r.crashes());
        assertEquals(1, r.crashedHolds());
        assertEquals(1, r.ignoredAfterCrash());
        assertEquals(1, r.excusedOverlaps());
        assertEquals(3, r.holds());
        assertTrue(r.notes().contains("ignored '1.1.1 release' at 4.100 ms: node 1 incarnation 1 was killed at "
                + "4.000 ms"), r.notes()::toString);
    }

    /** Only the earlier-granted hold's end excuses: if the later one ended {@code lost}, the overlap is a violation. */
    @Test
    void overlap_rejected_whenOnlyLaterHolderEndedLost() {
        CheckReport r = HistoryChecker.check(history("""
                0 1.1.1 acquire
                1 1.1.1 granted 1
                2 2.1.1 acquire
                3 2.1.1 granted 2
                4 1.1.1 release
                5 1.1.1 released
                6 2.1.1 release
                7 2.1.1 lost 2
                """));
        assertEquals(1, r.violationCount(ViolationKind.MUTUAL_EXCLUSION), r::summary);
        assertEquals(1, r.violationCount());
        assertEquals(0, r.excusedOverlaps());
    }

    /** A hold still open at the end is counted and left out of rule 1, even if a later hold overlaps it. */
    @Test
    void openHoldAtEnd_countedNotFlagged() {
        CheckReport r = HistoryChecker.check(history("""
                0 1.1.1 acquire
                1 1.1.1 granted 1
                2 2.1.1 acquire
                3 2.1.1 granted 2
                4 2.1.1 release
                5 2.1.1 released
                6 3.1.1 acquire
                """));
        assertTrue(r.valid(), r::summary);
        assertEquals(1, r.openHolds());
        assertEquals(1, r.holds());
        assertEquals(2, r.grants());
        assertEquals(1, r.pendingAcquires());
        assertEquals(List.of("at the end of the history: hold of 1.1.1 with token 1 (acquire 0.000 ms, granted "
                + "1.000 ms, held at the end)"), r.notes());
    }

    /** Rule 2: a hold over before another was requested must have the smaller token. */
    @Test
    void tokenGoingBackwards_acrossRealTimeGap_rejected() {
        CheckReport r = HistoryChecker.check(history("""
                0 1.1.1 acquire
                1 1.1.1 granted 5
                2 1.1.1 release
                3 1.1.1 released
                4 2.1.1 acquire
                5 2.1.1 granted 4
                6 2.1.1 release
                7 2.1.1 released
                """));
        assertEquals(List.of("[token order] hold of 1.1.1 with token 5 (acquire 0.000 ms, granted 1.000 ms, release "
                + "2.000 ms, released 3.000 ms) was over before hold of 2.1.1 with token 4 (acquire 4.000 ms, granted "
                + "5.000 ms, release 6.000 ms, released 7.000 ms) was requested, yet its token 5 is greater than 4: a "
                + "store would refuse the later holder's writes"), r.violations());
    }

    /** Rule 2: two holds with the same token are rejected (once, as a duplicate token). */
    @Test
    void equalTokens_rejected() {
        CheckReport r = HistoryChecker.check(history("""
                0 1.1.1 acquire
                1 1.1.1 granted 5
                2 1.1.1 release
                3 1.1.1 released
                4 2.1.1 acquire
                5 2.1.1 granted 5
                6 2.1.1 release
                7 2.1.1 released
                """));
        assertEquals(1, r.violationCount(), r::summary);
        assertEquals(1, r.violationCount(ViolationKind.DUPLICATE_TOKEN));
        assertTrue(r.violations().get(0).startsWith("[duplicate token] token 5 was granted twice: hold of 1.1.1"));
    }

    /** Holds whose order real time does not fix (requested before the other was over) may carry tokens in any order. */
    @Test
    void concurrentHolds_anyTokenOrder_accepted() {
        CheckReport r = HistoryChecker.check(history("""
                0 1.1.1 acquire
                1 2.1.1 acquire
                2 1.1.1 granted 7
                3 1.1.1 release
                4 1.1.1 released
                5 2.1.1 granted 6
                6 2.1.1 release
                7 2.1.1 released
                """));
        assertTrue(r.valid(), r::summary);
    }

    /** Rule 3: a counter value skipped in the store is a lost update. */
    @Test
    void storeWithGap_rejected() {
        CheckReport r = HistoryChecker.check(history("0 1.1.0 started 1"),
                List.of(new StoreEntry(1, 1), new StoreEntry(2, 2), new StoreEntry(3, 4)));
        assertEquals(List.of("[store] entry 3 (token 3, value 4) follows value 2: value 3 is missing, a lost update"),
                r.violations());
    }

    /** Rule 3: a counter value written twice is a duplicated update. */
    @Test
    void storeWithDuplicate_rejected() {
        CheckReport r = HistoryChecker.check(history("0 1.1.0 started 1"),
                List.of(new StoreEntry(1, 1), new StoreEntry(2, 2), new StoreEntry(3, 2), new StoreEntry(3, 3)));
        assertEquals(List.of("[store] entry 3 (token 3, value 2) writes value 2 again (entry 2 wrote it first): a "
                + "duplicated update"), r.violations());
    }

    /** Rule 3: the store accepted a write with an older token than the one before. */
    @Test
    void storeWithDecreasingToken_rejected() {
        CheckReport r = HistoryChecker.check(history("0 1.1.0 started 1"),
                List.of(new StoreEntry(5, 1), new StoreEntry(4, 2)));
        assertEquals(List.of("[store] entry 2 (token 4, value 2) has a smaller token than entry 1 (token 5): the "
                + "store accepted a write with an older token"), r.violations());
    }

    /** Rule 3: a write a client recorded must be in the store; store entries nobody recorded are fine. */
    @Test
    void clientWriteMissingFromStore_rejected() {
        History h = history("""
                0 1.1.1 acquire
                1 1.1.1 granted 1
                2 1.1.1 write 1 1
                3 1.1.1 write 1 2
                4 1.1.1 release
                5 1.1.1 released
                """);
        CheckReport r = HistoryChecker.check(h, List.of(new StoreEntry(1, 1), new StoreEntry(1, 2),
                new StoreEntry(1, 3)));
        assertTrue(r.valid(), r::summary);
        r = HistoryChecker.check(h, List.of(new StoreEntry(1, 1)));
        assertEquals(List.of("[store] 1.1.1 recorded at 3.000 ms that the store accepted value 2 under token 1, but "
                + "the store has no such entry"), r.violations());
    }

    /** A failed start is a violation, counted and listed. */
    @Test
    void failedStart_rejected() {
        CheckReport r = HistoryChecker.check(history("""
                0 1.1.0 started 800
                1 3.1.0 startfail java.net.BindException: Address already in use
                """));
        assertFalse(r.valid());
        assertEquals(1, r.failedStarts());
        assertEquals(List.of("[failed start] node 3 (JVM 3.1.0) failed to start at 1.000 ms: "
                + "java.net.BindException: Address already in use"), r.violations());
    }

    /** An unexpected exception is a violation; one during an acquire makes the acquire indeterminate. */
    @Test
    void error_rejected_andEndsPendingAcquire() {
        CheckReport r = HistoryChecker.check(history("""
                0 1.1.1 acquire
                1 1.1.1 error java.lang.IllegalStateException: closed
                2 1.1.1 acquire
                3 1.1.1 refused
                """));
        assertEquals(List.of("[error] 1.1.1 at 1.000 ms: java.lang.IllegalStateException: closed"), r.violations());
        assertEquals(1, r.errors());
        assertEquals(1, r.indeterminateAcquires());
        assertEquals(1, r.refused());
    }

    /** A client's events out of sequence are a recorder's bug and make the history invalid. */
    @Test
    void eventsOutOfSequence_rejectedAsMalformed() {
        CheckReport r = HistoryChecker.check(history("""
                0 1.1.1 granted 1
                1 1.1.1 acquire
                2 1.1.1 granted 2
                3 1.1.1 write 3 1
                4 1.1.1 release
                5 1.1.1 released
                """));
        assertEquals(List.of("[malformed history] 1.1.1 at 0.000 ms: 'granted 1' without a pending acquire (idle)",
                "[malformed history] 1.1.1 at 3.000 ms: 'write 3 1' under token 3 while holding token 2"),
                r.violations());
    }

    /** Without a store, client writes are counted but rule 3 is not checked. */
    @Test
    void noStore_skipsRule3() {
        CheckReport r = HistoryChecker.check(history("""
                0 1.1.1 acquire
                1 1.1.1 granted 1
                2 1.1.1 write 1 1
                3 1.1.1 stale 1
                4 1.1.1 release
                5 1.1.1 released
                """));
        assertTrue(r.valid(), r::summary);
        assertEquals(1, r.writes());
        assertEquals(1, r.staleWrites());
        assertEquals(-1, r.storeEntries());
    }
}
