package io.dlock.runtime;

import io.dlock.TimeDistribution;

/**
 * Records durations into a {@link TimeDistribution}'s fixed buckets: a count, a sum, a maximum and one
 * counter per bucket, plain fields. Not thread-safe: its owner records and reads under a lock it holds
 * anyway ({@link LocalLockState}'s mutex), so recording costs no atomic operation.
 *
 * <p><b>Memory.</b> Every live lock has two recorders on every node that uses it, so they keep only the buckets
 * between the lowest and the highest one used so far ({@code counts[i]} is bucket {@code first + i}): nothing before
 * the first duration, one counter after it, and usually a handful (the durations of one lock seldom span more
 * than a few doublings), rather than all {@value TimeDistribution#BUCKETS}.
 */
final class TimeRecorder {

    private static final long[] NONE = new long[0];

    private long count;
    private long totalNanos;
    private long maxNanos;
    /** The bucket {@code counts[0]} counts; meaningless while {@code counts} is empty. */
    private int first;
    private long[] counts = NONE;

    /** Records one duration; a negative one (a clock that went backwards) counts as 0. */
    void record(long nanos) {
        long d = Math.max(0, nanos);
        count++;
        totalNanos += d;
        if (d > maxNanos) {
            maxNanos = d;
        }
        int bucket = TimeDistribution.bucketOf(d);
        int i = bucket - first;
        if (i < 0 || i >= counts.length) {
            i = cover(bucket);
        }
        counts[i]++;
    }

    /** Widens {@code counts} to cover {@code bucket}; the index of {@code bucket} in it. */
    private int cover(int bucket) {
        if (counts.length == 0) {
            counts = new long[1];
            first = bucket;
            return 0;
        }
        int from = Math.min(first, bucket);
        int to = Math.max(first + counts.length, bucket + 1);
        long[] wider = new long[to - from];
        System.arraycopy(counts, 0, wider, first - from, counts.length);
        counts = wider;
        first = from;
        return bucket - first;
    }

    /** What was recorded so far. */
    TimeDistribution snapshot() {
        long[] buckets = new long[TimeDistribution.BUCKETS];
        System.arraycopy(counts, 0, buckets, first, counts.length);
        return TimeDistribution.of(count, totalNanos, maxNanos, buckets);
    }
}
