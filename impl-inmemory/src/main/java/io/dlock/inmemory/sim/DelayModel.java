package io.dlock.inmemory.sim;

import java.util.SplittableRandom;

/**
 * How long one message takes from its sender to its receiver, in virtual time units (the unit of
 * the protocols' timer delays, nominally milliseconds).
 *
 * <p>A model is immutable. Each message draws its delay independently from the simulation's
 * delay random source, so two messages on one channel may overtake each other unless the channel
 * is FIFO (see {@link Simulation#fifoGuard(boolean)}). A model whose minimum equals its maximum
 * ({@link #unit()}, {@link #fixed(long)}) draws nothing, so it leaves the delay random source
 * untouched.
 */
public final class DelayModel {

    private final long min;
    private final long max;

    private DelayModel(long min, long max) {
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("delay range must satisfy 0 <= min <= max, got [" + min + ", " + max + "]");
        }
        this.min = min;
        this.max = max;
    }

    /**
     * Every message takes exactly 1 time unit: docs/algorithms.md 0.4's unit-delay model, in which the
     * synchronization delay is measured in message times T.
     */
    public static DelayModel unit() {
        return new DelayModel(1, 1);
    }

    /**
     * Every message takes exactly {@code delay} units.
     *
     * @throws IllegalArgumentException if {@code delay} is negative
     */
    public static DelayModel fixed(long delay) {
        return new DelayModel(delay, delay);
    }

    /**
     * Each message takes a delay drawn uniformly from {@code [min, max]} (both inclusive), independently
     * of every other message.
     *
     * @throws IllegalArgumentException unless {@code 0 <= min <= max}
     */
    public static DelayModel uniform(long min, long max) {
        return new DelayModel(min, max);
    }

    /** The default of a {@link Simulation}: {@code uniform(1, 10)}. */
    public static DelayModel standard() {
        return uniform(1, 10);
    }

    /** The smallest delay this model produces. */
    public long min() {
        return min;
    }

    /** The largest delay this model produces. */
    public long max() {
        return max;
    }

    /** One delay; draws from {@code random} only when the range has more than one value. */
    long draw(SplittableRandom random) {
        return min == max ? min : min + random.nextLong(max - min + 1);
    }

    /** Java code that rebuilds this model, as used in replay lines. */
    @Override
    public String toString() {
        if (min == 1 && max == 1) {
            return "DelayModel.unit()";
        }
        return min == max ? "DelayModel.fixed(" + min + ")" : "DelayModel.uniform(" + min + ", " + max + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DelayModel d && d.min == min && d.max == max;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(min) * 31 + Long.hashCode(max);
    }
}
