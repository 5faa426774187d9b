package io.dlock;

/**
 * Counters of one lock (or, from {@link LockService#metrics()}, of all locks of a node) since start.
 * Messages to the node itself are not counted, as in SPEC.md 0.4.
 *
 * @param algorithm        the mutual-exclusion algorithm's configuration name
 * @param entries          critical-section entries granted on this node
 * @param messagesSent     protocol messages this node sent
 * @param bytesSent        bytes of those messages, envelope included
 * @param messagesReceived protocol messages this node received and accepted
 * @param malformedDropped messages that could not be decoded or belonged to another algorithm
 * @param staleDropped     messages of an older epoch, dropped unread
 * @param localHandoffs    entries by a local hand-off ({@code dlock.lock.local-handoff}): a thread of this node
 *                         took over a held grant from another of its threads; not counted in {@code entries},
 *                         which counts the cluster's grants
 */
public record LockMetrics(String algorithm, long entries, long messagesSent, long bytesSent, long messagesReceived,
                          long malformedDropped, long staleDropped, long localHandoffs) {

    /**
     * Messages this node sent per entry it was granted. Cluster-wide, the sum of
     * {@code messagesSent} over all nodes divided by the sum of {@code entries} is the
     * algorithm's messages per critical-section entry.
     */
    public double messagesPerEntry() {
        return entries == 0 ? 0.0 : (double) messagesSent / entries;
    }

    /** The element-wise sum of two counters of the same algorithm. */
    public LockMetrics plus(LockMetrics other) {
        return new LockMetrics(algorithm, entries + other.entries, messagesSent + other.messagesSent,
                bytesSent + other.bytesSent, messagesReceived + other.messagesReceived,
                malformedDropped + other.malformedDropped, staleDropped + other.staleDropped,
                localHandoffs + other.localHandoffs);
    }
}
