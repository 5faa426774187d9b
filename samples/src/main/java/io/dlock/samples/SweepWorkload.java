package io.dlock.samples;

import io.dlock.inmemory.sim.Workload;

/**
 * The {@code --workload} of {@code dlock sweep}: how long each simulated node thinks before a request and holds the
 * lock, in the simulator's time units (a message takes 1 to 10). Each shape keeps the number of entries; the names
 * are docs/performance.md's columns.
 */
enum SweepWorkload {
    /** Think 0-20, hold 0-5: the simulator's own default, and every sweep's before the option existed. */
    DEFAULT("think 0-20, hold 0-5"),
    /** Think 0-20N, hold 0-5: requests overlap less as N grows. */
    MODERATE("think 0-20N, hold 0-5"),
    /** Think 0-6250N, hold 0-5: requests far apart, so they rarely overlap. */
    LIGHT("think 0-6250N, hold 0-5"),
    /** Think 0, hold 1-5: every node asks again as soon as it leaves. */
    HEAVY("think 0, hold 1-5");

    /** The think and hold times, as the help and the output print them. */
    final String times;

    SweepWorkload(String times) {
        this.times = times;
    }

    /** {@code base} (its entries) with this shape's think and hold times for N = {@code nodes}. */
    Workload shape(Workload base, int nodes) {
        switch (this) {
            case MODERATE:
                return base.think(0, 20L * nodes);
            case LIGHT:
                return base.think(0, 50_000L * nodes / 8);
            case HEAVY:
                return base.think(0, 0).hold(1, 5);
            default:
                return base;
        }
    }

    @Override
    public String toString() {
        return ChoiceConverter.nameOf(this);
    }

    /** Converts {@code default}, {@code moderate}, {@code light} or {@code heavy}. */
    static final class Converter extends ChoiceConverter<SweepWorkload> {
        /** The converter picocli instantiates. */
        Converter() {
            super("a workload", byName(SweepWorkload.class));
        }
    }
}
