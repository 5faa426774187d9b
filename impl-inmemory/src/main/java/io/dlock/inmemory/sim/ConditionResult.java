package io.dlock.inmemory.sim;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a {@link ConditionSimulation} run gave: the lock's own {@link SimulationResult}, the condition
 * checks' violations, and the buffer's and the conditions' counts.
 *
 * @param lock       the mutual-exclusion run underneath (ME1, fences, grants, messages of both kinds)
 * @param violations the condition checks' findings, in order (empty if none)
 * @param produced   items put
 * @param consumed   items taken
 * @param awaits     awaits begun
 * @param signals    signals (or signalAlls) made
 * @param wakeUps    waiters woken (by a signal or a view change)
 * @param giveUps    timed awaits that gave up
 * @param messages   condition messages sent, by type (Await, Registered, Signal, Wake, Cancel, Declined), in the
 *                   order of the types' names, so that a printed result is the same in every JVM
 * @param replay     one line of Java that repeats the run
 */
public record ConditionResult(SimulationResult lock, List<String> violations, long produced, long consumed,
                              long awaits, long signals, long wakeUps, long giveUps, Map<String, Long> messages,
                              String replay) {

    public ConditionResult {
        violations = List.copyOf(violations);
        messages = Collections.unmodifiableMap(new TreeMap<>(messages));
    }

    /** The run's seed. */
    public long seed() {
        return lock.seed();
    }

    /**
     * The first problem, or null: a protocol exception, two holders, a fence or grant violation, a run that
     * did not end (only a failure without faults, where every client must finish), a request of a live node
     * never granted, then the condition violations.
     */
    public String problem() {
        SimulationResult r = lock;
        if (r.error() != null) {
            return "protocol exception: " + r.error();
        }
        if (r.safetyViolations() + r.fenceViolations() + r.grantViolations() + r.codecErrors() != 0) {
            return "lock check failed: " + r.firstViolation();
        }
        if (r.truncated() && violations.isEmpty() && r.faultsInjected() == 0) {
            return "run did not end";
        }
        if (r.ungranted() != 0 && !r.truncated()) {
            return r.ungranted() + " request(s) of live nodes never granted";
        }
        return violations.isEmpty() ? null : violations.get(0) + (violations.size() > 1
                ? " (and " + (violations.size() - 1) + " more: " + violations.subList(1, violations.size()) + ")" : "");
    }

    /** Whether every check passed. */
    public boolean ok() {
        return problem() == null;
    }

    /** The first problem with the seed and the replay line, for a test's failure message. */
    public String describeFailure() {
        String problem = problem();
        return problem == null ? "condition simulation passed on seed " + seed()
                : "condition simulation failed on seed " + seed() + ": " + problem + "; replay: " + replay;
    }
}
