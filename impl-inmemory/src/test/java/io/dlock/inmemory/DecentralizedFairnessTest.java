package io.dlock.inmemory;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.MutexAlgorithm;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Decentralized voting under contention, the way the nemesis runs it: five nodes, two threads each, every
 * thread locking again as soon as it unlocks, local hand-off on. Without the courtesy rule the holder's next
 * request reached every replica right behind its release and one node took every grant (on 5 namespace hosts,
 * for minutes); without the ageing rule exponential back-off let the newest contenders pass those that had
 * waited longest, for seconds (docs/algorithms.md A2 rules 10 and 11).
 */
@Timeout(120)
class DecentralizedFairnessTest {

    private static final int NODES = 5;
    private static final int THREADS_PER_NODE = 2;
    private static final int ENTRIES_PER_NODE = 20;
    /**
     * The most entries of others while one thread waits for the lock. Measured on 2 loaded cores in 8 s with 1-ms
     * holds: 1 189 with the courtesy rule alone, 118 with ageing (6 s in the test); an ideal queue lets the 9 other threads pass
     * about once each.
     */
    private static final long MAX_BYPASS = 400;

    /** One contending thread's loop: lock (or try), count, unlock; returns when {@code stop} is set. */
    private interface Contender {
        void run(int node, DistributedLock lock) throws InterruptedException;
    }

    @Test
    void when_everyNodeContendsWithoutPause_then_everyNodeGetsItsEntries() throws Exception {
        AtomicIntegerArray entries = new AtomicIntegerArray(NODES);
        AtomicInteger overlaps = new AtomicInteger();
        AtomicBoolean inside = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        contend(stop, (node, lock) -> {
            while (!stop.get()) {
                if (!lock.tryLock(1, TimeUnit.SECONDS)) {
                    continue;
                }
                try {
                    if (!inside.compareAndSet(false, true)) {
                        overlaps.incrementAndGet();
                    }
                    try {
                        Thread.sleep(1);
                        entries.incrementAndGet(node);
                    } finally {
                        inside.set(false);
                    }
                } finally {
                    lock.unlock();
                }
            }
        }, () -> {
            try {
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                        .until(() -> everyNodeHas(entries, ENTRIES_PER_NODE));
            } catch (ConditionTimeoutException e) {
                fail("not every node had " + ENTRIES_PER_NODE + " entries within 90 s; entries per node: " + entries);
            }
        });
        assertEquals(0, overlaps.get(), "two holders at once");
    }

    /**
     * Ageing: while a thread waits, the others pass it a bounded number of times, not for as long as exponential
     * back-off keeps its window wide.
     */
    @Test
    void when_everyNodeContendsWithoutPause_then_noWaiterIsPassedForLong() throws Exception {
        AtomicLong entries = new AtomicLong();
        AtomicLong worstBypass = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        contend(stop, (node, lock) -> {
            while (!stop.get()) {
                long before = entries.get();
                lock.lockInterruptibly();
                try {
                    worstBypass.accumulateAndGet(entries.getAndIncrement() - before, Math::max);
                    Thread.sleep(1);
                } finally {
                    lock.unlock();
                }
            }
        }, () -> Thread.sleep(6_000));
        assertTrue(entries.get() > 100, "the lock hardly moved: " + entries.get() + " entries");
        assertTrue(worstBypass.get() <= MAX_BYPASS, "a waiting thread was passed " + worstBypass.get()
                + " times (at most " + MAX_BYPASS + " allowed) in " + entries.get() + " entries");
    }

    private interface Wait {
        void run() throws InterruptedException;
    }

    /** Runs {@code contender} on every thread of every node until {@code wait} returns, then stops and joins them. */
    private static void contend(AtomicBoolean stop, Contender contender, Wait wait) throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(NODES,
                DlockConfig.builder().mutex(MutexAlgorithm.DECENTRALIZED).localHandoff(2))) {
            List<Thread> threads = new ArrayList<>();
            for (int node = 0; node < NODES; node++) {
                DistributedLock lock = cluster.node(node).lock("contended");
                for (int t = 0; t < THREADS_PER_NODE; t++) {
                    int n = node;
                    Thread thread = new Thread(() -> {
                        try {
                            contender.run(n, lock);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }, "n" + node + "-" + t);
                    thread.setDaemon(true);
                    threads.add(thread);
                    thread.start();
                }
            }
            try {
                wait.run();
            } finally {
                stop.set(true);
                threads.forEach(Thread::interrupt); // a thread still waiting gives up
                for (Thread thread : threads) {
                    thread.join(15_000);
                }
            }
        }
    }

    private static boolean everyNodeHas(AtomicIntegerArray entries, int atLeast) {
        int[] counts = new int[entries.length()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = entries.get(i);
        }
        return Arrays.stream(counts).allMatch(c -> c >= atLeast);
    }
}
