package io.dlock.protocol;

import io.dlock.NodeId;
import io.dlock.spi.View;

/**
 * One node's half of a distributed mutual-exclusion algorithm for one lock: a pure, deterministic
 * state machine. It has no threads, no clock and no I/O; it reacts to the events below, one at a
 * time, and answers only through the {@link MutexEffects} it was created with. Given the same
 * events it produces the same effects, which is what lets the simulator replay a run from its seed
 * and lets both transports run the very same code.
 *
 * <p>Preconditions the driver guarantees: at most one request is outstanding ({@link #onRequest} is
 * not called again before the matching {@link #onRelease}); {@link #onRelease} is called only after
 * {@link MutexEffects#granted}; messages come from members of the current view and carry its epoch.
 *
 * @param <M> the algorithm's message type
 */
public interface MutexProtocol<M extends ProtocolMessage> {

    /**
     * The run starts. A driver that created every member idle ({@link ProtocolContext#startsIdle()}, as
     * the simulator does) calls it once on each member at time 0, before any other event, so that an
     * algorithm whose initial state must move without anyone asking (the token ring's token, the right
     * of Raynal's INFORM version) starts then, and not only when its first holder happens to act. A
     * driver that creates protocols on first use ({@code startsIdle} false) need not call it; an
     * algorithm must then do the same work at its first event. Default: nothing.
     */
    default void onStart() {
    }

    /** The local node wants the critical section. Answer later (or now) with {@link MutexEffects#granted}. */
    void onRequest();

    /**
     * The local node wants the critical section only if it can enter now, without asking anyone: what
     * {@code tryLock(0, unit)} needs. If {@link #canEnterLocally()}, this is {@link #onRequest()}, which then
     * grants before it returns and sends nothing; the entry ends with {@link #onRelease} as usual. Otherwise
     * nothing changes and nothing is sent. Same precondition as {@code onRequest}: no request outstanding.
     *
     * @return whether the node entered
     */
    default boolean tryEnterLocally() {
        if (!canEnterLocally()) {
            return false;
        }
        onRequest();
        return true;
    }

    /**
     * Whether {@link #onRequest()}, called now, would grant before it returns and send nothing: this node can
     * know that the lock is free (a token algorithm whose node holds the idle token, a coordinator whose lock
     * is free). Must not change anything. Default: false (an algorithm that cannot know without asking).
     */
    default boolean canEnterLocally() {
        return false;
    }

    /**
     * Whether this node's state for the lock may be dropped, provided that every other member is at rest
     * too at the same moment and no message of the lock is in flight (the runtime's reclamation round
     * checks both; docs/algorithms.md R1). At rest means: this node neither wants nor holds the critical
     * section, owes nothing to another node (no deferred reply, no queued request of another node, no
     * permission or vote lent out), no census, barrier or sync is running, no timer is armed, and a token or
     * right this node holds is idle. An idle token may be dropped with everything else: the next use of the
     * lock starts from nothing, and the census regenerates the token exactly once, above the fencing floor
     * the round carried ({@link ProtocolContext#fencingFloor()}). Must not change anything. Default: false,
     * so that an algorithm that does not say when it is at rest is never reclaimed.
     */
    default boolean atRest() {
        return false;
    }

    /**
     * The highest fencing token this node has issued or seen for the lock (0 before any): what a
     * reclamation round carries so that the lock's next incarnation issues only greater tokens (see
     * {@link ProtocolContext#fencingFloor()}). Default: 0, for an algorithm that is never reclaimed.
     */
    default long highestFence() {
        return 0;
    }

    /** The local node leaves the critical section. */
    void onRelease();

    /** A message from another member. */
    void onMessage(NodeId from, M message);

    /**
     * A new membership view (a new epoch). The protocol rebuilds what depends on the member set and
     * re-sends what the previous epoch may have lost: messages of the old epoch are dropped from now on.
     */
    void onView(View view);

    /**
     * The runtime's leader election elected {@code leader} in {@code epoch} (this event may come
     * before or after the view of that epoch). Only algorithms that have a coordinator use it (the
     * centralized algorithm with option {@code coordinator=leader} takes its coordinator from the configured
     * election); the others ignore it, and so does the centralized algorithm's default per-name choice. Drivers without an election (the simulator) never call it.
     */
    default void onLeader(NodeId leader, long epoch) {
    }

    /** The timer {@code name} set through {@link MutexEffects#setTimer} has fired. */
    default void onTimer(String name) {
    }
}
