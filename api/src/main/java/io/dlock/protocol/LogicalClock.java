package io.dlock.protocol;

/**
 * A Lamport logical clock (docs/algorithms.md 0.3): {@link #tick} before creating a timestamped event,
 * {@link #witness} on receiving a timestamp. Ricart-Agrawala's variant, which only keeps the highest
 * timestamp seen, uses {@link #observe} instead of {@link #witness}.
 */
public final class LogicalClock {

    private long time;

    /** A clock at 0. */
    public LogicalClock() {
    }

    /** The current value (0 before any event). */
    public long time() {
        return time;
    }

    /** {@code clock = clock + 1}; returns the new value, the timestamp of the event being created. */
    public long tick() {
        return ++time;
    }

    /** Lamport's receive rule {@code clock = max(clock, t) + 1}. */
    public void witness(long timestamp) {
        time = Math.max(time, timestamp) + 1;
    }

    /** Ricart-Agrawala's rule {@code highest = max(highest, t)}. */
    public void observe(long timestamp) {
        time = Math.max(time, timestamp);
    }
}
