package io.dlock;

import java.time.Duration;
import java.util.Optional;

/**
 * Leader election for one group: every live member of the cluster agrees on one leader per epoch,
 * the live member with the highest id. Obtain one from {@link LockService#election(String)}; the
 * algorithm (bully, ring, LeLann, Chang-Roberts, Franklin, Peterson, or the message-free
 * {@code view}) is chosen by {@code dlock.election}. Every method is thread-safe.
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

    /**
     * Starts a new election in this group now, as if this node had noticed that the leader is gone
     * (docs/algorithms.md's {@code startElection()}); the other members take part when its messages reach
     * them. Returns at once; {@link #leader()} is empty until the election ends, and listeners hear
     * of it only if the leader changes (every algorithm elects the live member with the highest id,
     * so in a stable membership the leader stays the same). Elections also start by themselves when
     * the membership loses the leader, when a member with a higher id joins, and when this node
     * joins a group in which it knows no leader. The {@code view} election has nothing to run: there
     * this method does nothing.
     */
    void start();
}
