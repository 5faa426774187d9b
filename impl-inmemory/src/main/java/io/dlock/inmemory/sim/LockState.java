package io.dlock.inmemory.sim;

/**
 * What the checker knows of the simulated lock at a grant, for the {@link Invariant}s: who has a
 * request outstanding, who holds the lock, and the last fencing token granted. Nodes are indices
 * {@code 0..nodes()-1}. Read-only.
 */
public interface LockState {

    /** Number of nodes N. */
    int nodes();

    /** Whether {@code node} has a request outstanding (granted or not) and has not crashed. */
    boolean requested(int node);

    /** Whether {@code node}'s outstanding request has been granted already. */
    boolean granted(int node);

    /** Whether {@code node} holds the lock (and is not fenced out by a non-primary view). */
    boolean holding(int node);

    /** Number of nodes that hold the lock. */
    int holders();

    /** Whether any fencing token was granted yet in this run. */
    boolean anyFence();

    /** The largest fencing token granted so far (meaningful when {@link #anyFence()}). */
    long lastFence();

    /** The node of the latest grant, or -1 before the first. */
    int lastFenceNode();

    /** The virtual time of the latest grant. */
    long lastFenceTime();
}
