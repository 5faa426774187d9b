package io.dlock.inmemory;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Decentralized voting under contention, the way the nemesis runs it: five nodes, two threads each, every
 * thread locking again as soon as it unlocks, local hand-off on. Without the back-off cap and the courtesy rule
 * the holder's next request reached every replica right behind its release and one node took every grant
 * (on 5 namespace hosts, for minutes); the rule gives every node its turns.
 */
@Timeout(120)
class DecentralizedFairnessTest {

    private static final int NODES = 5;
    private static final int THREADS_PER_NODE = 2;
    private static final int ENTRIES_PER_NODE = 20;

    @Test
    void when_everyNodeContendsWithoutPause_then_everyNodeGetsItsEntries() throws Exception {
        AtomicIntegerArray entries = new AtomicIntegerArray(NODES);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicIntegerArray overlaps = new AtomicIntegerArray(1);
        AtomicBoolean inside = new AtomicBoolean();
        try (InMemoryCluster cluster = new InMemoryCluster(NODES,
                DlockConfig.builder().mutex(MutexAlgorithm.DECENTRALIZED).localHandoff(2))) {
            List<Thread> threads = new ArrayList<>();
            for (int node = 0; node < NODES; node++) {
                DistributedLock lock = cluster.node(node).lock("contended");
                for (int t = 0; t < THREADS_PER_NODE; t++) {
                    int n = node;
                    Thread thread = new Thread(() -> {
                        try {
                            while (!stop.get()) {
                                if (!lock.tryLock(1, TimeUnit.SECONDS)) {
                                    continue;
                                }
                                try {
                                    if (!inside.compareAndSet(false, true)) {
                                        overlaps.incrementAndGet(0);
                                    }
                                    Thread.sleep(1);
                                    entries.incrementAndGet(n);
                                    inside.set(false);
                                } finally {
                                    lock.unlock();
                                }
                            }
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
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                        .until(() -> everyNodeHas(entries, ENTRIES_PER_NODE));
            } catch (ConditionTimeoutException e) {
                fail("not every node had " + ENTRIES_PER_NODE + " entries within 90 s; entries per node: " + entries);
            } finally {
                stop.set(true);
                for (Thread thread : threads) {
                    thread.join(15_000);
                }
            }
        }
        assertEquals(0, overlaps.get(0), "two holders at once");
    }

    private static boolean everyNodeHas(AtomicIntegerArray entries, int atLeast) {
        int[] counts = new int[entries.length()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = entries.get(i);
        }
        return Arrays.stream(counts).allMatch(c -> c >= atLeast);
    }
}
