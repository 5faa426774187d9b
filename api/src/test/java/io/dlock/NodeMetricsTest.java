package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** NodeMetrics is a value: every field, liveLocks included, takes part in equality and the printed form. */
class NodeMetricsTest {

    /** The accessors return what the factory got. */
    @Test
    void accessorsReturnTheValues() {
        NodeMetrics m = NodeMetrics.of(7, true, 3, 1_000, 42);
        assertEquals(7, m.epoch());
        assertTrue(m.primary());
        assertEquals(3, m.viewChanges());
        assertEquals(1_000, m.nonPrimaryNanos());
        assertEquals(42, m.liveLocks());
    }

    /** Equal values are equal with equal hash codes; a different live-lock count makes them differ. */
    @Test
    void valueEqualityCoversLiveLocks() {
        NodeMetrics a = NodeMetrics.of(7, true, 3, 1_000, 42);
        assertEquals(a, NodeMetrics.of(7, true, 3, 1_000, 42));
        assertEquals(a.hashCode(), NodeMetrics.of(7, true, 3, 1_000, 42).hashCode());
        assertNotEquals(a, NodeMetrics.of(7, true, 3, 1_000, 41));
        assertEquals("NodeMetrics[epoch=7, primary=true, viewChanges=3, nonPrimaryNanos=1000, liveLocks=42]",
                a.toString());
    }
}
