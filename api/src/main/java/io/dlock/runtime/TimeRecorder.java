package io.dlock.runtime;

import io.dlock.TimeDistribution;

/**
 * Records durations into a {@link TimeDistribution}'s fixed buckets: a count, a sum, a maximum and one
 * counter per bucket, plain fields. Not thread-safe: its owner records and reads under a lock it holds
 * anyway ({@link LocalLockState}'s mutex), so recording costs no atomic operation.
 */
final class TimeRecorder {

    private long count;
    private long totalNanos;
    private long maxNanos;
    private final long[] buckets = new long[TimeDistribution.BUCKETS];

    /** Records one duration; a negative one (a clock that went backwards) counts as 0. */
    void record(long nanos) {
        long d = Math.max(0, nanos);
        count++;
        totalNanos += d;
        if (d > maxNanos) {
            maxNanos = d;
        }
        buckets[TimeDistribution.bucketOf(d)]++;
    }

    /** What was recorded so far. */
    TimeDistribution snapshot() {
        return TimeDistribution.of(count, totalNanos, maxNanos, buckets);
    }
}
