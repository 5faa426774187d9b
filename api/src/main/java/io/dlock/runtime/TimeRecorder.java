package io.dlock.runtime;

import io.dlock.TimeDistribution;

/**
 * Records durations into a {@link TimeDistribution}'s fixed buckets: a count, a sum, a maximum and one
 * counter per bucket, plain fields. Not thread-safe: its owner records and reads under a lock it holds
 * anyway ({@link LocalLockState}'s mutex), so recording costs no atomic operation.
 *
 * <p><b>Memory.</b> Every live lock has two recorders on every node that uses it, so they keep only the buckets
 * between the lowest and the highest one used so far ({@code counts[i]} is bucket {@code first + i}): no array while
 * every duration fell in one bucket (that bucket's count is the count), and then usually a handful of counters (the
 * durations of one lock seldom span more than a few doublings), rather than all {@value TimeDistribution#BUCKETS}.
 */
final class TimeRecorder {

    private static final long[] NONE = new long[0];

    private long count;
    private long totalNanos;
    private long maxNanos;
    /** The bucket {@code counts[0]} counts, or the one bucket of every duration while {@code counts} is empty. */
    private int first;
    /** Empty while every duration (if any) fell in bucket {@code first}. */
    private long[] counts = NONE;

    /** Records one duration; a negative one (a clock that went backwards) counts as 0. */
    void record(long nanos) {
        long d = Math.max(0, nanos);
        int bucket = TimeDistribution.bucketOf(d);
        if (counts.length == 0 && (count == 0 || bucket == first)) {
            first = bucket; // still one bucket: its count is the count
            tally(d);
            return;
        }
        tally(d);
        int i = bucket - first;
        if (i < 0 || i >= counts.length) {
            i = cover(bucket);
        }
        counts[i]++;
    }

    private void tally(long d) {
        count++;
        totalNanos += d;
        if (d > maxNanos) {
            maxNanos = d;
        }
    }

    /** Widens {@code counts} to cover {@code bucket}; the index of {@code bucket} in it. */
    private int cover(int bucket) {
        if (counts.length == 0) {
            counts = new long[] {count - 1}; // the durations before this one, all in bucket first
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
        if (counts.length == 0) {
            if (count > 0) {
                buckets[first] = count;
            }
        } else {
            System.arraycopy(counts, 0, buckets, first, counts.length);
        }
        return TimeDistribution.of(count, totalNanos, maxNanos, buckets);
    }
}
