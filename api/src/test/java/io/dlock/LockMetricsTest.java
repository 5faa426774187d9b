package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/** LockMetrics keeps the value semantics it had as a record: sums, equality and its printed form. */
class LockMetricsTest {

    /** plus adds every counter; messagesPerEntry divides sent messages by entries (0 without entries). */
    @Test
    void plusAddsEveryCounter() {
        LockMetrics a = LockMetrics.of("lamport", 1, 2, 3, 4, 5, 6, 7);
        LockMetrics sum = a.plus(LockMetrics.of("lamport", 10, 20, 30, 40, 50, 60, 70));
        assertEquals(LockMetrics.of("lamport", 11, 22, 33, 44, 55, 66, 77), sum);
        assertEquals(2.0, sum.messagesPerEntry());
        assertEquals(0.0, LockMetrics.of("lamport", 0, 5, 0, 0, 0, 0, 0).messagesPerEntry());
    }

    /** Equal counters are equal with equal hash codes; any differing counter makes them differ. */
    @Test
    void valueEquality() {
        LockMetrics a = LockMetrics.of("raymond", 1, 2, 3, 4, 5, 6, 7);
        assertEquals(a, LockMetrics.of("raymond", 1, 2, 3, 4, 5, 6, 7));
        assertEquals(a.hashCode(), LockMetrics.of("raymond", 1, 2, 3, 4, 5, 6, 7).hashCode());
        assertNotEquals(a, LockMetrics.of("raymond", 1, 2, 3, 4, 5, 6, 8));
        assertNotEquals(a, LockMetrics.of("lamport", 1, 2, 3, 4, 5, 6, 7));
    }

    /** The printed form is the record's, counters first as before, so logs read the same; the new values follow. */
    @Test
    void printsLikeTheRecord() {
        assertEquals("LockMetrics[algorithm=centralized, entries=1, messagesSent=2, bytesSent=3, messagesReceived=4,"
                + " malformedDropped=5, staleDropped=6, localHandoffs=7,"
                + " acquireWait=TimeDistribution[count=0, totalNanos=0, maxNanos=0],"
                + " hold=TimeDistribution[count=0, totalNanos=0, maxNanos=0], waitingThreads=0, epochGrants=0, framesSent=2]",
                LockMetrics.of("centralized", 1, 2, 3, 4, 5, 6, 7).toString());
    }
}
