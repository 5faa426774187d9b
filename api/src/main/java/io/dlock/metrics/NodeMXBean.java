package io.dlock.metrics;

/**
 * One node's membership metrics, as a JMX MXBean: the {@link io.dlock.NodeMetrics} of
 * {@link io.dlock.LockService#nodeMetrics()}, read afresh for every attribute. Registered as
 * {@code io.dlock:type=Node,cluster=<cluster>,node=<node id>} when {@code dlock.metrics.jmx=true}.
 */
public interface NodeMXBean {

    /** The epoch of the current view. */
    long getEpoch();

    /** Whether the current view is primary for this node. */
    boolean isPrimary();

    /** Views installed after the first one. */
    long getViewChanges();

    /** Time spent in non-primary views up to now, in nanoseconds. */
    long getNonPrimaryNanos();
}
