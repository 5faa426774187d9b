package io.dlock.inmemory.sim;

import java.util.Arrays;

/**
 * The simulator's one event queue, ordered by (virtual time, sequence number).
 *
 * <p>The sequence number is assigned on insertion and strictly increases, so events due at the
 * same instant come out in the order they were scheduled: the order is total and independent of
 * anything but the sequence of {@link #add} and {@link #addDelivery} calls, which is what makes a run a
 * function of its seed.
 *
 * <p>Layout (chosen so that the cost per event does not grow with the number of messages in flight): almost every event is due within a few time units of now (message delays,
 * think and hold times), so the queue is a <em>bucket ring</em> of {@value #WINDOW} one-instant
 * buckets covering the times {@code [base, base + WINDOW)}, with a bitmap of non-empty buckets; events
 * outside the window go to a binary min-heap. Adding and
 * polling cost O(1) for ring events whatever the number of events in flight (the heap's log n
 * grew with N: at N = 512 a broadcast puts hundreds of messages in flight). {@link #poll} compares the
 * ring's earliest event with the heap's by (time, sequence), so the order is exactly that of a
 * single heap. {@code base} only moves up to the time of a polled event, which is the minimum of
 * everything queued, so ring events always stay inside the window, and a bucket's time follows from its
 * index.
 *
 * <p>A bucket holds two FIFO lists, each in sequence order: its message deliveries as primitive
 * {@link RingDeliveries} entries, and its other events (timers, requests, releases, faults) as {@link Event}
 * objects threaded through {@link Event#next}; the bucket's next event is the head of lower sequence.
 * Why two: deliveries are nearly all of the events, and at N = 512 some 260 000 of them are in flight
 * (each node broadcasts to 511 others at once); as pooled {@code Event} objects (23 MB linked in no
 * order of address) finding and reading the next one was a cache miss per message, which made a message
 * cost about 4 times as much as at N = 64 (Ricart-Agrawala, 640 entries). A delivery taken from the ring comes out of {@link #poll} in
 * one {@code Event} reused for every such delivery, valid until the next poll; a delivery outside the
 * window waits in the heap as a pooled {@code Event} like the rest. Measured with {@code SimulatorBenchmark}
 * on a shared 2-core machine: N = 512 went from about 1.9-2.4 to 2.9-6.5 million messages a second, while
 * N = 8 and 64, whose events all fit in the caches anyway, lost about 10 % to the extra bookkeeping.
 *
 * <p>Processed events are pooled ({@link #recycle}, {@link #obtain}); {@link Event#clear} resets the
 * fields a reused event must not carry over.
 */
final class EventQueue {

    /** Buckets in the ring: a power of two. */
    static final int WINDOW = 1024;
    private static final int MASK = WINDOW - 1;

    /** Per bucket, its first and last {@link Event} other than a ring delivery, or null. */
    private final Event[] heads = new Event[WINDOW];
    private final Event[] tails = new Event[WINDOW];
    /** Per bucket, its deliveries. */
    private final RingDeliveries deliveries = new RingDeliveries(WINDOW);
    /** Bit {@code b} of word {@code b >>> 6}: bucket {@code b} is not empty. */
    private final long[] occupied = new long[WINDOW / 64];
    /** The ring covers {@code [base, base + WINDOW)}. */
    private long base;
    private int ringSize;

    /** Overflow heap keys, interleaved: {@code keys[2i]} = time, {@code keys[2i+1]} = sequence. */
    private long[] keys = new long[128];
    private Event[] events = new Event[64];
    private int heapSize;
    private long nextSeq;

    /** Processed events kept for reuse ({@link #recycle}), so that a long run allocates few. */
    private Event[] pool = new Event[256];
    private int pooled;
    /** The event {@link #poll} returns for each delivery taken from the ring. */
    private final Event delivery = new Event();

    /**
     * An event of {@code kind} for node {@code node}, recycled if one is free (with the fields
     * {@link Event#clear} resets cleared; the caller sets the others its kind uses).
     */
    Event obtain(int kind, int node) {
        Event event = pooledOrNew();
        event.kind = kind;
        event.node = node;
        return event;
    }

    /**
     * Gives back {@code event}, processed and no longer referenced, for {@link #obtain} to reuse (the
     * event {@link #poll} returned for a delivery stays the queue's).
     */
    void recycle(Event event) {
        event.clear();
        if (event == delivery) {
            return;
        }
        if (pooled == pool.length) {
            pool = Arrays.copyOf(pool, pooled * 2);
        }
        pool[pooled++] = event;
    }

    /**
     * Schedules {@code event} at virtual time {@code time} (also stored in {@link Event#time}); the event
     * {@link #poll} returned for a delivery may be added again (a delivery deferred), as a delivery.
     */
    void add(long time, Event event) {
        if (event == delivery) {
            schedule(time, event.node, event.from, event.epoch, event.message, event.type, event.messageId);
            return;
        }
        event.time = time;
        long seq = nextSeq++;
        event.seq = seq;
        if (time >= base && time - base < WINDOW) {
            int b = (int) time & MASK;
            event.next = null;
            Event tail = tails[b];
            if (tail == null) {
                heads[b] = event;
            } else {
                tail.next = event;
            }
            tails[b] = event;
            occupied[b >>> 6] |= 1L << b;
            ringSize++;
        } else {
            heapAdd(time, seq, event);
        }
    }

