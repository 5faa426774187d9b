package io.dlock.runtime;

import io.dlock.NodeMetrics;
import io.dlock.membership.PrimaryComponent;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The node's current view and the majority rule's verdict on it ({@link PrimaryComponent}), with the view
 * counters of {@link NodeMetrics}. Views come from the transport's thread, one at a time; anybody reads them.
 * Thread-safe: the view and its verdict change together under the rule's monitor, and are read together
 * through {@link #current()}.
 */
final class NodeMembership {

    /** The majority rule; guarded by itself. */
    private final PrimaryComponent primaryComponent;
    private volatile View view;
    /** Whether {@link #view} is primary ({@link PrimaryComponent}); written with it under primaryComponent. */
    private volatile boolean primary;
    /** Views installed after the first; guarded by primaryComponent. */
    private long viewChanges;
    /** Time in non-primary views before the current one; guarded by primaryComponent. */
    private long nonPrimaryNanos;
    /** When the current view was installed ({@link System#nanoTime()}); guarded by primaryComponent. */
    private long viewSince;

    /** A view and whether it is primary. */
    record ViewState(View view, boolean primary) {
    }

    /** A newly installed view: whether it is primary, why not if it is not, and the quorum rule in it. */
    record Installed(boolean primary, String whyNotPrimary, Predicate<Set<NodeId>> quorum) {
    }

    /** A failed wait for a primary view: the last view seen and why it is not primary. */
    record NotPrimary(View last, String why) {
    }

    /** @param clusterSize {@code dlock.cluster.size}; without it the first view is primary */
    NodeMembership(OptionalInt clusterSize) {
        this.primaryComponent = clusterSize.isPresent() ? new PrimaryComponent(clusterSize.getAsInt())
                : new PrimaryComponent();
    }

    /**
     * Installs {@code newView} if it is newer than the current one.
     *
     * @return the verdict on it, or null if it is not newer (ignored)
     */
    Installed install(View newView) {
        synchronized (primaryComponent) {
            View old = view;
            if (old != null && newView.epoch() <= old.epoch()) {
                return null;
            }
            boolean isPrimary = primaryComponent.accept(newView);
            long now = System.nanoTime();
            if (old != null) {
                viewChanges++;
                if (!primary) {
                    nonPrimaryNanos += now - viewSince;
                }
            }
            viewSince = now;
            primary = isPrimary;
            view = newView;
            primaryComponent.notifyAll(); // a start waiting for a primary view
            return new Installed(isPrimary, primaryComponent.whyNotPrimary(), primaryComponent.quorumRule());
        }
    }

    /**
     * Waits until the view is primary, at most {@code timeout} (an interrupt ends the wait and stays set).
     *
     * @return null once primary, else the last view and why it is not primary
     */
    NotPrimary awaitPrimary(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (primaryComponent) {
            try {
                while (!primary && System.nanoTime() - deadline < 0) {
                    primaryComponent.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return primary ? null : new NotPrimary(view, primaryComponent.whyNotPrimary());
        }
    }

    /** A member announced its clean leave: the majority rule stops counting it once a view drops it. */
    void departing(NodeId member) {
        synchronized (primaryComponent) {
            primaryComponent.departing(member);
        }
    }

    /** The current view and its verdict, read together. */
    ViewState current() {
        synchronized (primaryComponent) {
            return new ViewState(view, primary);
        }
    }

    /** The current view; null before the first. */
    View view() {
        return view;
    }

    boolean isPrimary() {
        return primary;
    }

    /** {@code dlock.cluster.size}, or 0 if not set. */
    int clusterSize() {
        return primaryComponent.clusterSize();
    }

    /** The node's membership figures, with {@code liveLocks} lock names that have state here now. */
    NodeMetrics nodeMetrics(long liveLocks) {
        synchronized (primaryComponent) {
            long current = primary ? 0 : System.nanoTime() - viewSince;
            return NodeMetrics.of(view.epoch(), primary, viewChanges, nonPrimaryNanos + current, liveLocks);
        }
    }
}
