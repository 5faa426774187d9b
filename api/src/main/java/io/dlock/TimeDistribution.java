package io.dlock;

import java.util.Arrays;

/**
 * A distribution of durations (a lock's acquire-wait or hold times): how many, their total, the longest,
 * and how many fell into each of {@value #BUCKETS} fixed buckets, from which {@link #percentileNanos}
 * estimates a percentile. Bucket {@code i} counts durations below {@link #bucketBoundNanos(int)
 * bucketBoundNanos(i)} = 1 µs &times; 2<sup>i</sup> and not below the previous bound; the last bucket
 * counts everything above about 18 minutes. Immutable; the runtime makes them.
 */
public final class TimeDistribution {

    /** Number of buckets. */
    public static final int BUCKETS = 31;
    /** The empty distribution. */
    public static final TimeDistribution EMPTY = new TimeDistribution(0, 0, 0, new long[BUCKETS]);

    private final long count;
    private final long totalNanos;
    private final long maxNanos;
    private final long[] buckets;

    private TimeDistribution(long count, long totalNanos, long maxNanos, long[] buckets) {
        this.count = count;
        this.totalNanos = totalNanos;
        this.maxNanos = maxNanos;
        this.buckets = buckets;
    }

    /**
     * A distribution with the given values; made by the runtime.
     *
     * @param count      durations recorded
     * @param totalNanos their sum, in nanoseconds
     * @param maxNanos   the longest, in nanoseconds
     * @param buckets    {@value #BUCKETS} bucket counts that add up to {@code count}; copied
     * @return the distribution
     * @throws IllegalArgumentException if {@code buckets} does not have {@value #BUCKETS} counts
     */
    public static TimeDistribution of(long count, long totalNanos, long maxNanos, long[] buckets) {
        if (buckets.length != BUCKETS) {
            throw new IllegalArgumentException("a time distribution has " + BUCKETS + " buckets, got "
                    + buckets.length);
        }
        return new TimeDistribution(count, totalNanos, maxNanos, buckets.clone());
    }

    /** The bucket a duration of {@code nanos} falls into: 0 below 1 µs, then one per doubling. */
    public static int bucketOf(long nanos) {
        int bucket = 64 - Long.numberOfLeadingZeros(Math.max(0, nanos) >> 10);
        return Math.min(bucket, BUCKETS - 1);
    }

    /** The exclusive upper bound of bucket {@code i} in nanoseconds (about 1 µs &times; 2<sup>i</sup>); the last has none. */
    public static long bucketBoundNanos(int i) {
        return i == BUCKETS - 1 ? Long.MAX_VALUE : 1024L << i;
    }

    /** Durations recorded. */
    public long count() {
        return count;
    }

    /** Their sum, in nanoseconds. */
    public long totalNanos() {
        return totalNanos;
    }

    /** The longest, in nanoseconds; 0 if none. */
    public long maxNanos() {
        return maxNanos;
    }

    /** The mean, in nanoseconds; 0 if none. */
    public double meanNanos() {
        return count == 0 ? 0.0 : (double) totalNanos / count;
    }

    /** How many durations fell into bucket {@code i} (see the class comment). */
    public long bucketCount(int i) {
        return buckets[i];
    }

    /**
     * An upper estimate of the {@code q}-quantile: the bound of the bucket that holds it, but not above
     * {@link #maxNanos()}; 0 if nothing was recorded.
     *
     * @param q the quantile, in [0, 1]
     * @throws IllegalArgumentException if {@code q} is outside [0, 1]
     */
    public long percentileNanos(double q) {
        if (!(q >= 0.0 && q <= 1.0)) {
            throw new IllegalArgumentException("quantile must be in [0, 1], got " + q);
        }
        long rank = (long) Math.ceil(q * count);
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += buckets[i];
            if (seen >= rank && seen > 0) {
                return Math.min(bucketBoundNanos(i), maxNanos);
            }
        }
        return maxNanos;
    }

    /** Both distributions in one (the longest of both, counts and buckets added). */
    public TimeDistribution plus(TimeDistribution other) {
        long[] sum = new long[BUCKETS];
        for (int i = 0; i < BUCKETS; i++) {
            sum[i] = buckets[i] + other.buckets[i];
        }
        return new TimeDistribution(count + other.count, totalNanos + other.totalNanos,
                Math.max(maxNanos, other.maxNanos), sum);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TimeDistribution d && count == d.count && totalNanos == d.totalNanos
                && maxNanos == d.maxNanos && Arrays.equals(buckets, d.buckets);
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(count) + 17 * Long.hashCode(totalNanos) + Long.hashCode(maxNanos)
                + Arrays.hashCode(buckets);
    }

    /** {@code TimeDistribution[count=..., totalNanos=..., maxNanos=...]}. */
    @Override
    public String toString() {
        return "TimeDistribution[count=" + count + ", totalNanos=" + totalNanos + ", maxNanos=" + maxNanos + "]";
    }
}
