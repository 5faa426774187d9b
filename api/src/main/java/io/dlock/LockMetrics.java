package io.dlock;

import java.util.Objects;

/**
 * Counters of one lock (or, from {@link LockService#metrics()}, of all locks of a node) since start,
 * the distributions of its acquire-wait and hold times, and two gauges: the threads waiting now and the
 * grants in the current epoch. Messages to the node itself are not counted, as in docs/algorithms.md 0.4.
 *
 * <h2>What the times measure</h2>
 * {@link #acquireWait()}: for every acquisition that succeeded (reentrant ones excepted), the time from
 * the thread's call to the moment it owned the lock, local queueing and the cluster's round trips
 * included; waits that timed out or were interrupted are not recorded. {@link #hold()}: for every hold
 * that ended, the time from taking the lock to the last {@code unlock()} (or to the loss of the hold,
 * or to a condition's {@code await}, which ends a hold). Both are measured with {@link System#nanoTime()}
 * under the lock's local mutex, which the runtime takes anyway, so recording costs two clock reads and a
 * few additions per entry. {@link io.dlock.metrics.DlockMeterBinder} exports them to Micrometer, and
 * {@code dlock.metrics.jmx=true} as MBeans (see {@link io.dlock.metrics}).
 *
 * <h2>Why a final class and not a record</h2>
 * The counters grow with the runtime: {@link #localHandoffs()} was added once already, and changed
 * the record's canonical constructor. As a record, every new counter would change the constructor,
 * the record pattern {@code LockMetrics(var a, var b, ...)} and the component list that users'
 * code may depend on, so each addition would break them. As a final class with accessors, a new
 * counter is one more accessor: code that reads the existing ones keeps compiling. Users read
 * instances; the runtime makes them with {@link #of}, and when a counter is added it gets a new
 * overload while the old one stays. Equality, hash code and {@link #toString()} cover every value and
 * the algorithm, in the record's format.
 */
public final class LockMetrics {

    private final String algorithm;
    private final long entries;
    private final long messagesSent;
    private final long bytesSent;
    private final long messagesReceived;
    private final long malformedDropped;
    private final long staleDropped;
    private final long localHandoffs;
    private final TimeDistribution acquireWait;
    private final TimeDistribution hold;
    private final long waitingThreads;
    private final long epochGrants;
    private final long framesSent;

    private LockMetrics(String algorithm, long entries, long messagesSent, long bytesSent, long messagesReceived,
                        long malformedDropped, long staleDropped, long localHandoffs, TimeDistribution acquireWait,
                        TimeDistribution hold, long waitingThreads, long epochGrants, long framesSent) {
        this.algorithm = algorithm;
        this.entries = entries;
        this.messagesSent = messagesSent;
        this.bytesSent = bytesSent;
        this.messagesReceived = messagesReceived;
        this.malformedDropped = malformedDropped;
        this.staleDropped = staleDropped;
        this.localHandoffs = localHandoffs;
        this.acquireWait = Objects.requireNonNull(acquireWait, "acquireWait");
        this.hold = Objects.requireNonNull(hold, "hold");
        this.waitingThreads = waitingThreads;
        this.epochGrants = epochGrants;
        this.framesSent = framesSent;
    }

    /**
     * Counters with the given values, no times recorded and both gauges 0.
     *
     * @param algorithm        the mutual-exclusion algorithm's configuration name
     * @param entries          critical-section entries granted on this node
     * @param messagesSent     protocol messages this node sent
     * @param bytesSent        bytes of those messages, envelope included
     * @param messagesReceived protocol messages this node received and accepted
     * @param malformedDropped messages that could not be decoded or belonged to another algorithm
     * @param staleDropped     messages of an older epoch, dropped unread
     * @param localHandoffs    entries by a local hand-off ({@code dlock.lock.local-handoff})
     * @return the counters
     */
    public static LockMetrics of(String algorithm, long entries, long messagesSent, long bytesSent,
                                 long messagesReceived, long malformedDropped, long staleDropped, long localHandoffs) {
        return of(algorithm, entries, messagesSent, bytesSent, messagesReceived, malformedDropped, staleDropped,
                localHandoffs, TimeDistribution.EMPTY, TimeDistribution.EMPTY, 0, 0);
    }

    /**
     * Metrics with the given values; made by the runtime.
     *
     * @param algorithm        the mutual-exclusion algorithm's configuration name
     * @param entries          critical-section entries granted on this node
     * @param messagesSent     protocol messages this node sent
     * @param bytesSent        bytes of those messages, envelope included
     * @param messagesReceived protocol messages this node received and accepted
     * @param malformedDropped messages that could not be decoded or belonged to another algorithm
     * @param staleDropped     messages of an older epoch, dropped unread
     * @param localHandoffs    entries by a local hand-off ({@code dlock.lock.local-handoff})
     * @param acquireWait      the acquire-wait times
     * @param hold             the hold times
     * @param waitingThreads   local threads waiting for the lock now
     * @param epochGrants      grants on this node in the current view's epoch
     * @return the metrics
     */
    public static LockMetrics of(String algorithm, long entries, long messagesSent, long bytesSent,
                                 long messagesReceived, long malformedDropped, long staleDropped, long localHandoffs,
                                 TimeDistribution acquireWait, TimeDistribution hold, long waitingThreads,
                                 long epochGrants) {
        return of(algorithm, entries, messagesSent, bytesSent, messagesReceived, malformedDropped, staleDropped,
                localHandoffs, acquireWait, hold, waitingThreads, epochGrants, messagesSent);
    }

