package io.dlock.inmemory.sim;

/**
 * Fencing tokens strictly increase across all grants of a run, both sides of a partition included
 * ({@link SimulationResult#fenceViolations()}).
 */
final class IncreasingFences implements Invariant {

    @Override
    public String check(LockState lock, int node, long fence) {
        if (!lock.anyFence() || fence > lock.lastFence()) {
            return null;
        }
        return "fencing token not increasing: n" + node + " granted fence " + fence + " after fence "
                + lock.lastFence() + " granted to n" + lock.lastFenceNode() + " at t=" + lock.lastFenceTime();
    }
}
