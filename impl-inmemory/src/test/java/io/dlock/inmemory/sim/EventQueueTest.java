package io.dlock.inmemory.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

class EventQueueTest {

    /** Events come out by time, and events of the same time in insertion order. */
    @Test
    void ordersByTimeThenInsertion() {
        EventQueue queue = new EventQueue();
        Event a = new Event();
        Event b = new Event();
        Event c = new Event();
        Event d = new Event();
        queue.add(5, a);
        queue.add(3, b);
        queue.add(5, c);
        queue.add(3, d);
        assertSame(b, queue.poll());
        assertSame(d, queue.poll());
        assertSame(a, queue.poll());
        assertSame(c, queue.poll());
        assertTrue(queue.isEmpty());
    }

    /** Interleaved adds and polls agree with a sort by (time, insertion order), through growth. */
    @Test
    void agreesWithAStableSortUnderRandomUse() {
        SplittableRandom random = new SplittableRandom(7);
        agreesWithAStableSort(random, () -> random.nextInt(20));
    }

    /**
     * Times beyond the bucket ring's window (they wait in the overflow heap) and times at or just after
     * now (the ring) interleave in exactly (time, insertion) order, also after the window has moved.
     */
    @Test
    void ringAndOverflowAgreeWithAStableSort() {
        SplittableRandom random = new SplittableRandom(11);
        agreesWithAStableSort(random, () -> random.nextInt(random.nextInt(4) == 0 ? 3 * EventQueue.WINDOW : 12));
    }

    /**
     * 20 000 random adds (at now + {@code offset}) and polls, each poll checked against a stable sort by
     * (time, insertion order); then the queue is drained the same way.
     */
    private static void agreesWithAStableSort(SplittableRandom random, IntSupplier offset) {
        EventQueue queue = new EventQueue();
        List<long[]> reference = new ArrayList<>();
        Comparator<long[]> byTimeThenInsertion = Comparator.<long[]>comparingLong(x -> x[0]).thenComparingLong(x -> x[1]);
        long seq = 0;
        long now = 0;
        for (int round = 0; round < 20_000; round++) {
            if (random.nextInt(3) > 0 || queue.isEmpty()) {
                Event e = new Event();
                long time = now + offset.getAsInt();
                e.generation = seq;
                queue.add(time, e);
                reference.add(new long[] {time, seq++});
            } else {
                reference.sort(byTimeThenInsertion);
                long[] expected = reference.remove(0);
                assertEquals(expected[0], queue.peekTime());
                Event e = queue.poll();
                assertEquals(expected[0], e.time);
                assertEquals(expected[1], e.generation);
                now = e.time;
            }
            assertEquals(reference.size(), queue.size());
        }
        while (!reference.isEmpty()) {
            reference.sort(byTimeThenInsertion);
            long[] expected = reference.remove(0);
            Event e = queue.poll();
            assertEquals(expected[0], e.time);
            assertEquals(expected[1], e.generation);
        }
        assertTrue(queue.isEmpty());
    }
}
