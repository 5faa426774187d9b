package io.dlock.samples.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Histories recorded from real threads in one JVM, in the file format, judged by the checker: the checker needs
 * nothing of dlock, so it judges any {@link Lock}. A {@link ReentrantLock} passes; "a lock" that is one
 * {@code ReentrantLock} per thread (so it lets every thread in) is rejected.
 */
@Timeout(60)
class RealLockHistoryTest {

    private static final int THREADS = 4;
    private static final int ROUNDS = 300;

    /** A fenced store in memory: accepts a write unless its token is older than the last accepted. */
    private static final class FencedCounter {
        private final List<StoreEntry> entries = new ArrayList<>();

        /** The value written, or -1 if the token was stale. */
        synchronized long increment(long token) {
            if (!entries.isEmpty() && token < entries.get(entries.size() - 1).token()) {
                return -1;
            }
            long value = entries.size() + 1L;
            entries.add(new StoreEntry(token, value));
            return value;
        }

        synchronized List<StoreEntry> entries() {
            return List.copyOf(entries);
        }
    }

    /** What the threads recorded, and the store. */
    private record Run(History history, List<StoreEntry> store) {
    }

    /**
     * Runs {@link #THREADS} clients ({@code 1.1.1} ...) for {@link #ROUNDS} rounds each on {@code lockOf(thread)}:
     * acquire (lock() in even rounds, tryLock(100 us) in odd ones), take a token from a counter inside the critical
     * section, write to the fenced store, release. {@code inside} runs in each critical section (round, thread).
     */
    private static Run record(IntFunction<Lock> lockOf, CriticalSection inside) throws Exception {
        Queue<String> lines = new ConcurrentLinkedQueue<>();
        AtomicLong tokens = new AtomicLong();
        FencedCounter store = new FencedCounter();
        lines.add(System.nanoTime() + " 1.1.0 started 0");
        List<Thread> threads = new ArrayList<>();
        Queue<Throwable> failed = new ConcurrentLinkedQueue<>();
        for (int t = 1; t <= THREADS; t++) {
            int thread = t;
            String p = "1.1." + thread;
            Lock lock = lockOf.apply(thread);
            threads.add(new Thread(() -> {
                try {
                    for (int round = 0; round < ROUNDS; round++) {
                        lines.add(System.nanoTime() + " " + p + " acquire");
                        boolean held = true;
                        if (round % 2 == 0) {
                            lock.lock();
                        } else {
                            held = lock.tryLock(100, TimeUnit.MICROSECONDS);
                        }
                        if (!held) {
                            lines.add(System.nanoTime() + " " + p + " refused");
                            continue;
                        }
                        long token = tokens.incrementAndGet();
                        lines.add(System.nanoTime() + " " + p + " granted " + token);
                        inside.run(round, thread);
                        long value = store.increment(token);
                        lines.add(System.nanoTime() + " " + p + (value < 0 ? " stale " + token
                                : " write " + token + " " + value));
                        lines.add(System.nanoTime() + " " + p + " release");
                        lock.unlock();
                        lines.add(System.nanoTime() + " " + p + " released");
                    }
                } catch (Throwable e) {
                    failed.add(e);
                    lines.add(System.nanoTime() + " " + p + " error " + e);
                }
            }, "client-" + thread));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(List.of(), List.copyOf(failed));
        return new Run(History.parse(List.copyOf(lines)), store.entries());
    }

    /** Code run inside a critical section. */
    @FunctionalInterface
    private interface CriticalSection {
        void run(int round, int thread) throws Exception;
    }

    /** One {@link ReentrantLock} shared by every thread: the recorded history is valid, every write in the store. */
    @Test
    void reentrantLock_historyPasses() throws Exception {
        Lock lock = new ReentrantLock();
        Run run = record(t -> lock, (round, thread) -> Thread.onSpinWait());
        CheckReport r = HistoryChecker.check(run.history(), run.store());
        assertTrue(r.valid(), r::summary);
        assertEquals(THREADS * ROUNDS, r.acquires());
        assertEquals(THREADS * ROUNDS, r.grants() + r.refused());
        assertEquals(r.grants(), r.holds());
        assertEquals(r.grants(), r.writes());
        assertEquals(r.grants(), run.store().size());
        assertEquals(0, r.openHolds());
        assertEquals(0, r.excusedOverlaps());
    }

    /**
     * A broken lock, one {@link ReentrantLock} per thread, lets every thread in. In round 0 threads 1 and 2 meet at a
     * barrier inside their critical sections, so their holds certainly overlap: the checker rejects the history and
     * names both.
     */
    @Test
    void lockPerThread_historyRejected() throws Exception {
        CyclicBarrier meet = new CyclicBarrier(2);
        Run run = record(t -> new ReentrantLock(), (round, thread) -> {
            if (round == 0 && thread <= 2) {
                meet.await(10, TimeUnit.SECONDS);
                Thread.sleep(1);
            }
        });
        CheckReport r = HistoryChecker.check(run.history(), run.store());
        assertFalse(r.valid(), r::summary);
        assertTrue(r.violationCount(ViolationKind.MUTUAL_EXCLUSION) >= 1, r::summary);
        assertTrue(r.violations(ViolationKind.MUTUAL_EXCLUSION).stream()
                .anyMatch(v -> v.contains("hold of 1.1.1 with token") && v.contains("hold of 1.1.2 with token")),
                r::summary);
    }
}
