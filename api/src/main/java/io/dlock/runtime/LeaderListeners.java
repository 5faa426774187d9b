package io.dlock.runtime;

import io.dlock.LeaderChange;
import io.dlock.LeaderListener;
import io.dlock.NodeId;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The part of a {@link io.dlock.LeaderElection} that every election shares, whatever decides the
 * leader: the current leader (or none while an election runs), waiting for one, and the listeners.
 *
 * <p>Listeners are called on the node's single event-notification thread, so changes reach each
 * listener once and in epoch order, and never while this object's lock is held. A change is
 * reported when the leader differs from the last leader reported, with the epoch in which it was
 * elected; a listener added while a leader is known is told at once (with {@code previous} empty).
 */
final class LeaderListeners {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderListeners.class);

    private final String group;
    private final NodeId self;
    private final Executor notifier;
    private final List<Registration> listeners = new CopyOnWriteArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition leaderKnown = lock.newCondition();
    /** The current leader; null while an election runs. Guarded by lock. */
    private NodeId leader;
    /** The epoch in which {@link #leader} (or, while null, the last leader) was elected. Guarded by lock. */
    private long epoch = -1;
    /** The last leader reported to listeners, kept while an election runs. Guarded by lock. */
    private NodeId lastReported;
    /** The members reported with {@link #lastReported} (empty if the algorithm gave none). Guarded by lock. */
    private List<NodeId> members = List.of();

    LeaderListeners(String group, NodeId self, Executor notifier) {
        this.group = group;
        this.self = self;
        this.notifier = notifier;
    }

    /**
     * {@code newLeader} was elected in {@code newEpoch}. Ignored unless {@code newEpoch} is at least
     * the epoch of the last leader; reported to the listeners if the leader changed.
     */
    void elected(NodeId newLeader, long newEpoch) {
        elected(newLeader, newEpoch, List.of());
    }

    /**
     * As {@link #elected(NodeId, long)}, with the live members the algorithm found ({@link
     * LeaderChange#members()}; empty if it does not collect them).
     */
    void elected(NodeId newLeader, long newEpoch, List<NodeId> newMembers) {
        LeaderChange change = null;
        lock.lock();
        try {
            if (newEpoch < epoch) {
                return;
            }
            leader = newLeader;
            leaderKnown.signalAll();
            if (!newLeader.equals(lastReported)) {
                members = List.copyOf(newMembers);
                change = new LeaderChange(group, newLeader, Optional.ofNullable(lastReported), newEpoch, self, members);
                lastReported = newLeader;
                epoch = newEpoch;
            }
        } finally {
            lock.unlock();
        }
        if (change != null) {
            LeaderChange c = change;
            try {
                notifier.execute(() -> listeners.forEach(r -> r.tell(c)));
            } catch (RejectedExecutionException e) {
                LOG.debug("group '{}': not telling {} to the listeners, the node is closing", group, c);
            }
        }
    }

    /** An election is running: no leader is known until the next {@link #elected}. */
    void electionRunning() {
        lock.lock();
        try {
            leader = null;
        } finally {
            lock.unlock();
        }
    }

    /** The current leader, or null while an election runs. */
    NodeId current() {
        lock.lock();
        try {
            return leader;
        } finally {
            lock.unlock();
        }
    }

    Optional<NodeId> leader() {
        return Optional.ofNullable(current());
    }

    boolean isLeader() {
        return self.equals(current());
    }

    Optional<NodeId> awaitLeader(Duration timeout) throws InterruptedException {
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

    void addListener(LeaderListener listener) {
        // Registration and the catch-up call both go through the notifier, so the new listener sees
        // the current leader first and every later change after it, in order.
        executeOrIgnore(() -> {
            Registration registration = new Registration(listener);
            listeners.add(registration);
            LeaderChange current;
            lock.lock();
            try {
                current = leader == null ? null : new LeaderChange(group, leader, Optional.empty(), epoch, self, members);
            } finally {
                lock.unlock();
            }
            if (current != null) {
                registration.tell(current);
            }
        });
    }

    private void executeOrIgnore(Runnable task) {
        try {
            notifier.execute(task);
        } catch (RejectedExecutionException e) {
            LOG.debug("group '{}': the node is closed, listener not registered", group);
        }
    }

    void removeListener(LeaderListener listener) {
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
