package io.dlock.metrics;

/**
 * One lock's metrics on one node, as a JMX MXBean: the {@link io.dlock.LockMetrics} of
 * {@link io.dlock.DistributedLock#metrics()}, read afresh for every attribute. Registered as
 * {@code io.dlock:type=Lock,cluster=<cluster>,node=<node id>,name=<lock name>} when
 * {@code dlock.metrics.jmx=true}. Times are in nanoseconds; percentiles are the upper bounds of
 * {@link io.dlock.TimeDistribution}'s buckets.
 */
public interface LockMXBean {

    /** The mutual-exclusion algorithm's configuration name. */
    String getAlgorithm();

    /** Critical-section entries granted on this node. */
    long getEntries();

    /** Protocol messages this node sent for this lock. */
    long getMessagesSent();

    /** Transport messages that carried them (messages to one node from one event leave together). */
    long getFramesSent();

    /** Bytes of those messages. */
    long getBytesSent();

    /** Protocol messages received and accepted. */
    long getMessagesReceived();

    /** Messages dropped as malformed. */
    long getMalformedDropped();

    /** Messages of an older epoch, dropped. */
    long getStaleDropped();

    /** Entries by a local hand-off. */
    long getLocalHandoffs();

    /** Local threads waiting for the lock now. */
    long getWaitingThreads();

    /** Grants on this node in the current view's epoch. */
    long getEpochGrants();

    /** Successful acquisitions whose wait was recorded. */
    long getAcquireWaitCount();

    /** Their total wait. */
    long getAcquireWaitTotalNanos();

    /** The longest wait. */
    long getAcquireWaitMaxNanos();

    /** The median wait (bucket bound). */
    long getAcquireWaitP50Nanos();

    /** The 99th percentile of the waits (bucket bound). */
    long getAcquireWaitP99Nanos();

    /** Holds that ended. */
    long getHoldCount();

    /** Their total time. */
    long getHoldTotalNanos();

    /** The longest hold. */
    long getHoldMaxNanos();

    /** The median hold (bucket bound). */
    long getHoldP50Nanos();

    /** The 99th percentile of the holds (bucket bound). */
    long getHoldP99Nanos();
}
