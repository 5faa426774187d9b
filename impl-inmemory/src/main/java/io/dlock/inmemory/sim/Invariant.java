package io.dlock.inmemory.sim;

/**
 * A safety property of the one lock a {@link Simulation} runs, checked at every grant, just before
 * the grant takes effect: the checker's own properties (one holder at a time, increasing fencing
 * tokens, a grant answers an outstanding request) are invariants, and a test adds its own with
 * {@link Simulation#check(Invariant)}. An invariant keeps no state of its own (one instance serves
 * every run of a template); what it needs of the run's history is in the {@link LockState}.
 *
 * <p>Every violation is counted and the first one of a run, of any invariant, becomes
 * {@link SimulationResult#firstViolation()} with its virtual time and the event being processed.
 */
@FunctionalInterface
public interface Invariant {

    /**
     * Checks the grant of {@code fence} to {@code node}.
     *
     * @param lock  the lock as it stood just before this grant
     * @param node  the index of the node granted
     * @param fence the fencing token it was granted with
     * @return null if the property holds, else a one-line description of the violation naming the
     *         nodes and values involved (the checker adds the time and the event)
     */
    String check(LockState lock, int node, long fence);
}
