package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** FencedResource accepts writes with tokens not older than any accepted before, and refuses the rest unchanged. */
class FencedResourceTest {

    /** Increasing and repeated tokens are accepted; an older one is refused and changes nothing. */
    @Test
    void refusesOlderTokens() {
        FencedResource<String> r = new FencedResource<>("a");
        r.write(5, "b");
        r.write(5, "c"); // the same holder writes again
        assertEquals("d", r.update(9, v -> "d"));
        StaleFencingTokenException e = assertThrows(StaleFencingTokenException.class, () -> r.write(7, "late"));
        assertEquals(7, e.token());
        assertEquals(9, e.highestAccepted());
        assertThrows(StaleFencingTokenException.class, () -> r.update(8, v -> {
            throw new AssertionError("a stale update must not run");
        }));
        assertEquals("d", r.read());
        assertEquals(9, r.highestAccepted());
    }

    /** An update whose function throws changes neither the value nor the highest token. */
    @Test
    void failedUpdateChangesNothing() {
        FencedResource<Integer> r = new FencedResource<>(1);
        r.write(3, 2);
        assertThrows(IllegalArgumentException.class, () -> r.update(4, v -> {
            throw new IllegalArgumentException("no");
        }));
        assertEquals(2, r.read());
        assertEquals(3, r.highestAccepted());
    }
}
