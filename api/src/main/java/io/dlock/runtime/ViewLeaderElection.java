package io.dlock.runtime;

import io.dlock.LeaderElection;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.concurrent.Executor;

/**
 * The {@code view} election: the leader is the highest id of the current membership view and the
 * epoch is the view's. It sends nothing; the transport's membership protocol already makes every
 * member install the same views in the same order, so every member derives the same leader per epoch.
 * A view that is not primary (the majority rule) has no leader.
 * Listeners as in {@link LeaderListeners}.
 */
final class ViewLeaderElection extends AbstractLeaderElection implements GroupElection {

    ViewLeaderElection(String group, NodeId self, Executor notifier, View initial, boolean primary) {
        super(group, new LeaderListeners(group, self, notifier));
        onView(initial, primary);
    }

    /** A primary view elects its highest member; a non-primary view has no leader. */
    @Override
    public void onView(View view, boolean primary) {
        if (primary) {
            listeners.elected(view.highest(), view.epoch(), view.members());
        } else {
            listeners.electionRunning();
        }
    }

    @Override
    public void deliver(NodeId from, long epoch, byte[] bytes, int offset) {
        // Never called: the runtime drops election messages for the view election as foreign.
    }

    @Override
    public void close() {
    }

    @Override
    public LeaderElection facade() {
        return this;
    }

    /** Nothing to run: the view decides. */
    @Override
    public void start() {
    }

    @Override
    public String toString() {
        return "LeaderElection[view, group '" + group() + "']";
    }
}
