package io.dlock.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code dlock node}: joins a JGroups cluster, takes the lock the given number of times, prints holder and leader. */
@Timeout(60)
class NodeCommandTest {

    /** One node alone in a fresh cluster on the in-JVM loopback stack, taking lock L {@code count} times. */
    private static Run node(String algorithm, int id, int count) {
        return Run.dlock("node", "--cluster", "node-test-" + UUID.randomUUID(), "--lock", "L", "--algorithm", algorithm,
                "--stack", "loopback", "--node-id", Integer.toString(id), "--count", Integer.toString(count),
                "--hold-ms", "1", "--pause-ms", "1");
    }

    /** A node on the in-JVM loopback stack takes the lock twice, prints each hold with its leader, and exits 0. */
    @Test
    void node_takesTheLockAndExits() {
        Run r = node("ricart-agrawala", 4, 2);
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().contains("n4 HOLDS 'L' (entry 2"), r::toString);
        assertTrue(r.out().contains("leader n4"), r::toString);
    }

    /** An unknown algorithm is refused with exit code 2, the list of allowed names and the usage. */
    @Test
    void node_unknownAlgorithm() {
        Run r = Run.dlock("node", "--algorithm", "nope", "--stack", "loopback");
        assertEquals(2, r.code(), r::toString);
        assertTrue(r.err().contains("allowed: centralized"), r::toString);
        assertTrue(r.err().contains("Usage: dlock node"), r::toString);
    }

    /** A variant is a valid algorithm for a node, as for {@code dlock.mutex}. */
    @Test
    void node_variant() {
        Run r = node("maekawa-basic", 2, 1);
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().contains("(maekawa, stack loopback)"), r::toString);
        assertTrue(r.out().contains("n2 HOLDS 'L' (entry 1"), r::toString);
    }
}
