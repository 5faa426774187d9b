package io.dlock.inmemory.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CheckerTest {

    private final Checker checker = new Checker(3, () -> "test event");

    /** A correct sequence of request, grant and release raises nothing and measures the sync delay. */
    @Test
    void cleanRunHasNoViolationAndMeasuresSyncDelay() {
        checker.onRequest(0, 0);
        checker.onRequest(1, 0);
        assertTrue(checker.onGrant(0, 1, 2));
        checker.onRelease(0, 4);
        assertTrue(checker.onGrant(1, 2, 6));
        checker.onRelease(1, 7);
        assertEquals(0, checker.safetyViolations() + checker.fenceViolations() + checker.grantViolations());
        assertEquals(0, checker.ungranted());
        assertEquals(2.0, checker.syncDelay());
        assertEquals(1, checker.syncDelaySamples());
        assertNull(checker.firstViolation());
    }

    /** A grant while another node holds is an ME1 violation, described with time and nodes. */
    @Test
    void twoHoldersAreASafetyViolation() {
        checker.onRequest(0, 0);
        checker.onRequest(2, 0);
        checker.onGrant(0, 1, 3);
        checker.onGrant(2, 2, 5);
        assertEquals(1, checker.safetyViolations());
        assertTrue(checker.firstViolation().startsWith("t=5: ME1 violated: n2"), checker.firstViolation());
        assertTrue(checker.firstViolation().contains("while n0 holds"), checker.firstViolation());
        assertTrue(checker.firstViolation().endsWith("during test event"), checker.firstViolation());
    }

    /** A fencing token not greater than the previous one is a fence violation. */
    @Test
    void nonIncreasingFenceIsAViolation() {
        checker.onRequest(0, 0);
        checker.onGrant(0, 7, 1);
        checker.onRelease(0, 2);
        checker.onRequest(1, 2);
        checker.onGrant(1, 7, 3);
        assertEquals(1, checker.fenceViolations());
        assertEquals(0, checker.safetyViolations());
    }

    /** A second grant for one request, or a grant without a request, is a grant violation. */
    @Test
    void unrequestedOrRepeatedGrantIsAViolation() {
        assertFalse(checker.onGrant(1, 1, 0));
        checker.onRequest(0, 0);
        assertTrue(checker.onGrant(0, 2, 1));
        assertFalse(checker.onGrant(0, 3, 2));
        assertEquals(2, checker.grantViolations());
        assertEquals(0, checker.safetyViolations());
    }

    /** A crash ends the crashed node's hold and abandons its pending request. */
    @Test
    void crashEndsHoldAndAbandonsRequest() {
        checker.onRequest(0, 0);
        checker.onRequest(1, 0);
        checker.onGrant(0, 1, 1);
        checker.onCrash(0, 2);
        assertEquals(1, checker.ungranted());
        checker.onCrash(1, 3);
        assertEquals(0, checker.ungranted());
        checker.onRequest(2, 4);
        assertTrue(checker.onGrant(2, 2, 5));
        assertEquals(0, checker.safetyViolations());
    }
}
