package io.dlock.inmemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.MutexAlgorithm;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code dlock.lock.grant-spin-us} on the real-time in-memory network: threads that spin for their grants (and
 * threads that find every spin slot taken and park) on three nodes take one lock in turn. One holder at a time,
 * fencing tokens in order, and no acquisition waits out its timeout: a grant that comes while its thread spins, or
 * in the gap before it parks, is never lost.
 */
@Timeout(120)
class GrantSpinLockTest {

    private static final int NODES = 3;
    private static final int THREADS_PER_NODE = 2;
    private static final int ENTRIES_PER_THREAD = 300;

    @ParameterizedTest
    @EnumSource(value = MutexAlgorithm.class, names = {"CENTRALIZED", "RICART_AGRAWALA", "SUZUKI_KASAMI"})
    void spinningWaitersKeepOneHolderAndLoseNoGrant(MutexAlgorithm algorithm) throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger timeouts = new AtomicInteger();
        AtomicLong lastFence = new AtomicLong(Long.MIN_VALUE);
        AtomicInteger fencesOutOfOrder = new AtomicInteger();
        AtomicInteger entries = new AtomicInteger();
        DlockConfig.Builder config = DlockConfig.builder().mutex(algorithm).grantSpin(Duration.ofNanos(200_000));
        try (InMemoryCluster cluster = new InMemoryCluster(NODES, config)) {
            List<Thread> threads = new ArrayList<>();
            for (int n = 0; n < NODES; n++) {
                DistributedLock lock = cluster.node(n).lock("spun");
                for (int t = 0; t < THREADS_PER_NODE; t++) {
                    Thread thread = new Thread(() -> {
                        try {
                            for (int i = 0; i < ENTRIES_PER_THREAD; i++) {
                                if (!lock.tryLock(10, TimeUnit.SECONDS)) {
                                    timeouts.incrementAndGet();
                                    return;
                                }
                                try {
                                    if (inside.incrementAndGet() != 1) {
                                        overlaps.incrementAndGet();
                                    }
                                    long fence = lock.fencingToken();
                                    if (fence <= lastFence.getAndSet(fence)) {
                                        fencesOutOfOrder.incrementAndGet();
                                    }
                                    entries.incrementAndGet();
                                    inside.decrementAndGet();
                                } finally {
                                    lock.unlock();
                                }
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }, "node" + n + "-" + t);
                    threads.add(thread);
                    thread.start();
                }
            }
            for (Thread t : threads) {
                t.join(90_000);
                assertTrue(!t.isAlive(), t.getName() + " finished its entries");
            }
        }
        assertEquals(0, timeouts.get(), "tryLock(10 s) timeouts: a grant was lost");
        assertEquals(0, overlaps.get(), "holders overlapped");
        assertEquals(0, fencesOutOfOrder.get(), "fencing tokens went backwards");
        assertEquals(NODES * THREADS_PER_NODE * ENTRIES_PER_THREAD, entries.get());
    }
}