    /**
     * Schedules at {@code time} the delivery to node {@code node} of {@code message} (type {@code type},
     * network message id {@code messageId}) sent by {@code from} in its epoch {@code epoch}: an
     * {@link Event#DELIVER} event as {@link #poll} returns it.
     */
    void addDelivery(long time, int node, int from, long epoch, Object message, MessageTypeStats type, long messageId) {
        schedule(time, node, from, epoch, message, type, messageId);
    }

    private void schedule(long time, int node, int from, long epoch, Object message, MessageTypeStats type,
                          long messageId) {
        if (time < base || time - base >= WINDOW) {
            Event event = pooledOrNew();
            event.kind = Event.DELIVER;
            event.node = node;
            event.from = from;
            event.epoch = epoch;
            event.message = message;
            event.type = type;
            event.messageId = messageId;
            add(time, event); // outside the window: to the heap
            return;
        }
        int b = (int) time & MASK;
        deliveries.add(b, nextSeq++, from, node, epoch, messageId, message, type);
        occupied[b >>> 6] |= 1L << b;
        ringSize++;
    }

    /**
     * Removes and returns the earliest event; the queue must not be empty. A delivery from the ring is
     * returned in one event the queue reuses: it is valid until the next poll.
     */
    Event poll() {
        if (ringSize == 0) {
            return pollHeap();
        }
        int b = firstBucket();
        long time = base + ((b - (int) base) & MASK);
        Event listed = heads[b];
        boolean takeDelivery = !deliveries.isEmpty(b) && (listed == null || deliveries.headSeq(b) < listed.seq);
        long seq = takeDelivery ? deliveries.headSeq(b) : listed.seq;
        if (heapSize > 0 && (keys[0] < time || (keys[0] == time && keys[1] < seq))) {
            return pollHeap();
        }
        Event first = takeDelivery ? takeDelivery(b, time) : unlink(b, listed);
        ringSize--;
        if (heads[b] == null && deliveries.isEmpty(b)) {
            occupied[b >>> 6] &= ~(1L << b);
        }
        base = time; // the minimum of everything queued (ring times are never below base)
        return first;
    }

    /** The time of the earliest event; the queue must not be empty. */
    long peekTime() {
        if (ringSize == 0) {
            return keys[0];
        }
        long ringTime = base + ((firstBucket() - (int) base) & MASK);
        return heapSize > 0 ? Math.min(ringTime, keys[0]) : ringTime;
    }

    boolean isEmpty() {
        return ringSize + heapSize == 0;
    }

    int size() {
        return ringSize + heapSize;
    }

    /** A pooled event, or a new one if none is free. */
    private Event pooledOrNew() {
        return pooled > 0 ? pool[--pooled] : new Event();
    }

    /** Takes the first of bucket {@code b}'s events, {@code head}. */
    private Event unlink(int b, Event head) {
        Event after = head.next;
        heads[b] = after;
        if (after == null) {
            tails[b] = null;
        }
        head.next = null;
        return head;
    }

    /** Takes the first delivery of bucket {@code b}, due at {@code time}, into {@link #delivery}. */
    private Event takeDelivery(int b, long time) {
        Event event = delivery;
        deliveries.takeHead(b, event);
        event.time = time;
        return event;
    }

    /** The first non-empty bucket from {@code base} on, circularly; the ring must not be empty. */
    private int firstBucket() {
        int start = (int) base & MASK;
        int word = start >>> 6;
        long bits = occupied[word] & (-1L << start);
        int words = occupied.length;
        for (int k = 0; k <= words; k++) {
            if (bits != 0) {
                return (word << 6) + Long.numberOfTrailingZeros(bits);
            }
            word = (word + 1) & (words - 1);
            bits = occupied[word];
        }
        throw new IllegalStateException("ring of " + ringSize + " events has no occupied bucket");
    }

    /** Takes the heap's first event, the earliest of all. */
    private Event pollHeap() {
        Event first = heapPoll();
        if (first.time > base) {
            base = first.time; // the minimum of everything queued: every ring event stays in the window
        }
        return first;
    }

    private void heapAdd(long time, long seq, Event event) {
        if (heapSize == events.length) {
            keys = Arrays.copyOf(keys, keys.length * 2);
            events = Arrays.copyOf(events, events.length * 2);
        }
        long[] k = keys;
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            long pt = k[2 * parent];
            if (pt < time || (pt == time && k[2 * parent + 1] < seq)) {
                break;
            }
            k[2 * i] = pt;
            k[2 * i + 1] = k[2 * parent + 1];
            events[i] = events[parent];
            i = parent;
        }
        k[2 * i] = time;
        k[2 * i + 1] = seq;
        events[i] = event;
    }

    private Event heapPoll() {
        Event[] e = events;
        long[] k = keys;
        Event first = e[0];
        int last = --heapSize;
        long time = k[2 * last];
        long seq = k[2 * last + 1];
        Event moved = e[last];
        e[last] = null;
        if (last > 0) {
            int i = 0;
            int half = last >>> 1;
            while (i < half) {
                int child = 2 * i + 1;
                int right = child + 1;
                long ct = k[2 * child];
                long cs = k[2 * child + 1];
                if (right < last) {
                    long rt = k[2 * right];
                    if (rt < ct || (rt == ct && k[2 * right + 1] < cs)) {
                        child = right;
                        ct = rt;
                        cs = k[2 * right + 1];
                    }
                }
                if (time < ct || (time == ct && seq < cs)) {
                    break;
                }
                k[2 * i] = ct;
                k[2 * i + 1] = cs;
                e[i] = e[child];
                i = child;
            }
            k[2 * i] = time;
            k[2 * i + 1] = seq;
            e[i] = moved;
        }
        return first;
    }
}
