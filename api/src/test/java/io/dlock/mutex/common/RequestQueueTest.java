package io.dlock.mutex.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.NodeId;
import io.dlock.protocol.RequestStamp;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@link RequestQueue} behaves as a {@code TreeSet<RequestStamp>}, also across being emptied and refilled. */
class RequestQueueTest {

    @Test
    void matchesATreeSet() {
        SplittableRandom random = new SplittableRandom(5);
        long[] nodes = {1, 2, 3, 4_096, 70_000, 4_294_967_295L};
        RequestQueue queue = new RequestQueue();
        TreeSet<RequestStamp> tree = new TreeSet<>();
        for (int step = 0; step < 5_000; step++) {
            RequestStamp r = new RequestStamp(random.nextInt(20), NodeId.of(nodes[random.nextInt(nodes.length)]));
            switch (random.nextInt(5)) {
                case 0, 1 -> assertEquals(tree.add(r), queue.add(r));
                case 2 -> assertEquals(tree.remove(r), queue.remove(r));
                case 3 -> assertEquals(tree.pollFirst(), queue.pollFirst());
                default -> {
                    long cut = random.nextInt(20);
                    assertEquals(tree.removeIf(q -> q.timestamp() < cut), queue.removeIf(q -> q.timestamp() < cut));
                }
            }
            assertEquals(tree.isEmpty(), queue.isEmpty());
            if (!tree.isEmpty()) {
                assertEquals(tree.first(), queue.first());
            }
            assertEquals(tree.stream().anyMatch(q -> q.node().equals(r.node())), queue.hasRequestOf(r.node()));
            List<RequestStamp> order = new ArrayList<>();
            queue.forEach(order::add);
            assertEquals(new ArrayList<>(tree), order);
            assertEquals(tree.toString(), queue.toString());
        }
    }

    @Test
    void anEmptyQueueHasNoFirst() {
        RequestQueue queue = new RequestQueue();
        assertThrows(NoSuchElementException.class, queue::first);
        assertNull(queue.pollFirst());
        assertFalse(queue.remove(new RequestStamp(1, NodeId.of(1))));
        assertFalse(queue.removeIf(q -> true));
        assertTrue(queue.add(new RequestStamp(1, NodeId.of(1))));
        queue.clear();
        assertTrue(queue.isEmpty());
        assertEquals("[]", queue.toString());
        assertFalse(queue.iterator().hasNext());
    }
}
