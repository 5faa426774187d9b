package io.dlock.inmemory.sim;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One simulated node's named timers, for both engines: setting a timer schedules a
 * {@link Event#TIMER} event stamped with a fresh generation; setting it again or cancelling it makes
 * the events already queued stale, and a stale event fires nothing.
 */
final class Timers {

    /** Current generation per running timer name. */
    private final Map<String, Long> running = new HashMap<>(4);
    private long generations;

    /**
     * Sets timer {@code name} of node {@code node} to fire {@code delayMillis} after {@code now},
     * replacing a running one of that name.
     *
     * @throws IllegalArgumentException if {@code delayMillis} is negative
     */
    void set(EventQueue queue, long now, int node, String name, long delayMillis) {
        Objects.requireNonNull(name, "timer name");
        if (delayMillis < 0) {
            throw new IllegalArgumentException("timer " + name + " delay must be >= 0, got " + delayMillis);
        }
        long generation = ++generations;
        running.put(name, generation);
        Event event = queue.obtain(Event.TIMER, node);
        event.timer = name;
        event.generation = generation;
        queue.add(now + delayMillis, event);
    }

    /** Stops timer {@code name}, if it runs. */
    void cancel(String name) {
        running.remove(name);
    }

    /** Stops every timer (the node crashed, or forgot its state). */
    void clear() {
        running.clear();
    }

    /** Whether timer {@code event} is current; if so, the timer stops running (it fires now). */
    boolean fire(Event event) {
        Long generation = running.get(event.timer);
        if (generation == null || generation != event.generation) {
            return false;
        }
        running.remove(event.timer);
        return true;
    }
}
