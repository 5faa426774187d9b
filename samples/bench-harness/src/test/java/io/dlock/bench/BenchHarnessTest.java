package io.dlock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The shared measuring loops: helpers, and short runs over in-JVM locks. Never asserts timing. */
@Timeout(30)
class BenchHarnessTest {

    /** A NodeLock over a ReentrantLock that counts its entries and checks that nobody else is inside. */
    private static final class CountingLock implements NodeLock {
        private final ReentrantLock lock;
        private final AtomicBoolean inside;
        final AtomicLong entries = new AtomicLong();
        final AtomicInteger overlaps;

        CountingLock(ReentrantLock lock, AtomicBoolean inside, AtomicInteger overlaps) {
            this.lock = lock;
            this.inside = inside;
            this.overlaps = overlaps;
        }

        @Override
        public boolean tryLock(long seconds) throws InterruptedException {
            if (!lock.tryLock(seconds, TimeUnit.SECONDS)) {
                return false;
            }
            if (!inside.compareAndSet(false, true)) {
                overlaps.incrementAndGet();
            }
            entries.incrementAndGet();
            return true;
        }

        @Override
        public void unlock() {
            inside.set(false);
            lock.unlock();
        }
    }

    /** Percentiles are nearest-rank over the sorted samples, in microseconds; NaN without samples. */
    @Test
    void percentiles() {
        long[] sorted = new long[100];
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] = (i + 1) * 1000L;
        }
        assertEquals(50.0, BenchHarness.percentileMicros(sorted, 0.5));
        assertEquals(99.0, BenchHarness.percentileMicros(sorted, 0.99));
        assertEquals(100.0, BenchHarness.percentileMicros(sorted, 1.0));
        assertEquals(1.0, BenchHarness.percentileMicros(sorted, 0.0));
        assertEquals(7.0, BenchHarness.percentileMicros(new long[] {7000}, 0.99));
        assertTrue(Double.isNaN(BenchHarness.percentileMicros(new long[0], 0.5)));
    }

    /** Jain's index is 1 for even counts, 1/n for one node only, NaN for none; longest run counts equal neighbours. */
    @Test
    void jainAndLongestRun() {
        assertEquals(1.0, BenchHarness.jain(new long[] {5, 5, 5}), 1e-12);
        assertEquals(1.0 / 4, BenchHarness.jain(new long[] {9, 0, 0, 0}), 1e-12);
        assertEquals(0.9, BenchHarness.jain(new long[] {1, 2}), 1e-12);
        assertTrue(Double.isNaN(BenchHarness.jain(new long[] {0, 0})));
        assertEquals(3, BenchHarness.longestRun(new int[] {0, 1, 1, 1, 0, 2, 2}, 7));
        assertEquals(2, BenchHarness.longestRun(new int[] {0, 1, 1, 1, 0}, 3));
        assertEquals(0, BenchHarness.longestRun(new int[] {4}, 0));
    }

    /** A contended run over one ReentrantLock shared by 3 nodes x 2 threads: exclusive, exact counts, no failures. */
    @Test
    void contendedRunOverReentrantLock() throws Exception {
        ReentrantLock shared = new ReentrantLock();
        AtomicBoolean inside = new AtomicBoolean();
        AtomicInteger overlaps = new AtomicInteger();
        List<CountingLock> locks = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            locks.add(new CountingLock(shared, inside, overlaps));
        }
        long[] atOpen = new long[1];
        long[] atClose = new long[1];
        BenchHarness.Window window = new BenchHarness.Window() {
            @Override
            public void opened() {
                atOpen[0] = locks.stream().mapToLong(l -> l.entries.get()).sum();
            }

            @Override
            public void closed() {
                atClose[0] = locks.stream().mapToLong(l -> l.entries.get()).sum();
            }
        };
        Measurement m = new BenchHarness(0.02, 0.1, 5).contended(locks, 2, window);
        assertEquals(0, m.failures());
        assertEquals(0, overlaps.get());
        assertEquals(3, m.perNode().size());
        assertEquals(m.count(), m.perNode().stream().mapToLong(Long::longValue).sum());
        // every counted entry happened inside the window; entries outside it are not counted
        assertTrue(m.count() <= atClose[0] - atOpen[0] + 6, m + " vs " + (atClose[0] - atOpen[0]));
        long total = locks.stream().mapToLong(l -> l.entries.get()).sum();
        assertTrue(m.count() <= total, m.toString());
        assertEquals(m.jain(), BenchHarness.jain(m.perNode().stream().mapToLong(Long::longValue).toArray()), 1e-12);
        assertTrue(m.count() == 0 || m.maxRun() >= 1, m.toString());
        assertTrue(m.maxRun() <= m.count(), m.toString());
        assertTrue(Double.isNaN(m.p50Us()) && Double.isNaN(m.p99Us()));
    }

    /**
     * A run that picks one of 4 locks per entry (2 nodes x 2 threads): each lock stays exclusive, every counted
     * entry went through a picked lock, and a picker that throws ends its threads' loops as failures.
     */
    @Test
    void contendedPickingTakesThePickedLock() throws Exception {
        AtomicInteger overlaps = new AtomicInteger();
        List<CountingLock> keys = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            keys.add(new CountingLock(new ReentrantLock(), new AtomicBoolean(), overlaps));
        }
        LockPicker random = () -> keys.get(ThreadLocalRandom.current().nextInt(keys.size()));
        Measurement m = new BenchHarness(0.02, 0.1, 5).contendedPicking(List.of(random, random), 2,
                BenchHarness.Window.NONE);
        assertEquals(0, m.failures());
        assertEquals(0, overlaps.get());
        assertEquals(2, m.perNode().size());
        assertTrue(m.count() <= keys.stream().mapToLong(l -> l.entries.get()).sum(), m.toString());

        LockPicker broken = () -> {
            throw new IllegalStateException("no lock");
        };
        Measurement b = new BenchHarness(0, 0.05, 5).contendedPicking(List.of(broken), 3, BenchHarness.Window.NONE);
        assertEquals(3, b.failures());
        assertEquals(0, b.count());
    }

    /**
     * Every run reports the JVM's CPU time per operation of its measured window: positive wherever an operation ran
     * (this JDK reports process CPU time), NaN where none did; the arithmetic refuses unknown readings.
     */
    @Test
    void cpuTimePerOperation() throws Exception {
        long before = ProcessCpuClock.nanos();
        assertTrue(before > 0, "this JDK reports the process CPU time");
        BenchHarness harness = new BenchHarness(0.01, 0.05, 5);
        Measurement latency = harness.uncontended(new CountingLock(new ReentrantLock(), new AtomicBoolean(),
                new AtomicInteger()));
        assertTrue(latency.count() == 0 || latency.cpuUsPerOp() > 0, latency.toString());
        Measurement contended = harness.contended(List.of(new CountingLock(new ReentrantLock(), new AtomicBoolean(),
                new AtomicInteger())), 2);
        assertTrue(contended.count() == 0 || contended.cpuUsPerOp() > 0, contended.toString());
        assertTrue(ProcessCpuClock.nanos() >= before);
        assertEquals(2.5, ProcessCpuClock.microsPerOp(1_000, 11_000, 4), 1e-12);
        assertTrue(Double.isNaN(ProcessCpuClock.microsPerOp(-1, 11_000, 4)));
        assertTrue(Double.isNaN(ProcessCpuClock.microsPerOp(1_000, -1, 4)));
        assertTrue(Double.isNaN(ProcessCpuClock.microsPerOp(1_000, 11_000, 0)));
    }

    /**
     * A lock+unlock run also times the unlock alone: a lock whose unlock waits 2 ms (as one that waits for its
     * release to be confirmed waits a round trip) has a median unlock of at least 2 ms, within the whole operation's
     * median; a lock whose unlock returns at once has one far below it. An operation of one leg has none (NaN).
     */
    @Test
    void theUnlockIsTimedOnItsOwn() throws Exception {
        BenchHarness harness = new BenchHarness(0.01, 0.1, 5);
        NodeLock confirmed = new NodeLock() {
            @Override
            public boolean tryLock(long seconds) {
                return true;
            }

            @Override
            public void unlock() throws InterruptedException {
                Thread.sleep(2);
            }
        };
        Measurement slow = harness.uncontended(confirmed);
        assertTrue(slow.count() > 0);
        assertTrue(slow.unlockP50Us() >= 2_000 && slow.unlockP50Us() <= slow.p50Us(), slow.toString());
        Measurement fast = harness.uncontended(new CountingLock(new ReentrantLock(), new AtomicBoolean(),
                new AtomicInteger()));
        assertTrue(fast.unlockP50Us() >= 0 && fast.unlockP50Us() < 1_000, fast.toString());
        BenchHarness.Operation oneLeg = () -> true;
        assertTrue(Double.isNaN(harness.latency(oneLeg, BenchHarness.Window.NONE).unlockP50Us()));
        assertTrue(Double.isNaN(harness.contended(List.of(confirmed), 1).unlockP50Us()));
    }

    /**
     * A harness given its own CPU clock reads that clock, not the JVM's: a clock that advances 1 ms per reading gives
     * 1 ms per window, and so 1000 us over the window's entries; an unknown reading (-1) gives NaN, also through
     * {@link CpuClock#plus}.
     */
    @Test
    void cpuTimeFromTheGivenClock() throws Exception {
        AtomicLong readings = new AtomicLong();
        CpuClock ticking = () -> readings.incrementAndGet() * 1_000_000L;
        BenchHarness harness = new BenchHarness(0, 0.05, 5).withCpuClock(ticking);
        Measurement contended = harness.contended(List.of(new CountingLock(new ReentrantLock(), new AtomicBoolean(),
                new AtomicInteger())), 1);
        assertTrue(contended.count() > 0, contended.toString());
        assertEquals(2, readings.get(), "one reading when the window opens, one when it closes");
        assertEquals(1000.0 / contended.count(), contended.cpuUsPerOp(), 1e-9);
        CpuClock unknown = () -> -1;
        assertEquals(-1, ticking.plus(unknown).nanos());
        assertEquals(-1, unknown.plus(ticking).nanos());
        assertEquals(5_000_000L + 6_000_000L, ticking.plus(ticking).nanos(), "the readings 5 and 6 ms added");
        Measurement blind = harness.withCpuClock(unknown).contended(List.of(new CountingLock(new ReentrantLock(),
                new AtomicBoolean(), new AtomicInteger())), 1);
        assertTrue(Double.isNaN(blind.cpuUsPerOp()), blind.toString());
    }

    /** An uncontended run counts each lock+unlock once and leaves the lock free; the window sees exactly those. */
    @Test
    void uncontendedRunCountsEveryEntry() throws Exception {
        CountingLock lock = new CountingLock(new ReentrantLock(), new AtomicBoolean(), new AtomicInteger());
        long[] atOpen = new long[1];
        long[] atClose = new long[1];
        Measurement m = new BenchHarness(0.01, 0.05, 5).uncontended(lock, new BenchHarness.Window() {
            @Override
            public void opened() {
                atOpen[0] = lock.entries.get();
            }

            @Override
            public void closed() {
                atClose[0] = lock.entries.get();
            }
        });
        assertEquals(0, m.failures());
        assertEquals(atClose[0] - atOpen[0], m.count());
        // a descheduled thread may find the window over before its first call: no count is promised
        assertTrue(m.count() == 0 || m.p50Us() <= m.p99Us(), m.toString());
        assertEquals(m.count() / 0.05, m.opsPerSec(), 1e-6);
        assertTrue(m.perNode().isEmpty() && Double.isNaN(m.jain()));
    }

    /**
     * An interleaved run times each operation on its own, in turns: every timed call is counted for its own
     * operation, the operations take turns at most once per slice each, and the second one does not run only after
     * the first is done. A failing operation is its own failure and ends the run; bad arguments are refused.
     */
    @Test
    void interleavedRunTakesTurns() throws Exception {
        List<Integer> calls = new ArrayList<>();
        boolean[] measuring = new boolean[1];
        BenchHarness.Operation first = () -> {
            if (measuring[0]) {
                calls.add(0);
            }
            return true;
        };
        BenchHarness.Operation second = () -> {
            if (measuring[0]) {
                calls.add(1);
            }
            Thread.sleep(1);
            return true;
        };
        BenchHarness.Window window = new BenchHarness.Window() {
            @Override
            public void opened() {
                measuring[0] = true;
            }

            @Override
            public void closed() {
                measuring[0] = false;
            }
        };
        int slices = 4;
        List<Measurement> ms = new BenchHarness(0.04, 0.4, 5).interleaved(List.of(first, second), slices, window);
        assertEquals(2, ms.size());
        assertEquals(calls.stream().filter(c -> c == 0).count(), ms.get(0).count());
        assertEquals(calls.stream().filter(c -> c == 1).count(), ms.get(1).count());
        assertEquals(0, ms.get(0).failures() + ms.get(1).failures());
        int turns = 0;
        for (int i = 1; i < calls.size(); i++) {
            turns += calls.get(i).equals(calls.get(i - 1)) ? 0 : 1;
        }
        assertTrue(turns <= 2 * slices - 1, "more turns than slices allow: " + turns);
        assertTrue(calls.lastIndexOf(0) > calls.indexOf(1), "the first operation never ran after the second began");

        BenchHarness.Operation failing = () -> false;
        List<Measurement> failed = new BenchHarness(0, 0.05, 5).interleaved(List.of(first, failing), 2,
                BenchHarness.Window.NONE);
        assertEquals(0, failed.get(0).failures());
        assertEquals(1, failed.get(1).failures());
        assertEquals(0, failed.get(1).count());
        assertThrows(IllegalArgumentException.class,
                () -> new BenchHarness(0, 0.05, 5).interleaved(List.of(), 2, BenchHarness.Window.NONE));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new BenchHarness(0, 0.05, 5)
                .interleaved(List.of(first), 0, BenchHarness.Window.NONE)).getMessage().contains("0 slices"));
    }

    /**
     * A lock that is never granted is one failure and ends the run; nothing is measured. The first timeout of each
     * harness writes every thread's stack to standard error ({@link StallDump}), once, naming the thread that waited.
     */
    @Test
    void timeoutIsOneFailure() throws Exception {
        NodeLock never = new NeverGranted();
        PrintStream err = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        Measurement m;
        Measurement c;
        try {
            m = new BenchHarness(0.01, 0.05, 0).uncontended(never);
            c = new BenchHarness(0, 0.05, 0).contended(List.of(never, never), 1, BenchHarness.Window.NONE);
        } finally {
            System.setErr(err);
        }
        assertEquals(1, m.failures());
        assertEquals(0, m.count());
        assertEquals(2, c.failures());
        assertEquals(0, c.count());
        assertTrue(Double.isNaN(c.jain()));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(2, text.lines().filter(l -> l.startsWith("dlock bench: a lock was not granted within 0 s")).count(),
                "one dump per harness: " + text.lines().filter(l -> l.startsWith("dlock bench")).toList());
        assertTrue(text.contains("(thread bench-n"), "the contended thread names itself");
    }

    /** Bad durations are refused naming the value. */
    @Test
    void badDurations() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new BenchHarness(-1, 1, 1)).getMessage()
                .contains("-1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new BenchHarness(0, 0, 1)).getMessage()
                .contains("measured seconds"));
        assertThrows(IllegalArgumentException.class, () -> new BenchHarness(0, 1, -1));
    }
}
