package io.dlock.protocol;

import io.dlock.NodeId;

/**
 * The only way a {@link MutexProtocol} acts on the world. Calls are recorded by the driver (the
 * runtime or the simulator) and carried out after the handler returns, in call order.
 *
 * <p>Obligations of the driver: sending never blocks and never throws; a message to a node that is
 * gone is silently lost; timers fire as {@link MutexProtocol#onTimer} events on the same serial
 * event loop as every other event, never concurrently with a handler.
 *
 * @param <M> the algorithm's message type
 */
public interface MutexEffects<M extends ProtocolMessage> {

    /**
     * Sends {@code message} to {@code to}. A message to the node itself is delivered like any other
     * but is not counted as network traffic (docs/algorithms.md 0.2); algorithms normally handle their own
     * part locally instead.
     */
    void send(NodeId to, M message);

    /**
     * Sends {@code message} to every other member of the view the protocol last saw, in ascending id
     * order (docs/algorithms.md 0.3). Counts as N-1 messages.
     */
    void broadcast(M message);

    /**
     * The local request is granted: this node may enter the critical section. Called exactly once
     * per {@link MutexProtocol#onRequest}, with a fencing token greater than every token granted for
     * this lock before, anywhere in the cluster.
     */
    void granted(long fencingToken);

    /** Starts (or restarts) the timer {@code name}, to fire after {@code delayMillis} milliseconds. */
    void setTimer(String name, long delayMillis);

    /** Cancels the timer {@code name} if it is running. */
    void cancelTimer(String name);
}
