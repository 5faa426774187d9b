package io.dlock.runtime;

import io.dlock.LeaderElection;
import io.dlock.LeaderListener;
import io.dlock.NodeId;
import java.time.Duration;
import java.util.Optional;

/**
 * The part of {@link LeaderElection} that every election group answers the same way, whatever decides
 * its leaders: the group's name, the current leader, waiting for one and the listeners, all from its
 * {@link LeaderListeners}. Subclasses decide the leaders (they tell {@link #listeners}) and what
 * {@link #start()} does. Thread-safe as {@link LeaderListeners} is.
 */
abstract class AbstractLeaderElection implements LeaderElection {

    /** The group's leader state; subclasses report elections and running elections to it. */
    final LeaderListeners listeners;
    private final String group;

    AbstractLeaderElection(String group, LeaderListeners listeners) {
        this.group = group;
        this.listeners = listeners;
    }

    @Override
    public final String group() {
        return group;
    }

    @Override
    public final Optional<NodeId> leader() {
        return listeners.leader();
    }

    @Override
    public final boolean isLeader() {
        return listeners.isLeader();
    }

    @Override
    public final Optional<NodeId> awaitLeader(Duration timeout) throws InterruptedException {
        return listeners.awaitLeader(timeout);
    }

    @Override
    public final void addListener(LeaderListener listener) {
        listeners.addListener(listener);
    }

    @Override
    public final void removeListener(LeaderListener listener) {
        listeners.removeListener(listener);
    }
}
