package io.dlock.inmemory.sim;

import java.util.Arrays;

/**
 * The sender field ({@link Event#from}) that each event scheduled on an {@link EventQueue} finds left
 * over from its earlier use, replayed for events that no longer are pooled objects.
 *
 * <p>Why it exists: {@link Engine}'s trace hash folds {@code from} of every event, and only a
 * delivery sets it; a timer, request, release, crash or view event carries whatever its pooled
 * object's last use left, the sender of an earlier delivery. The queue's pool was one stack of
 * processed events (last in, first out), so that value is a function of the order of schedules and
 * recycles, and is part of each seed's trace hash. Deliveries in the ring are now
 * {@link RingDeliveries} entries, not pooled objects; this stack keeps what the pool's order gave:
 * every recycled event pushes its {@code from}, every scheduled event (a delivery or not) pops one (0,
 * a fresh event's value, when it is empty), and a scheduled event other than a delivery starts with
 * the popped value. So every seed's trace hash is the one earlier builds gave. Costs one push and one
 * pop of an int per event.
 */
final class RecycledSenders {

    private int[] stack = new int[256];
    private int size;

    /** An event with {@code from} left in it was processed and given back. */
    void push(int from) {
        if (size == stack.length) {
            stack = Arrays.copyOf(stack, size * 2);
        }
        stack[size++] = from;
    }

    /** The {@code from} the next scheduled event finds (0 if no processed event is left to reuse). */
    int pop() {
        return size > 0 ? stack[--size] : 0;
    }
}
