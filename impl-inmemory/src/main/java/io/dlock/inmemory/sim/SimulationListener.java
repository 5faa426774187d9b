package io.dlock.inmemory.sim;

import io.dlock.protocol.ProtocolMessage;
import io.dlock.NodeId;

/**
 * Observes one simulated run event by event: what {@code dlock trace} prints. Handed to
 * {@link Simulation#run(SimulationListener)}; every method has an empty default, so a listener
 * overrides what it needs.
 *
 * <p>Obligations: a listener only looks. It is called on the engine's single thread, in the order
 * the engine processes events, and must not call back into the simulation; it changes nothing in the
 * run (the same seed gives the same trace hash with or without a listener), so it may keep state of
 * its own but must not draw from the run's random sources (it has none) or block.
 *
 * <p>Messages: each network message (one per destination of a broadcast) gets an id, 1, 2, 3, ... in
 * send order; {@link #sent} is called once per id, so the number of {@code sent} calls equals
 * {@link SimulationResult#messages()}. {@link #delivered} is called when the message reaches a live
 * node of the same epoch (a network duplicate is delivered twice under one id); a message dropped by
 * a fault, lost to a crash or a view change, or still in flight when the run ends is never delivered.
 * Self-messages are not network messages (docs/algorithms.md 0.2): they are delivered with id 0 and never sent.
 */
public interface SimulationListener {

    /** Node {@code from} sent network message {@code id} to {@code to} at virtual time {@code time}. */
    default void sent(long time, long id, NodeId from, NodeId to, ProtocolMessage message) {
    }

    /** Message {@code id} (0 for a self-message) sent by {@code from} was handed to {@code to}'s protocol. */
    default void delivered(long time, long id, NodeId from, NodeId to, ProtocolMessage message) {
    }

    /** The workload of {@code node} asked for the critical section. */
    default void requested(long time, NodeId node) {
    }

    /**
     * The protocol of {@code node} granted the critical section with fencing token {@code fence};
     * {@code counted} is false for a grant the checker refused (no outstanding request, or a second
     * grant for one request).
     */
    default void granted(long time, NodeId node, long fence, boolean counted) {
    }

    /** The workload of {@code node} left the critical section. */
    default void released(long time, NodeId node) {
    }

    /** Timer {@code name} of {@code node} fired (a cancelled or replaced timer does not). */
    default void timer(long time, NodeId node, String name) {
    }
}
