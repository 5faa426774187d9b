package io.dlock.inmemory.sim;

/**
 * ME1: at most one node holds the lock at any virtual instant; a grant while another node holds it
 * (and is not fenced out) is a safety violation ({@link SimulationResult#safetyViolations()}).
 */
final class OneHolder implements Invariant {

    @Override
    public String check(LockState lock, int node, long fence) {
        int others = lock.holders() - (lock.holding(node) ? 1 : 0);
        if (others <= 0) {
            return null;
        }
        StringBuilder holders = new StringBuilder();
        for (int i = 0; i < lock.nodes(); i++) {
            if (lock.holding(i) && i != node) {
                holders.append(holders.length() == 0 ? "n" : ", n").append(i);
            }
        }
        return "ME1 violated: n" + node + " granted (fence " + fence + ") while " + holders
                + " hold" + (others > 1 ? "" : "s") + " the lock";
    }
}
