package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The fixed buckets of {@link TimeDistribution}, its percentile estimate and its merge. */
class TimeDistributionTest {

    private static TimeDistribution of(long... nanos) {
        long[] buckets = new long[TimeDistribution.BUCKETS];
        long total = 0;
        long max = 0;
        for (long n : nanos) {
            buckets[TimeDistribution.bucketOf(n)]++;
            total += n;
            max = Math.max(max, n);
        }
        return TimeDistribution.of(nanos.length, total, max, buckets);
    }

    /** Bucket i holds durations below its bound and not below the previous one; the last takes everything longer. */
    @Test
    void everyDurationFallsBelowItsBucketsBound() {
        long[] samples = {0, 1, 1023, 1024, 5_000, 1_000_000, 1L << 40, Long.MAX_VALUE};
        for (long n : samples) {
            int b = TimeDistribution.bucketOf(n);
            assertTrue(n < TimeDistribution.bucketBoundNanos(b) || b == TimeDistribution.BUCKETS - 1, n + " in " + b);
            assertTrue(b == 0 || n >= TimeDistribution.bucketBoundNanos(b - 1), n + " in " + b);
        }
        assertEquals(0, TimeDistribution.bucketOf(-5));
        assertEquals(TimeDistribution.BUCKETS - 1, TimeDistribution.bucketOf(Long.MAX_VALUE));
    }

    /** A percentile is the bound of the bucket that holds it, capped by the maximum; 0 when empty. */
    @Test
    void percentilesAreBucketBoundsCappedByTheMax() {
        TimeDistribution d = of(500, 600, 700, 100_000);
        assertEquals(1024, d.percentileNanos(0.5));
        assertEquals(100_000, d.percentileNanos(0.99));
        assertEquals(100_000, d.percentileNanos(1.0));
        assertEquals(0, TimeDistribution.EMPTY.percentileNanos(0.99));
        assertThrows(IllegalArgumentException.class, () -> d.percentileNanos(1.5));
        assertEquals((500 + 600 + 700 + 100_000) / 4.0, d.meanNanos());
    }

    /** Merging adds counts, totals and buckets and keeps the longest. */
    @Test
    void plusMergesAsIfRecordedTogether() {
        assertEquals(of(500, 600, 100_000), of(500, 100_000).plus(of(600)));
        assertThrows(IllegalArgumentException.class, () -> TimeDistribution.of(0, 0, 0, new long[3]));
    }
}
