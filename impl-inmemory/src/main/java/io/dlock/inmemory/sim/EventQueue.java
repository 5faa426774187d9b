package io.dlock.inmemory.sim;

import java.util.Arrays;

/**
 * The simulator's one event queue: a binary min-heap ordered by (virtual time, sequence number).
 *
 * <p>The sequence number is assigned on insertion and strictly increases, so events due at the
 * same instant come out in the order they were scheduled: the order is total and independent of
 * anything but the sequence of {@link #add} calls, which is what makes a run a function of its seed.
 * Keys live in a primitive array beside the events (time and sequence side by side) so that sifting
 * compares without dereferencing.
 */
final class EventQueue {

    /** Heap keys, interleaved for locality: {@code keys[2i]} = time, {@code keys[2i+1]} = sequence. */
    private long[] keys = new long[2048];
    private Event[] events = new Event[1024];
    private int size;
    private long nextSeq;

    /** Schedules {@code event} at virtual time {@code time} (also stored in {@link Event#time}). */
    void add(long time, Event event) {
        event.time = time;
        if (size == events.length) {
            keys = Arrays.copyOf(keys, keys.length * 2);
            events = Arrays.copyOf(events, events.length * 2);
        }
        long[] k = keys;
        long seq = nextSeq++;
        int i = size++;
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

    /** Removes and returns the earliest event; the queue must not be empty. */
    Event poll() {
        Event[] e = events;
        long[] k = keys;
        Event first = e[0];
        int last = --size;
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

    /** The time of the earliest event; the queue must not be empty. */
    long peekTime() {
        return keys[0];
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }
}
