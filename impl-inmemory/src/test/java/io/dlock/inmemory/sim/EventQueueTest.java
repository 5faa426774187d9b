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
     * Deliveries (kept as primitive entries) and other events of the same instants come out in
     * insertion order, in and beyond the ring's window, through the growth of the entry arrays, each
     * delivery with the fields it was scheduled with; a deferred delivery added again comes out again.
     */
    @Test
    void deliveriesAndEventsAgreeWithAStableSort() {
        SplittableRandom random = new SplittableRandom(13);
        agreesWithAStableSort(random, () -> random.nextInt(random.nextInt(8) == 0 ? 3 * EventQueue.WINDOW : 6));
    }

    /** A broadcast's deliveries share one message; each keeps its receiver and message id. */
    @Test
    void broadcastDeliveriesKeepTheirReceiversAndIds() {
        EventQueue queue = new EventQueue();
        Object message = "m";
        MessageTypeStats type = new MessageTypeStats(String.class);
        for (int dst = 1; dst <= 40; dst++) {
            queue.addDelivery(dst % 3, dst, 0, 7, message, type, 100 + dst);
        }
        Event deferred = null;
        for (int k = 0; k < 40; k++) {
            Event e = queue.poll();
            assertEquals(Event.DELIVER, e.kind);
            assertSame(message, e.message);
            assertSame(type, e.type);
            assertEquals(0, e.from);
            assertEquals(7, e.epoch);
            assertEquals(100 + e.node, e.messageId);
            assertEquals(e.node % 3, e.time);
            if (e.node == 20) {
                queue.add(50, e); // deferred: it comes out again, last
                deferred = e;
            }
        }
        assertSame(deferred, queue.poll());
        assertEquals(20, deferred.node);
        assertEquals(120, deferred.messageId);
        assertEquals(50, deferred.time);
        assertTrue(queue.isEmpty());
    }

    /**
     * A reused event carries no sender over from its last use (only a delivery has one, and the trace hash
     * folds a delivery's sender only).
     */
    @Test
    void aReusedEventCarriesNoSenderOver() {
        EventQueue queue = new EventQueue();
        queue.add(300_000, queue.obtain(Event.DELIVER, 1)); // outside the ring's window: a pooled event in the heap
        Event delivery = queue.poll();
        delivery.from = 7;
        queue.recycle(delivery);
        Event reused = queue.obtain(Event.RELEASE, 1);
        assertSame(delivery, reused, "the pool hands the recycled event out again");
        assertEquals(0, reused.from);
    }

    /**
     * 20 000 random adds (at now + {@code offset}) and polls, each poll checked against a stable sort by
     * (time, insertion order); then the queue is drained the same way. Half of the adds are deliveries
     * ({@link EventQueue#addDelivery}), told apart by their message id; a few polled deliveries are added again.
     */
    private static void agreesWithAStableSort(SplittableRandom random, IntSupplier offset) {
        EventQueue queue = new EventQueue();
        MessageTypeStats type = new MessageTypeStats(String.class);
        List<long[]> reference = new ArrayList<>();
        Comparator<long[]> byTimeThenInsertion = Comparator.<long[]>comparingLong(x -> x[0]).thenComparingLong(x -> x[1]);
        long seq = 0;
        long now = 0;
        for (int round = 0; round < 20_000; round++) {
            if (random.nextInt(3) > 0 || queue.isEmpty()) {
                long time = now + offset.getAsInt();
                if (random.nextBoolean()) {
                    queue.addDelivery(time, (int) (seq % 7), (int) (seq % 5), seq, "m" + seq % 3, type, seq);
                    reference.add(new long[] {time, seq++, 1});
                } else {
                    Event e = new Event();
                    e.generation = seq;
                    queue.add(time, e);
                    reference.add(new long[] {time, seq++, 0});
                }
            } else {
                reference.sort(byTimeThenInsertion);
                long[] expected = reference.remove(0);
                assertEquals(expected[0], queue.peekTime());
                Event e = queue.poll();
                check(expected, e);
                now = e.time;
                if (e.kind == Event.DELIVER && random.nextInt(10) == 0) {
                    long later = now + offset.getAsInt();
                    queue.add(later, e);
                    reference.add(new long[] {later, seq++, 1, e.messageId});
                }
            }
            assertEquals(reference.size(), queue.size());
        }
        while (!reference.isEmpty()) {
            reference.sort(byTimeThenInsertion);
            check(reference.remove(0), queue.poll());
        }
        assertTrue(queue.isEmpty());
    }

    /** {@code e} is the event {@code expected} describes: time, insertion number, delivery or not (and its fields). */
    private static void check(long[] expected, Event e) {
        assertEquals(expected[0], e.time);
        if (expected[2] == 0) {
            assertEquals(expected[1], e.generation);
            return;
        }
        long id = expected.length > 3 ? expected[3] : expected[1];
        assertEquals(Event.DELIVER, e.kind);
        assertEquals(id, e.messageId);
        assertEquals(id % 7, e.node);
        assertEquals(id % 5, e.from);
        assertEquals(id, e.epoch);
        assertEquals("m" + id % 3, e.message);
    }
}
