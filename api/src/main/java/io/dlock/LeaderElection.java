package io.dlock;

import io.dlock.spi.NodeId;
import java.time.Duration;
import java.util.Optional;

/**
 * Leader election for one group: every live member of the cluster agrees on one leader per epoch.
 * Obtain one from {@link LockService#election(String)}; the algorithm is chosen by
 * {@code dlock.election}.
 */
public interface LeaderElection {

    /** The group's name. */
    String group();

    /** The current leader, or empty while no leader is known (an election is running). */
    Optional<NodeId> leader();

    /** Whether this node is the current leader. */
    boolean isLeader();

    /**
     * Waits until a leader is known.
     *
     * @return the leader, or empty if none was known within {@code timeout}
     * @throws InterruptedException if the calling thread is interrupted while waiting
     */
    Optional<NodeId> awaitLeader(Duration timeout) throws InterruptedException;

    /**
     * Adds a listener. If a leader is already known, the listener is told at once (on a library
     * thread) with {@code previous} empty.
     */
    void addListener(LeaderListener listener);

    /** Removes a listener; it is not called after this method returns. */
    void removeListener(LeaderListener listener);
}
