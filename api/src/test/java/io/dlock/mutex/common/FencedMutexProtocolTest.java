package io.dlock.mutex.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The fencing-token watermark and its epoch floor. */
class FencedMutexProtocolTest {

    /** Tokens are one more than the highest seen, and observing a smaller token changes nothing. */
    @Test
    void nextIsAboveEverythingObserved() {
        FenceOnlyProtocol f = new FenceOnlyProtocol();
        assertEquals(1, f.nextFence());
        f.observeFence(10);
        f.observeFence(3);
        assertEquals(11, f.nextFence());
        assertEquals(11, f.highestFence());
    }

    /** After entering epoch e, tokens exceed e * 2^32, hence every token of an earlier epoch. */
    @Test
    void epochFloorSeparatesEpochs() {
        FenceOnlyProtocol f = new FenceOnlyProtocol();
        f.enterFenceEpoch(0);
        assertEquals(1, f.nextFence());
        f.enterFenceEpoch(3);
        long t = f.nextFence();
        assertEquals((3L << 32) + 1, t);
        f.observeFence((4L << 32) - 1);                 // the last possible token of epoch 3
        f.enterFenceEpoch(4);
        assertTrue(f.nextFence() > (4L << 32) - 1);
        f.enterFenceEpoch(2);                           // never goes down
        assertTrue(f.highestFence() > (4L << 32));
    }

    /** Huge epochs saturate instead of overflowing; negative epochs are refused. */
    @Test
    void hugeAndNegativeEpochs() {
        FenceOnlyProtocol f = new FenceOnlyProtocol();
        f.enterFenceEpoch(Long.MAX_VALUE);
        assertTrue(f.highestFence() > 0);
        assertTrue(f.nextFence() > 0);
        assertThrows(IllegalArgumentException.class, () -> f.enterFenceEpoch(-1));
    }

    /** A floor (a reclaimed lock's next incarnation) starts the count above it; a negative one is refused. */
    @Test
    void floorStartsTheCount() {
        FenceOnlyProtocol f = new FenceOnlyProtocol(41);
        assertEquals(41, f.highestFence());
        assertEquals(42, f.nextFence());
        assertThrows(IllegalArgumentException.class, () -> new FenceOnlyProtocol(-1));
    }
}
