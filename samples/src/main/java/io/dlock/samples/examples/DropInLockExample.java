package io.dlock.samples.examples;

import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;

/**
 * A distributed {@link Lock} dropped into code written for a {@code ReentrantLock}.
 *
 * <p>{@link Inventory} is "existing code": it guards its stock with a {@code Lock} and knows nothing
 * of dlock. Before, it was built with {@code new Inventory(new ReentrantLock(), store)} and was safe
 * only within one JVM; now each node builds it with {@code new Inventory(dlock.lock("inventory"), store)}
 * and it is safe across every node of the cluster. Nothing else changes: {@code lock()} /
 * {@code unlock()} in try/finally, reentrancy, {@code tryLock(timeout)}. Here three in-memory nodes
 * with two threads each sell from one shared store (standing for a database) until it is empty; the
 * stock never goes below zero and every item is sold exactly once.
 *
 * <p>Run: {@code java -cp samples/target/dlock.jar io.dlock.samples.examples.DropInLockExample [algorithm]}.
 */
public final class DropInLockExample {

    private DropInLockExample() {
    }

    /** Existing code: a stock guarded by a {@link Lock}, unaware of where the lock comes from. */
    public static final class Inventory {
        private final Lock lock;
        private final int[] store; // the shared resource (think: a row in a database)

        /** An inventory over {@code store[0]} items, guarded by {@code lock}. */
        public Inventory(Lock lock, int[] store) {
            this.lock = lock;
            this.store = store;
        }

        /** Takes one item if any is left: a read-check-write that must not interleave. */
        public boolean takeOne() {
            lock.lock();
            try {
                int left = store[0];
                if (left == 0) {
                    return false;
                }
                Thread.onSpinWait(); // widen the race window: without the lock, two takers would read the same value
                store[0] = left - 1;
                return true;
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Sells {@code items} items from three nodes with two threads each; returns the number sold
     * (equal to {@code items} when the lock works).
     */
    public static int run(MutexAlgorithm algorithm, int items) throws InterruptedException {
        String cluster = "dropin-" + UUID.randomUUID();
        int[] store = {items};
        AtomicInteger sold = new AtomicInteger();
        List<LockService> nodes = new ArrayList<>();
        List<Thread> sellers = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                nodes.add(LockService.start(DlockConfig.builder().mutex(algorithm).cluster(cluster).nodeId(i).build()));
            }
            for (LockService node : nodes) {
                Inventory inventory = new Inventory(node.lock("inventory"), store); // was: new ReentrantLock()
                for (int t = 0; t < 2; t++) {
                    Thread seller = new Thread(() -> {
                        while (inventory.takeOne()) {
                            sold.incrementAndGet();
                        }
                    }, node.nodeId() + "-seller-" + t);
                    sellers.add(seller);
                    seller.start();
                }
            }
            for (Thread seller : sellers) {
                seller.join(TimeUnit.SECONDS.toMillis(30));
            }
        } finally {
            nodes.forEach(LockService::close);
        }
        if (store[0] != 0 || sold.get() != items) {
            throw new IllegalStateException("sold " + sold.get() + " of " + items + ", " + store[0] + " left");
        }
        return sold.get();
    }

    /** Runs the example with the algorithm named by the first argument (default ricart-agrawala). */
    public static void main(String[] args) throws InterruptedException {
        MutexAlgorithm algorithm = args.length > 0 ? MutexAlgorithm.fromConfigName(args[0]) : MutexAlgorithm.RICART_AGRAWALA;
        int sold = run(algorithm, 300);
        System.out.printf("%s: 3 nodes x 2 threads sold %d of 300 items, none twice, stock never negative%n",
                algorithm.configName(), sold);
    }
}
