package io.dlock.protocol;

import io.dlock.NodeId;
import java.util.List;

/**
 * The only way an {@link ElectionProtocol} acts on the world. Calls are carried out by the driver
 * (the runtime or the simulator) in call order, with the obligations of {@link MutexEffects}: sending
 * never blocks or throws, a message to a node that is gone is lost (but counted as sent, docs/algorithms.md
 * 0.1), and timers fire as {@link ElectionProtocol#onTimer} events on the same serial loop.
 *
 * @param <M> the algorithm's message type
 */
public interface ElectionEffects<M extends ProtocolMessage> {

    /**
     * Sends {@code message} to {@code to}. Ring algorithms send only to their ring neighbours; a
     * message a ring algorithm sends to itself (n = 1) is delivered and counted like any other
     * (docs/algorithms.md 0.2).
     */
    void send(NodeId to, M message);

    /** Starts (or restarts) the timer {@code name}, to fire after {@code delayMillis} milliseconds. */
    void setTimer(String name, long delayMillis);

    /** Cancels the timer {@code name} if it is running. */
    void cancelTimer(String name);

    /**
     * This node now knows the leader of the current run (docs/algorithms.md's {@code declareLeader} /
     * {@code learnLeader}). Every algorithm here elects the live member with the highest id.
     * Called once per run; a repeated call with the same leader is harmless.
     */
    void leaderElected(NodeId leader);

    /**
     * As {@link #leaderElected(NodeId)}, from an algorithm that also learned the live members of
     * the run (the ring election's COORDINATOR carries them, docs/algorithms.md B2): {@code members}
     * in ascending id order, {@code leader} among them. The driver passes them on to the leader
     * change ({@link io.dlock.LeaderChange#members()}). The default ignores them.
     */
    default void leaderElected(NodeId leader, List<NodeId> members) {
        leaderElected(leader);
    }
}
