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
 * instances; the runtime makes them with the {@link #builder(String) builder}, where a new counter is one
 * more setter that starts at 0, so code that builds metrics keeps compiling too. Equality, hash code and {@link #toString()} cover every value and
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
     * The metrics of a lock with no state on this node: every counter 0, no times recorded, both gauges 0.
     *
     * @param algorithm the mutual-exclusion algorithm's configuration name
     * @return the empty metrics
     */
    public static LockMetrics empty(String algorithm) {
        return builder(algorithm).build();
    }

    /**
     * A builder with every counter and gauge at 0 and no times recorded; made by the runtime, and by tests.
     *
     * @param algorithm the mutual-exclusion algorithm's configuration name
     * @return the builder
     */
    public static Builder builder(String algorithm) {
        return new Builder(algorithm);
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

    /**
     * Collects the values of one {@link LockMetrics}; every value not set is 0 (times: none recorded). Counters and
     * gauges are never negative. Not thread-safe.
     */
    public static final class Builder {

        private final String algorithm;
        private long entries;
        private long messagesSent;
        private long bytesSent;
        private long messagesReceived;
        private long malformedDropped;
        private long staleDropped;
        private long localHandoffs;
        private TimeDistribution acquireWait = TimeDistribution.EMPTY;
        private TimeDistribution hold = TimeDistribution.EMPTY;
        private long waitingThreads;
        private long epochGrants;
        private long framesSent;

        private Builder(String algorithm) {
            this.algorithm = Objects.requireNonNull(algorithm, "algorithm");
        }

        /** {@link LockMetrics#entries()}: critical-section entries granted on this node. */
        public Builder entries(long count) {
            entries = nonNegative("entries", count);
            return this;
        }

        /** {@link LockMetrics#messagesSent()}: protocol messages this node sent. */
        public Builder messagesSent(long count) {
            messagesSent = nonNegative("messagesSent", count);
            return this;
        }

        /** {@link LockMetrics#framesSent()}: transport messages that carried those protocol messages. */
        public Builder framesSent(long count) {
            framesSent = nonNegative("framesSent", count);
            return this;
        }

        /** {@link LockMetrics#bytesSent()}: bytes of the messages sent, envelope included. */
        public Builder bytesSent(long count) {
            bytesSent = nonNegative("bytesSent", count);
            return this;
        }

        /** {@link LockMetrics#messagesReceived()}: protocol messages this node received and accepted. */
        public Builder messagesReceived(long count) {
            messagesReceived = nonNegative("messagesReceived", count);
            return this;
        }

        /** {@link LockMetrics#malformedDropped()}: messages not decodable or of another algorithm. */
        public Builder malformedDropped(long count) {
            malformedDropped = nonNegative("malformedDropped", count);
            return this;
        }

        /** {@link LockMetrics#staleDropped()}: messages of an older epoch, dropped unread. */
        public Builder staleDropped(long count) {
            staleDropped = nonNegative("staleDropped", count);
            return this;
        }

        /** {@link LockMetrics#localHandoffs()}: entries by a local hand-off ({@code dlock.lock.local-handoff}). */
        public Builder localHandoffs(long count) {
            localHandoffs = nonNegative("localHandoffs", count);
            return this;
        }

        /** {@link LockMetrics#acquireWait()}: the acquire-wait times. */
        public Builder acquireWait(TimeDistribution times) {
            acquireWait = Objects.requireNonNull(times, "acquireWait");
            return this;
        }

        /** {@link LockMetrics#hold()}: the hold times. */
        public Builder hold(TimeDistribution times) {
            hold = Objects.requireNonNull(times, "hold");
            return this;
        }

        /** {@link LockMetrics#waitingThreads()}: local threads waiting for the lock now (a gauge). */
        public Builder waitingThreads(long count) {
            waitingThreads = nonNegative("waitingThreads", count);
            return this;
        }

        /** {@link LockMetrics#epochGrants()}: grants on this node in the current view's epoch (a gauge). */
        public Builder epochGrants(long count) {
            epochGrants = nonNegative("epochGrants", count);
            return this;
        }

        /** The metrics with the values set so far. */
        public LockMetrics build() {
            return new LockMetrics(algorithm, entries, messagesSent, bytesSent, messagesReceived, malformedDropped,
                    staleDropped, localHandoffs, acquireWait, hold, waitingThreads, epochGrants, framesSent);
        }

        private static long nonNegative(String name, long value) {
            if (value < 0) {
                throw new IllegalArgumentException(name + " must be >= 0, got " + value);
            }
            return value;
        }
    }
}
