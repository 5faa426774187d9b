package io.dlock.inmemory.sim;

/**
 * A node is granted only while it has a request outstanding, and at most once per request
 * ({@link SimulationResult#grantViolations()}).
 */
final class GrantAnswersRequest implements Invariant {

    @Override
    public String check(LockState lock, int node, long fence) {
        if (lock.requested(node) && !lock.granted(node)) {
            return null;
        }
        return "grant to n" + node + (lock.requested(node) ? " granted twice for one request"
                : " without an outstanding request") + " (fence " + fence + ")";
    }
}
