package io.dlock.inmemory.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Runs one simulation configuration over many seeds and finds the first that fails.
 *
 * <p>Seeds are run one after the other on the calling thread, in increasing order, so the first
 * failure reported is the smallest failing seed of the range; replay it with
 * {@code template.seed(failingSeed).run()} or the replay line of its result.
 */
public final class Simulations {

    private Simulations() {
    }

    /**
     * Runs {@code template} with seeds {@code fromSeed .. fromSeed + count - 1} and stops at the first
     * whose result is not {@link SimulationResult#ok()}.
     *
     * @throws IllegalArgumentException if {@code count} is negative
     */
    public static SeedSweep runSeeds(Simulation template, long fromSeed, int count) {
        return runSeeds(template, fromSeed, count, RunCheck.OK);
    }

    /**
     * Runs {@code template} with seeds {@code fromSeed .. fromSeed + count - 1} and stops at the first
     * for which {@code check} reports a problem.
     *
     * @throws IllegalArgumentException if {@code count} is negative
     */
    public static SeedSweep runSeeds(Simulation template, long fromSeed, int count, RunCheck check) {
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(check, "check");
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, got " + count);
        }
        List<SimulationResult> results = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            SimulationResult result = template.seed(fromSeed + i).run();
            results.add(result);
            String problem = check.problem(result);
            if (problem != null) {
                return new SeedSweep(fromSeed, count, results, result, problem);
            }
        }
        return new SeedSweep(fromSeed, count, results, null, null);
    }

    /**
     * Searches seeds {@code fromSeed .. fromSeed + count - 1} for the first run that {@code check}
     * rejects, for tests that must show a failure exists (such as an algorithm run without the
     * channel guarantee it needs). Returns {@code null} if every seed passed.
     */
    public static SimulationResult findFailingSeed(Simulation template, long fromSeed, int count, RunCheck check) {
        return runSeeds(template, fromSeed, count, check).failure();
    }

    /** Runs {@code template} once more with {@code seed}: the same result as the original run. */
    public static SimulationResult replay(Simulation template, long seed) {
        return template.seed(seed).run();
    }
}
