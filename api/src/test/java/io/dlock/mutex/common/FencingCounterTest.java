package io.dlock.mutex.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The fencing-token watermark and its epoch floor. */
class FencingCounterTest {

    /** Tokens are one more than the highest seen, and observing a smaller token changes nothing. */
    @Test
    void nextIsAboveEverythingObserved() {
        FencingCounter f = new FencingCounter();
        assertEquals(1, f.next());
        f.observe(10);
        f.observe(3);
        assertEquals(11, f.next());
        assertEquals(11, f.highest());
    }

    /** After entering epoch e, tokens exceed e * 2^32, hence every token of an earlier epoch. */
    @Test
    void epochFloorSeparatesEpochs() {
        FencingCounter f = new FencingCounter();
        f.enterEpoch(0);
        assertEquals(1, f.next());
        f.enterEpoch(3);
        long t = f.next();
        assertEquals((3L << 32) + 1, t);
        f.observe((4L << 32) - 1);                 // the last possible token of epoch 3
        f.enterEpoch(4);
        assertTrue(f.next() > (4L << 32) - 1);
        f.enterEpoch(2);                           // never goes down
        assertTrue(f.highest() > (4L << 32));
    }

    /** Huge epochs saturate instead of overflowing; negative epochs are refused. */
    @Test
    void hugeAndNegativeEpochs() {
        FencingCounter f = new FencingCounter();
        f.enterEpoch(Long.MAX_VALUE);
        assertTrue(f.highest() > 0);
        assertTrue(f.next() > 0);
        assertThrows(IllegalArgumentException.class, () -> f.enterEpoch(-1));
    }
}
