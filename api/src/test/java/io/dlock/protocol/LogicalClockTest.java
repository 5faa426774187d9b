package io.dlock.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The Lamport clock's rules, as functions of a clock's value and as an object's methods. */
class LogicalClockTest {

    /** tick adds one; witness jumps past a larger timestamp and ticks past a smaller one; observe keeps the maximum. */
    @Test
    void rules() {
        assertEquals(1, LogicalClock.tick(0));
        assertEquals(8, LogicalClock.witness(3, 7));
        assertEquals(4, LogicalClock.witness(3, 2));
        assertEquals(7, LogicalClock.observe(3, 7));
        assertEquals(3, LogicalClock.observe(3, 2));
    }

    /** The object applies the same rules to its own value. */
    @Test
    void objectFollowsTheRules() {
        LogicalClock clock = new LogicalClock();
        assertEquals(0, clock.time());
        assertEquals(1, clock.tick());
        clock.witness(5);
        assertEquals(6, clock.time());
        clock.observe(4);
        assertEquals(6, clock.time());
        clock.observe(9);
        assertEquals(9, clock.time());
    }
}
