package io.dlock.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dlock.TimeDistribution;
import org.junit.jupiter.api.Test;

/** A recorder keeps only the buckets between its lowest and highest, yet reports every bucket exactly. */
class TimeRecorderTest {

    @Test
    void nothingRecordedIsTheEmptyDistribution() {
        assertEquals(TimeDistribution.EMPTY, new TimeRecorder().snapshot());
    }

    @Test
    void durationsInBucketsAboveAndBelowTheFirstAreAllCounted() {
        TimeRecorder recorder = new TimeRecorder();
        long[] durations = {5_000_000, 5_000_001, 200, 3_000_000_000L, -7, 40_000, 5_000_000};
        long[] buckets = new long[TimeDistribution.BUCKETS];
        long total = 0;
        long max = 0;
        for (long d : durations) {
            recorder.record(d);
            long counted = Math.max(0, d);
            buckets[TimeDistribution.bucketOf(counted)]++;
            total += counted;
            max = Math.max(max, counted);
        }
        assertEquals(TimeDistribution.of(durations.length, total, max, buckets), recorder.snapshot());
    }

    @Test
    void durationsOfOneBucketAreCountedWithoutCountersThenKeptWhenASecondBucketComes() {
        TimeRecorder recorder = new TimeRecorder();
        recorder.record(1_000);
        recorder.record(1_001);
        recorder.record(1_002);
        int bucket = TimeDistribution.bucketOf(1_000);
        assertEquals(3, recorder.snapshot().bucketCount(bucket));
        assertEquals(3, recorder.snapshot().count());
        recorder.record(9_000_000);
        TimeDistribution d = recorder.snapshot();
        assertEquals(3, d.bucketCount(bucket));
        assertEquals(1, d.bucketCount(TimeDistribution.bucketOf(9_000_000)));
        assertEquals(4, d.count());
        assertEquals(9_000_000, d.maxNanos());
    }

    @Test
    void theLastBucketTakesTheLongestDurations() {
        TimeRecorder recorder = new TimeRecorder();
        recorder.record(Long.MAX_VALUE);
        recorder.record(0);
        TimeDistribution d = recorder.snapshot();
        assertEquals(1, d.bucketCount(0));
        assertEquals(1, d.bucketCount(TimeDistribution.BUCKETS - 1));
        assertEquals(2, d.count());
    }
}
