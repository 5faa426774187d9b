package io.dlock.inmemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.MutexAlgorithm;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code dlock.lock.local-handoff} on the real-time in-memory network: node 0 runs three busy threads,
 * node 1 one thread; every entry records (node, fencing token) in the order of the critical sections.
 */
@Timeout(60)
class LocalHandoffTest {

    private static final int H = 4;
    private static final int ENTRIES_OF_NODE_1 = 25;

    private record Entry(int node, long fence) {
    }

    /**
     * Tokens strictly increase over all holders (local hand-offs included); one distributed grant
     * ({@code token / (H+1)}) serves at most H+1 consecutive holders of one node; the single-thread
     * node is not starved: it completes its entries while the other node keeps competing.
     */
    @ParameterizedTest
    @EnumSource(value = MutexAlgorithm.class, names = {"CENTRALIZED", "RICART_AGRAWALA", "SUZUKI_KASAMI"})
    void boundedHandoffKeepsFencesAndFairness(MutexAlgorithm algorithm) throws Exception {
        List<Entry> entries = new ArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger failures = new AtomicInteger();
        try (InMemoryCluster cluster = new InMemoryCluster(2, DlockConfig.builder().mutex(algorithm).localHandoff(H))) {
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int node = t < 3 ? 0 : 1;
                DistributedLock lock = cluster.node(node).lock("handoff");
                Thread thread = new Thread(() -> {
                    int mine = 0;
                    try {
                        while (!stop.get() && (node == 0 || mine < ENTRIES_OF_NODE_1)) {
                            if (!lock.tryLock(10, TimeUnit.SECONDS)) {
                                failures.incrementAndGet();
                                return;
                            }
                            try {
                                synchronized (entries) {
                                    entries.add(new Entry(node, lock.fencingToken()));
                                }
                                mine++;
                            } finally {
                                lock.unlock();
                            }
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "node" + node + "-" + t);
                threads.add(thread);
                thread.start();
            }
            Thread single = threads.get(3);
            single.join(30_000);
            boolean finished = !single.isAlive();
            stop.set(true);
            for (Thread t : threads) {
                t.interrupt();
                t.join(10_000);
            }
            assertTrue(finished, "node 1 completed " + ENTRIES_OF_NODE_1 + " entries within 30 s");
            assertEquals(0, failures.get(), "tryLock(10 s) timeouts");
            assertTrue(cluster.node(0).metrics().localHandoffs() > 0, "node 0's three threads handed off: "
                    + cluster.node(0).metrics());
            assertEquals(0, cluster.node(1).metrics().localHandoffs(), "node 1's single thread has nobody to hand off to");
        }
        List<Entry> copy;
        synchronized (entries) {
            copy = List.copyOf(entries);
        }
        Map<Long, Integer> perGrant = new HashMap<>();
        Map<Long, Integer> grantNode = new HashMap<>();
        for (int i = 0; i < copy.size(); i++) {
            Entry e = copy.get(i);
            if (i > 0) {
                assertTrue(e.fence > copy.get(i - 1).fence, "fences increase: " + copy.get(i - 1) + " then " + e);
            }
            long grant = e.fence / (H + 1);
            perGrant.merge(grant, 1, Integer::sum);
            Integer previous = grantNode.putIfAbsent(grant, e.node);
            assertTrue(previous == null || previous == e.node, "grant " + grant + " on two nodes");
            assertTrue(perGrant.get(grant) <= H + 1, "grant " + grant + " served more than H+1 holders");
        }
        assertEquals(ENTRIES_OF_NODE_1, copy.stream().filter(e -> e.node == 1).count());
    }
}
