package io.dlock.inmemory;

import io.dlock.DistributedLock;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One lock per business key, as the memory tests use it: names {@code order-0} to {@code order-(n-1)}, each
 * locked and unlocked once on one of the cluster's nodes, and the heap measured around it. Test fixture.
 */
final class OnceUsedNames {

    /**
     * Threads per node in the use phase: a first use mostly waits (decentralized: about 13 ms of denials and
     * back-off while the new lock's epoch barrier completes), so several overlap.
     */
    private static final int THREADS_PER_NODE = 8;

    private OnceUsedNames() {
    }

    /** Each node's threads lock and unlock their share of the {@code names} names, once each. */
    static void useEachOnce(InMemoryCluster cluster, int names) throws InterruptedException, ExecutionException {
        int nodes = cluster.nodes.size();
        int workers = nodes * THREADS_PER_NODE;
        ExecutorService threads = Executors.newFixedThreadPool(workers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int first = w;
                int node = w % nodes;
                done.add(threads.submit(() -> {
                    for (int i = first; i < names; i += workers) {
                        DistributedLock lock = cluster.node(node).lock("order-" + i);
                        if (!lock.tryLock(30, TimeUnit.SECONDS)) {
                            throw new AssertionError("order-" + i + " not granted");
                        }
                        lock.unlock();
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * The heap in use after a full collection: the least of five collections 50 ms apart, so that garbage a
     * background thread makes meanwhile (timers, the registry's sweep) does not count.
     */
    static long usedHeapAfterGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(50);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
