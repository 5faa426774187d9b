package io.dlock.runtime;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Whether a node is still open for the calls that pin or build lock state, and the close's wait for those in
 * flight: a call {@link #enter enters}, does its work and {@link #exit exits}; {@link #close} shuts the gate and
 * returns once every call that entered before has exited. So a call that races the close either completes
 * before the close tears the node down (and the teardown sees what it built), or is refused.
 *
 * <p>Entering is one increment of a shared counter and one volatile read; it never blocks. Both sides write
 * their variable before they read the other's (the counter, then {@code closed}; {@code closed}, then the
 * counter), and volatile and atomic accesses are sequentially consistent, so at least one of them sees the
 * other: a call that the close's wait missed sees the gate shut.
 */
final class ClosingGate {

    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean closed;

    /** Enters the gate; false, having changed nothing, if it is shut. A true return must be followed by {@link #exit}. */
    boolean enter() {
        inFlight.incrementAndGet();
        if (closed) {
            exit();
            return false;
        }
        return true;
    }

    void exit() {
        inFlight.decrementAndGet();
    }

    /** Whether {@link #close} has begun. */
    boolean isClosed() {
        return closed;
    }

    /**
     * Shuts the gate, then waits until every call that entered has exited (they are short: a lookup, at most the
     * creation of one lock's state). Must not be called by a thread that is inside the gate.
     */
    void close() {
        closed = true;
        while (inFlight.get() > 0) {
            Thread.yield();
        }
    }
}
