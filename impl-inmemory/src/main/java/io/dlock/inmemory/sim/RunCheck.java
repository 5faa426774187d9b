package io.dlock.inmemory.sim;

import java.util.Objects;

/**
 * A test's verdict on one {@link SimulationResult}, used by {@link Simulations#runSeeds} to decide
 * whether a seed failed. Must be a pure function of the result.
 */
@FunctionalInterface
public interface RunCheck {

    /** The checker's own verdict, {@link SimulationResult#ok()}. */
    RunCheck OK = result -> result.ok() ? null : "checker found a violation";

    /** Describes what is wrong with {@code result}, or returns {@code null} if nothing is. */
    String problem(SimulationResult result);

    /** A check that fails when this one or {@code other} does (this one is asked first). */
    default RunCheck and(RunCheck other) {
        Objects.requireNonNull(other, "other");
        return result -> {
            String mine = problem(result);
            return mine != null ? mine : other.problem(result);
        };
    }
}
