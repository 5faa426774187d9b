package io.dlock.runtime;

import io.dlock.LeaderChange;
import io.dlock.LeaderElection;
import io.dlock.LeaderListener;
import io.dlock.spi.NodeId;
import io.dlock.spi.View;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code view} election: the leader is the highest id of the current membership view and the
 * epoch is the view's. It sends nothing; the transport's membership protocol already makes every
 * member install the same views in the same order, so every member derives the same leader per epoch.
 *
 * <p>Listeners are called on the node's single event-notification thread, so changes reach each
 * listener once and in epoch order, and never while this object's lock is held.
 */
final class ViewLeaderElection implements LeaderElection {

    private static final Logger LOG = LoggerFactory.getLogger(ViewLeaderElection.class);

    private final String group;
    private final NodeId self;
    private final Executor notifier;
    private final List<Registration> listeners = new CopyOnWriteArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition leaderKnown = lock.newCondition();
    private NodeId leader;
    private long epoch = -1;

    ViewLeaderElection(String group, NodeId self, Executor notifier, View initial) {
        this.group = group;
        this.self = self;
        this.notifier = notifier;
        onView(initial);
    }

    void onView(View view) {
        LeaderChange change = null;
        lock.lock();
        try {
            if (view.epoch() <= epoch) {
                return;
            }
            NodeId previous = leader;
            leader = view.highest();
            epoch = view.epoch();
            leaderKnown.signalAll();
            if (!leader.equals(previous)) {
                change = new LeaderChange(group, leader, Optional.ofNullable(previous), epoch, self);
            }
        } finally {
            lock.unlock();
        }
        if (change != null) {
            LeaderChange c = change;
            notifier.execute(() -> listeners.forEach(r -> r.tell(c)));
        }
    }

    @Override
    public String group() {
        return group;
    }

    @Override
    public Optional<NodeId> leader() {
        lock.lock();
        try {
            return Optional.ofNullable(leader);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isLeader() {
        return leader().map(self::equals).orElse(false);
    }

    @Override
    public Optional<NodeId> awaitLeader(Duration timeout) throws InterruptedException {
        long remaining = timeout.toNanos();
        lock.lock();
        try {
            while (leader == null) {
                if (remaining <= 0) {
                    return Optional.empty();
                }
                remaining = leaderKnown.awaitNanos(remaining);
            }
            return Optional.of(leader);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void addListener(LeaderListener listener) {
        // Registration and the catch-up call both go through the notifier, so the new listener sees
        // the current leader first and every later change after it, in order.
        notifier.execute(() -> {
            Registration registration = new Registration(listener);
            listeners.add(registration);
            LeaderChange current;
            lock.lock();
            try {
                current = leader == null ? null : new LeaderChange(group, leader, Optional.empty(), epoch, self);
            } finally {
                lock.unlock();
            }
            if (current != null) {
                registration.tell(current);
            }
        });
    }

    @Override
    public void removeListener(LeaderListener listener) {
        listeners.removeIf(r -> r.listener == listener);
    }

    /** A listener and the last epoch it was told, so that no change reaches it twice. Notifier-confined. */
    private final class Registration {
        private final LeaderListener listener;
        private long toldEpoch = -1;

        Registration(LeaderListener listener) {
            this.listener = listener;
        }

        void tell(LeaderChange change) {
            if (change.epoch() <= toldEpoch || !listeners.contains(this)) {
                return;
            }
            toldEpoch = change.epoch();
            try {
                listener.onLeaderChange(change);
            } catch (RuntimeException e) {
                LOG.warn("leader listener {} of group '{}' threw on {}", listener, group, change, e);
            }
        }
    }

}
