package io.dlock.mutex.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.NodeId;
import java.util.ArrayDeque;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The token algorithms' request queue: first in, first out, as an {@code ArrayDeque} of node ids behaves. */
class NodeQueueTest {

    private static final NodeId N1 = NodeId.of(1);
    private static final NodeId N2 = NodeId.of(2);
    private static final NodeId N3 = NodeId.of(3);

    /** Ids leave in the order they came; an empty queue polls null. */
    @Test
    void firstInFirstOut() {
        NodeQueue q = new NodeQueue();
        assertTrue(q.isEmpty());
        assertNull(q.pollFirst());
        q.addLast(N2);
        q.addLast(N1);
        q.addAll(List.of(N3));
        assertEquals(3, q.size());
        assertEquals(List.of(N2, N1, N3), q.toList());
        assertEquals("[n2, n1, n3]", q.toString());
        assertEquals(N2, q.pollFirst());
        assertEquals(N1, q.pollFirst());
        assertEquals(N3, q.pollFirst());
        assertTrue(q.isEmpty());
        assertEquals("[]", q.toString());
    }

    /** Removing one id, or those a filter accepts, keeps the others in order. */
    @Test
    void removalKeepsTheOrder() {
        NodeQueue q = new NodeQueue();
        q.addAll(List.of(N1, N2, N3));
        assertTrue(q.contains(N2));
        assertTrue(q.remove(N2));
        assertFalse(q.contains(N2));
        assertFalse(q.remove(N2), "not queued any more");
        assertEquals(List.of(N1, N3), q.toList());
        q.addLast(N2);
        q.removeIf(id -> id.equals(N1));
        assertEquals(List.of(N3, N2), q.toList());
        q.removeIf(id -> false);
        assertEquals(List.of(N3, N2), q.toList());
        q.removeIf(id -> true);
        assertTrue(q.isEmpty());
        q.addLast(N1);
        q.clear();
        assertTrue(q.isEmpty());
        assertEquals(List.of(), q.toList());
    }

    /** The list handed out is a copy: later changes to the queue do not show in it, and it cannot be changed. */
    @Test
    void toListIsAnUnmodifiableCopy() {
        NodeQueue q = new NodeQueue();
        q.addLast(N1);
        List<NodeId> copy = q.toList();
        q.addLast(N2);
        assertEquals(List.of(N1), copy);
        assertThrows(UnsupportedOperationException.class, () -> copy.add(N3));
    }

    /** Null ids are refused, as an {@code ArrayDeque} refuses them. */
    @Test
    void nullIsRefused() {
        NodeQueue q = new NodeQueue();
        assertThrows(NullPointerException.class, () -> q.addLast(null));
        assertThrows(NullPointerException.class, () -> q.addAll(java.util.Arrays.asList(N1, null)));
    }

    /** A random mix of operations gives the same results as an {@code ArrayDeque}. */
    @Test
    void behavesLikeAnArrayDeque() {
        SplittableRandom random = new SplittableRandom(42);
        NodeQueue q = new NodeQueue();
        ArrayDeque<NodeId> reference = new ArrayDeque<>();
        for (int step = 0; step < 5_000; step++) {
            NodeId id = NodeId.of(random.nextInt(8));
            switch (random.nextInt(6)) {
                case 0, 1 -> {
                    q.addLast(id);
                    reference.addLast(id);
                }
                case 2 -> assertEquals(reference.pollFirst(), q.pollFirst());
                case 3 -> assertEquals(reference.remove(id), q.remove(id));
                case 4 -> {
                    long below = random.nextInt(8);
                    q.removeIf(n -> n.value() < below);
                    reference.removeIf(n -> n.value() < below);
                }
                default -> assertEquals(reference.contains(id), q.contains(id));
            }
            assertEquals(List.copyOf(reference), q.toList());
            assertEquals(reference.isEmpty(), q.isEmpty());
            assertEquals(reference.toString(), q.toString());
        }
    }
}
