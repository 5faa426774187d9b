package io.dlock.inmemory.sim;

import java.util.Arrays;

/**
 * The simulator's one event queue, ordered by (virtual time, sequence number).
 *
 * <p>The sequence number is assigned on insertion and strictly increases, so events due at the
 * same instant come out in the order they were scheduled: the order is total and independent of
 * anything but the sequence of {@link #add} calls, which is what makes a run a function of its seed.
 *
 * <p>Layout (chosen so that the cost per event does not grow with the number of messages in flight): almost every event is due within a few time units of now (message delays,
 * think and hold times), so the queue is a <em>bucket ring</em> of {@value #WINDOW} one-instant
 * buckets covering the times {@code [base, base + WINDOW)}, each bucket a FIFO list threaded through
 * {@link Event#next} (insertion order is sequence order, so a bucket's head is its smallest key),
 * with a bitmap of non-empty buckets; events outside the window go to a binary min-heap. Adding and
 * polling cost O(1) for ring events whatever the number of events in flight (the heap's log n
 * grew with N: at N = 512 a broadcast puts hundreds of messages in flight). {@link #poll} compares the
 * ring's earliest event with the heap's by (time, sequence), so the order is exactly that of a
 * single heap. {@code base} only moves up to the time of a polled event, which is the minimum of
 * everything queued, so ring events always stay inside the window.
 */
final class EventQueue {

    /** Buckets in the ring: a power of two. */
    static final int WINDOW = 1024;
    private static final int MASK = WINDOW - 1;

    private final Event[] heads = new Event[WINDOW];
    private final Event[] tails = new Event[WINDOW];
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

    /**
     * An event of {@code kind} for node {@code node}, recycled if one is free: only the fields
     * {@link Event#clear} resets are cleared, the others keep what the last use left (the trace hash
     * of a run folds them in, so this reuse order is part of what a seed produces).
     */
    Event obtain(int kind, int node) {
        Event event = pooled > 0 ? pool[--pooled] : new Event();
        event.kind = kind;
        event.node = node;
        return event;
    }

    /** Gives back {@code event}, processed and no longer referenced, for {@link #obtain} to reuse. */
    void recycle(Event event) {
        event.clear();
        if (pooled == pool.length) {
            pool = Arrays.copyOf(pool, pooled * 2);
        }
        pool[pooled++] = event;
    }

    /** Schedules {@code event} at virtual time {@code time} (also stored in {@link Event#time}). */
    void add(long time, Event event) {
        event.time = time;
        long seq = nextSeq++;
        event.seq = seq;
        if (time >= base && time - base < WINDOW) {
            int b = (int) time & MASK;
            event.next = null;
            Event tail = tails[b];
            if (tail == null) {
                heads[b] = event;
                occupied[b >>> 6] |= 1L << b;
            } else {
                tail.next = event;
            }
            tails[b] = event;
            ringSize++;
        } else {
            heapAdd(time, seq, event);
        }
    }

    /** Removes and returns the earliest event; the queue must not be empty. */
    Event poll() {
        Event ring = null;
        int b = -1;
        if (ringSize > 0) {
            b = firstBucket();
            ring = heads[b];
        }
        Event first;
        if (heapSize > 0 && (ring == null || keys[0] < ring.time || (keys[0] == ring.time && keys[1] < ring.seq))) {
            first = heapPoll();
        } else {
            Event after = ring.next;
            heads[b] = after;
            if (after == null) {
                tails[b] = null;
                occupied[b >>> 6] &= ~(1L << b);
            }
            ring.next = null;
            ringSize--;
            first = ring;
        }
        if (first.time > base) {
            base = first.time; // the minimum of everything queued: every ring event stays in the window
        }
        return first;
    }

    /** The time of the earliest event; the queue must not be empty. */
    long peekTime() {
        if (ringSize == 0) {
            return keys[0];
        }
        long ringTime = heads[firstBucket()].time;
        return heapSize > 0 ? Math.min(ringTime, keys[0]) : ringTime;
    }

    boolean isEmpty() {
        return ringSize + heapSize == 0;
    }

    int size() {
        return ringSize + heapSize;
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
