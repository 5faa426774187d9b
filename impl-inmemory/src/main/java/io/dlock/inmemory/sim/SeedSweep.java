package io.dlock.inmemory.sim;

import java.util.List;

/**
 * The outcome of running one configuration over consecutive seeds ({@link Simulations#runSeeds}):
 * the results of the seeds run, in seed order, ending at the first seed that failed, if any.
 *
 * @param fromSeed  the first seed
 * @param requested how many seeds were asked for
 * @param results   the results of the seeds actually run (all of them if none failed)
 * @param failure   the result of the first failing seed, or {@code null}
 * @param problem   what the check said about {@code failure}, or {@code null}
 */
public record SeedSweep(long fromSeed, int requested, List<SimulationResult> results, SimulationResult failure,
                        String problem) {

    /** Copies the list. */
    public SeedSweep {
        results = List.copyOf(results);
    }

    /** Whether every seed passed. */
    public boolean passed() {
        return failure == null;
    }

    /** Number of seeds run. */
    public int seedsRun() {
        return results.size();
    }

    /** Sum of the entries of every run. */
    public long totalEntries() {
        return results.stream().mapToLong(SimulationResult::entries).sum();
    }

    /** Sum of the network messages of every run. */
    public long totalMessages() {
        return results.stream().mapToLong(SimulationResult::messages).sum();
    }

    /**
     * For assertion messages: the failing seed's {@link SimulationResult#describeFailure()} (first line
     * {@code failed on seed N; replay: ...}) followed by the check's complaint, or a one-line summary if
     * every seed passed.
     */
    public String describeFailure() {
        if (failure == null) {
            return "all " + results.size() + " seeds from " + fromSeed + " passed";
        }
        return failure.describeFailure() + "\n  check: " + problem;
    }
}