    /**
     * Metrics with the given values; made by the runtime.
     *
     * @param algorithm        the mutual-exclusion algorithm's configuration name
     * @param entries          critical-section entries granted on this node
     * @param messagesSent     protocol messages this node sent
     * @param bytesSent        bytes of those messages, envelope included
     * @param messagesReceived protocol messages this node received and accepted
     * @param malformedDropped messages that could not be decoded or belonged to another algorithm
     * @param staleDropped     messages of an older epoch, dropped unread
     * @param localHandoffs    entries by a local hand-off ({@code dlock.lock.local-handoff})
     * @param acquireWait      the acquire-wait times
     * @param hold             the hold times
     * @param waitingThreads   local threads waiting for the lock now
     * @param epochGrants      grants on this node in the current view's epoch
     * @param framesSent       transport messages that carried those protocol messages ({@link #framesSent()})
     * @return the metrics
     */
    public static LockMetrics of(String algorithm, long entries, long messagesSent, long bytesSent,
                                 long messagesReceived, long malformedDropped, long staleDropped, long localHandoffs,
                                 TimeDistribution acquireWait, TimeDistribution hold, long waitingThreads,
                                 long epochGrants, long framesSent) {
        return new LockMetrics(algorithm, entries, messagesSent, bytesSent, messagesReceived, malformedDropped,
                staleDropped, localHandoffs, acquireWait, hold, waitingThreads, epochGrants, framesSent);
    }

    /** The mutual-exclusion algorithm's configuration name. */
    public String algorithm() {
        return algorithm;
    }

    /** Critical-section entries granted on this node. */
    public long entries() {
        return entries;
    }

    /** Protocol messages this node sent. */
    public long messagesSent() {
        return messagesSent;
    }

    /**
     * Transport messages that carried this node's protocol messages. The messages one event of the lock sends to
     * the same node leave together, in one transport message (a holder that releases while local threads wait
     * sends its release and its next request at once), so this is at most {@link #messagesSent()}: the difference
     * is the sends (system calls, wake-ups of the receiver) that saved. Counted like the messages: none to the
     * node itself.
     */
    public long framesSent() {
        return framesSent;
    }

    /** Bytes of those messages, envelope included. */
    public long bytesSent() {
        return bytesSent;
    }

    /** Protocol messages this node received and accepted. */
    public long messagesReceived() {
        return messagesReceived;
    }

    /** Messages that could not be decoded or belonged to another algorithm. */
    public long malformedDropped() {
        return malformedDropped;
    }

    /** Messages of an older epoch, dropped unread. */
    public long staleDropped() {
        return staleDropped;
    }

    /**
     * Entries by a local hand-off ({@code dlock.lock.local-handoff}): a thread of this node took over a
     * held grant from another of its threads; not counted in {@link #entries()}, which counts the
     * cluster's grants.
     */
    public long localHandoffs() {
        return localHandoffs;
    }

    /** The acquire-wait times of successful acquisitions (see the class comment). */
    public TimeDistribution acquireWait() {
        return acquireWait;
    }

    /** The hold times of ended holds (see the class comment). */
    public TimeDistribution hold() {
        return hold;
    }

    /** Local threads waiting for the lock at the time of the snapshot (a gauge). */
    public long waitingThreads() {
        return waitingThreads;
    }

    /**
     * Grants on this node since it installed its current view (a gauge that starts at 0 with every view
     * change): how much work a membership epoch got done, and, across nodes, how the grants of one epoch
     * are shared.
     */
    public long epochGrants() {
        return epochGrants;
    }

    /**
     * Messages this node sent per entry it was granted. Cluster-wide, the sum of
     * {@code messagesSent} over all nodes divided by the sum of {@code entries} is the
     * algorithm's messages per critical-section entry.
     */
    public double messagesPerEntry() {
        return entries == 0 ? 0.0 : (double) messagesSent / entries;
    }

    /** The element-wise sum of two metrics of the same algorithm (distributions merged, gauges added). */
    public LockMetrics plus(LockMetrics other) {
        return new LockMetrics(algorithm, entries + other.entries, messagesSent + other.messagesSent,
                bytesSent + other.bytesSent, messagesReceived + other.messagesReceived,
                malformedDropped + other.malformedDropped, staleDropped + other.staleDropped,
                localHandoffs + other.localHandoffs, acquireWait.plus(other.acquireWait), hold.plus(other.hold),
                waitingThreads + other.waitingThreads, epochGrants + other.epochGrants, framesSent + other.framesSent);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LockMetrics m && Objects.equals(algorithm, m.algorithm) && entries == m.entries
                && messagesSent == m.messagesSent && bytesSent == m.bytesSent && messagesReceived == m.messagesReceived
                && malformedDropped == m.malformedDropped && staleDropped == m.staleDropped
                && localHandoffs == m.localHandoffs && acquireWait.equals(m.acquireWait) && hold.equals(m.hold)
                && waitingThreads == m.waitingThreads && epochGrants == m.epochGrants && framesSent == m.framesSent;
    }

    @Override
    public int hashCode() {
        return Objects.hash(algorithm, entries, messagesSent, bytesSent, messagesReceived, malformedDropped,
                staleDropped, localHandoffs, acquireWait, hold, waitingThreads, epochGrants, framesSent);
    }

    /** The record's format: {@code LockMetrics[algorithm=..., entries=..., ...]}. */
    @Override
    public String toString() {
        return "LockMetrics[algorithm=" + algorithm + ", entries=" + entries + ", messagesSent=" + messagesSent
                + ", bytesSent=" + bytesSent + ", messagesReceived=" + messagesReceived + ", malformedDropped="
                + malformedDropped + ", staleDropped=" + staleDropped + ", localHandoffs=" + localHandoffs
                + ", acquireWait=" + acquireWait + ", hold=" + hold + ", waitingThreads=" + waitingThreads
                + ", epochGrants=" + epochGrants + ", framesSent=" + framesSent + "]";
    }
}
