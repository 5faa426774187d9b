package io.dlock.protocol;

/**
 * A Lamport logical clock (docs/algorithms.md 0.3): {@link #tick} before creating a timestamped event,
 * {@link #witness} on receiving a timestamp. Ricart-Agrawala's variant, which only keeps the highest
 * timestamp seen, uses {@link #observe} instead of {@link #witness}.
 *
 * <p>The rules are written once, as static functions from the clock's value to its next value, so that an
 * algorithm keeps its clock in a {@code long} field of its own ({@code clock = LogicalClock.witness(clock, t)}:
 * one object fewer per lock and node). An instance of this class is such a {@code long} with the rules as
 * methods, for code that prefers an object.
 */
public final class LogicalClock {

    private long time;

    /** A clock at 0. */
    public LogicalClock() {
    }

    /** {@code clock + 1}: the clock's value after a local event, the timestamp of the event being created. */
    public static long tick(long clock) {
        return clock + 1;
    }

    /** Lamport's receive rule {@code max(clock, timestamp) + 1}: the clock's value after receiving {@code timestamp}. */
    public static long witness(long clock, long timestamp) {
        return Math.max(clock, timestamp) + 1;
    }

    /** Ricart-Agrawala's rule {@code max(clock, timestamp)}: the highest timestamp seen after {@code timestamp}. */
    public static long observe(long clock, long timestamp) {
        return Math.max(clock, timestamp);
    }

    /** The current value (0 before any event). */
    public long time() {
        return time;
    }

    /** {@code clock = clock + 1} ({@link #tick(long)}); returns the new value, the timestamp of the event being created. */
    public long tick() {
        time = tick(time);
        return time;
    }

    /** Lamport's receive rule {@code clock = max(clock, t) + 1} ({@link #witness(long, long)}). */
    public void witness(long timestamp) {
        time = witness(time, timestamp);
    }

    /** Ricart-Agrawala's rule {@code highest = max(highest, t)} ({@link #observe(long, long)}). */
    public void observe(long timestamp) {
        time = observe(time, timestamp);
    }
}
