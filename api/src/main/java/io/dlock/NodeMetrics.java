package io.dlock;

/**
 * What one node's membership went through since it started (from {@link LockService#nodeMetrics()}):
 * the views it installed after its first one, and how long it spent in views that are not primary for
 * it (the majority rule: no lock is granted and no leader elected there), the current stretch included;
 * and how many lock names have live state on the node now ({@link #liveLocks()}).
 * A final class and not a record, for the reason {@link LockMetrics} gives.
 */
public final class NodeMetrics {

    private final long epoch;
    private final boolean primary;
    private final long viewChanges;
    private final long nonPrimaryNanos;
    private final long liveLocks;

    private NodeMetrics(long epoch, boolean primary, long viewChanges, long nonPrimaryNanos, long liveLocks) {
        this.epoch = epoch;
        this.primary = primary;
        this.viewChanges = viewChanges;
        this.nonPrimaryNanos = nonPrimaryNanos;
        this.liveLocks = liveLocks;
    }

    /**
     * The node's metrics with the given values; made by the runtime.
     *
     * @param epoch           the epoch of the node's current view
     * @param primary         whether the current view is primary for this node
     * @param viewChanges     views installed after the first one
     * @param nonPrimaryNanos time spent in non-primary views up to now, in nanoseconds
     * @param liveLocks       lock names with live state on this node now, in use and idle
     * @return the metrics
     */
    public static NodeMetrics of(long epoch, boolean primary, long viewChanges, long nonPrimaryNanos, long liveLocks) {
        return new NodeMetrics(epoch, primary, viewChanges, nonPrimaryNanos, liveLocks);
    }

    /** The epoch of the node's current view. */
    public long epoch() {
        return epoch;
    }

    /** Whether the current view is primary for this node. */
    public boolean primary() {
        return primary;
    }

    /** Views installed after the first one. */
    public long viewChanges() {
        return viewChanges;
    }

    /** Time spent in non-primary views up to now (the current one included), in nanoseconds. */
    public long nonPrimaryNanos() {
        return nonPrimaryNanos;
    }

    /**
     * Lock names with live state on this node now (a gauge), in use or idle: each name locked or used here since
     * it was created or last reclaimed. It falls when a reclamation round drops idle names
     * ({@code dlock.lock.idle-expiry-ms}, {@code dlock.lock.max-live}); with the idle expiry 0 it only grows.
     */
    public long liveLocks() {
        return liveLocks;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeMetrics m && epoch == m.epoch && primary == m.primary && viewChanges == m.viewChanges
                && nonPrimaryNanos == m.nonPrimaryNanos && liveLocks == m.liveLocks;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(epoch) * 31 + Boolean.hashCode(primary) * 17 + Long.hashCode(viewChanges) * 7
                + Long.hashCode(nonPrimaryNanos) * 3 + Long.hashCode(liveLocks);
    }

    /** {@code NodeMetrics[epoch=..., primary=..., viewChanges=..., nonPrimaryNanos=..., liveLocks=...]}. */
    @Override
    public String toString() {
        return "NodeMetrics[epoch=" + epoch + ", primary=" + primary + ", viewChanges=" + viewChanges
                + ", nonPrimaryNanos=" + nonPrimaryNanos + ", liveLocks=" + liveLocks + "]";
    }
}
