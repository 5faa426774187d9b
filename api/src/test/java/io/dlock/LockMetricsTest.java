package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** LockMetrics keeps the value semantics it had as a record: sums, equality and its printed form. */
class LockMetricsTest {

    /** Counters 1..7 times {@code scale}, in the order of the accessors, and framesSent = messagesSent. */
    private static LockMetrics counters(String algorithm, long scale) {
        return LockMetrics.builder(algorithm).entries(scale).messagesSent(2 * scale).framesSent(2 * scale)
                .bytesSent(3 * scale).messagesReceived(4 * scale).malformedDropped(5 * scale).staleDropped(6 * scale)
                .localHandoffs(7 * scale).build();
    }

    /** plus adds every counter; messagesPerEntry divides sent messages by entries (0 without entries). */
    @Test
    void plusAddsEveryCounter() {
        LockMetrics a = counters("lamport", 1);
        LockMetrics sum = a.plus(counters("lamport", 10));
        assertEquals(counters("lamport", 11), sum);
        assertEquals(2.0, sum.messagesPerEntry());
        assertEquals(0.0, LockMetrics.builder("lamport").messagesSent(5).build().messagesPerEntry());
    }

    /** Equal counters are equal with equal hash codes; any differing counter makes them differ. */
    @Test
    void valueEquality() {
        LockMetrics a = counters("raymond", 1);
        assertEquals(a, counters("raymond", 1));
        assertEquals(a.hashCode(), counters("raymond", 1).hashCode());
        assertNotEquals(a, LockMetrics.builder("raymond").entries(1).messagesSent(2).framesSent(2).bytesSent(3)
                .messagesReceived(4).malformedDropped(5).staleDropped(6).localHandoffs(8).build());
        assertNotEquals(a, counters("lamport", 1));
    }

    /** The printed form is the record's, counters first as before, so logs read the same; the new values follow. */
    @Test
    void printsLikeTheRecord() {
        assertEquals("LockMetrics[algorithm=centralized, entries=1, messagesSent=2, bytesSent=3, messagesReceived=4,"
                + " malformedDropped=5, staleDropped=6, localHandoffs=7,"
                + " acquireWait=TimeDistribution[count=0, totalNanos=0, maxNanos=0],"
                + " hold=TimeDistribution[count=0, totalNanos=0, maxNanos=0], waitingThreads=0, epochGrants=0, framesSent=2]",
                counters("centralized", 1).toString());
    }

    /** empty has the algorithm, every counter and gauge 0 and no times; it is the identity of plus. */
    @Test
    void emptyIsZeroAndTheIdentityOfPlus() {
        LockMetrics empty = LockMetrics.empty("maekawa");
        assertEquals("maekawa", empty.algorithm());
        assertEquals(0, empty.entries() + empty.messagesSent() + empty.framesSent() + empty.bytesSent()
                + empty.messagesReceived() + empty.malformedDropped() + empty.staleDropped() + empty.localHandoffs()
                + empty.waitingThreads() + empty.epochGrants());
        assertEquals(TimeDistribution.EMPTY, empty.acquireWait());
        assertEquals(TimeDistribution.EMPTY, empty.hold());
        assertEquals(LockMetrics.builder("maekawa").build(), empty);
        LockMetrics some = counters("maekawa", 3);
        assertEquals(some, empty.plus(some));
    }

    /** Every builder setter reaches its accessor, framesSent included: nothing is derived from another value. */
    @Test
    void builderSetsEachValueOnItsOwn() {
        TimeDistribution waits = TimeDistribution.of(1, 500, 500, bucketWith(500));
        TimeDistribution holds = TimeDistribution.of(1, 900, 900, bucketWith(900));
        LockMetrics m = LockMetrics.builder("raynal").entries(1).messagesSent(2).framesSent(13).bytesSent(3)
                .messagesReceived(4).malformedDropped(5).staleDropped(6).localHandoffs(7).acquireWait(waits)
                .hold(holds).waitingThreads(11).epochGrants(12).build();
        assertEquals(1, m.entries());
        assertEquals(2, m.messagesSent());
        assertEquals(13, m.framesSent());
        assertEquals(3, m.bytesSent());
        assertEquals(4, m.messagesReceived());
        assertEquals(5, m.malformedDropped());
        assertEquals(6, m.staleDropped());
        assertEquals(7, m.localHandoffs());
        assertEquals(waits, m.acquireWait());
        assertEquals(holds, m.hold());
        assertEquals(11, m.waitingThreads());
        assertEquals(12, m.epochGrants());
        assertEquals(0, LockMetrics.builder("raynal").messagesSent(2).build().framesSent(),
                "framesSent is not quietly set from messagesSent");
    }

    /** A negative counter is refused with a message naming it and the value. */
    @Test
    void negativeCounterIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LockMetrics.builder("lamport").staleDropped(-1));
        assertTrue(e.getMessage().contains("staleDropped") && e.getMessage().contains("-1"), e.getMessage());
    }

    private static long[] bucketWith(long nanos) {
        long[] buckets = new long[TimeDistribution.BUCKETS];
        buckets[TimeDistribution.bucketOf(nanos)] = 1;
        return buckets;
    }
}
