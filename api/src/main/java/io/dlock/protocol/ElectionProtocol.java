package io.dlock.protocol;

import io.dlock.NodeId;

/**
 * One node's half of a leader-election algorithm for one election group and one epoch: a pure,
 * deterministic state machine like {@link MutexProtocol}. It reacts to the events below, one at a
 * time, and answers only through the {@link ElectionEffects} of its {@link ElectionContext}.
 *
 * <p>An instance lives for one run of the election over one fixed member set and ring (docs/algorithms.md
 * part B assumes a static ring): the driver creates a fresh instance for every epoch and for every
 * new run that {@link io.dlock.LeaderElection#start()} asks for, and drops messages of older runs.
 * So there is no {@code onView}: a view change is a new instance.
 *
 * @param <M> the algorithm's message type
 */
public interface ElectionProtocol<M extends ProtocolMessage> {

    /**
     * This node initiates the election (docs/algorithms.md's {@code startElection()}): it noticed that the
     * leader is gone, it joined a group without a leader, or the application asked. May be called
     * after messages of the same run have already woken the node, or more than once; algorithms
     * whose rules say "if not started" ignore the later calls.
     */
    void onStart();

    /** A message of the same run from {@code from} (for ring algorithms, a ring neighbour). */
    void onMessage(NodeId from, M message);

    /** The timer {@code name} set through {@link ElectionEffects#setTimer} has fired. */
    default void onTimer(String name) {
    }
}
