package io.dlock.inmemory;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.MutexAlgorithm;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@link java.util.concurrent.locks.Lock} contract of {@link DistributedLock}, through the public
 * API, on the real-time in-memory network, for every algorithm (JSR-166 TCK style: one property per
 * test).
 */
@Timeout(60)
class DistributedLockContractTest {

    /** Shared state that only the lock protects: a plain field, no volatile, no atomics. */
    private static final class Counter {
        long value;
        long lastFence = -1;
        int fenceViolations;
    }

    /** Threads on several nodes incrementing an unsynchronized counter under the lock lose no update, and fences increase. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void mutualExclusion_acrossNodesAndThreads(MutexAlgorithm algorithm) throws Exception {
        int nodes = 3;
        int threadsPerNode = 3;
        int increments = 100;
        Counter counter = new Counter();
        try (InMemoryCluster cluster = new InMemoryCluster(nodes, algorithm)) {
            ExecutorService pool = Executors.newFixedThreadPool(nodes * threadsPerNode);
            List<Future<?>> futures = new ArrayList<>();
            for (int n = 0; n < nodes; n++) {
                DistributedLock lock = cluster.node(n).lock("counter");
                for (int t = 0; t < threadsPerNode; t++) {
                    futures.add(pool.submit(() -> {
                        for (int i = 0; i < increments; i++) {
                            lock.lock();
                            try {
                                long fence = lock.fencingToken();
                                if (fence <= counter.lastFence) {
                                    counter.fenceViolations++;
                                }
                                counter.lastFence = fence;
                                long v = counter.value;
                                Thread.yield();
                                counter.value = v + 1;
                            } finally {
                                lock.unlock();
                            }
                        }
                    }));
                }
            }
            for (Future<?> f : futures) {
                f.get(50, TimeUnit.SECONDS);
            }
            pool.shutdown();
            // The lock's release/acquire chain published the last write to this thread too.
            DistributedLock lock = cluster.node(0).lock("counter");
            lock.lock();
            try {
                assertEquals((long) nodes * threadsPerNode * increments, counter.value);
                assertEquals(0, counter.fenceViolations);
            } finally {
                lock.unlock();
            }
        }
    }

    /** The owner may re-acquire; the hold count follows; only the last unlock lets another node in. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void reentrancy(MutexAlgorithm algorithm) throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(2, algorithm)) {
            DistributedLock a = cluster.node(0).lock("r");
            DistributedLock b = cluster.node(1).lock("r");
            a.lock();
            a.lock();
            assertEquals(2, a.getHoldCount());
            long fence = a.fencingToken();
            a.unlock();
            assertTrue(a.isHeldByCurrentThread());
            assertEquals(fence, a.fencingToken());
            assertFalse(tryLockOnOtherThread(b, 100));
            a.unlock();
            assertFalse(a.isHeldByCurrentThread());
            assertEquals(0, a.getHoldCount());
            assertTrue(tryLockOnOtherThread(b, 10_000));
        }
    }

    /** tryLock(time) returns false when another node holds the lock, and true once it is released. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void tryLock_timeout(MutexAlgorithm algorithm) throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(3, algorithm)) {
            DistributedLock a = cluster.node(0).lock("t");
            DistributedLock b = cluster.node(1).lock("t");
            a.lock();
            assertFalse(b.tryLock(200, TimeUnit.MILLISECONDS));
            assertFalse(b.isHeldByCurrentThread());
            a.unlock();
            assertTrue(b.tryLock(10, TimeUnit.SECONDS));
            b.unlock();
        }
    }

    /** A request abandoned by a timeout does not leak: its late grant is released and the lock stays usable everywhere. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void abandonedRequest_isReleasedWhenGranted(MutexAlgorithm algorithm) throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(3, algorithm)) {
            DistributedLock a = cluster.node(0).lock("abandon");
            DistributedLock b = cluster.node(1).lock("abandon");
            DistributedLock c = cluster.node(2).lock("abandon");
            a.lock();
            assertFalse(b.tryLock(100, TimeUnit.MILLISECONDS)); // b's request stays outstanding
            a.unlock(); // b's request is granted now, to nobody: it must be released
            assertTrue(tryLockOnOtherThread(c, 10_000));
            assertTrue(a.tryLock(10, TimeUnit.SECONDS));
            a.unlock();
            assertTrue(b.tryLock(10, TimeUnit.SECONDS));
            b.unlock();
        }
    }

    /** A thread interrupted while its request is in flight gets InterruptedException, and the lock does not leak. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void lockInterruptibly_interrupted(MutexAlgorithm algorithm) throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(2, algorithm)) {
            DistributedLock a = cluster.node(0).lock("i");
            DistributedLock b = cluster.node(1).lock("i");
            a.lock();
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            CountDownLatch started = new CountDownLatch(1);
            Thread waiter = new Thread(() -> {
                started.countDown();
                try {
                    b.lockInterruptibly();
                    outcome.set(new AssertionError("acquired while another node held the lock"));
                } catch (Throwable t) {
                    outcome.set(t);
                }
            });
            waiter.start();
            started.await();
            await().atMost(Duration.ofSeconds(5)).until(() -> waiter.getState() == Thread.State.WAITING);
            waiter.interrupt();
            waiter.join(5_000);
            assertTrue(outcome.get() instanceof InterruptedException, "got " + outcome.get());
            a.unlock();
            assertTrue(a.tryLock(10, TimeUnit.SECONDS));
            a.unlock();
            assertTrue(tryLockOnOtherThread(b, 10_000));
        }
    }

    /** unlock() by a thread that does not hold the lock throws IllegalMonitorStateException and changes nothing. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void unlock_byNonOwner_throwsIMSE(MutexAlgorithm algorithm) throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(2, algorithm)) {
            DistributedLock a = cluster.node(0).lock("u");
            assertThrows(IllegalMonitorStateException.class, a::unlock);
            a.lock();
            AtomicReference<Throwable> other = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    a.unlock();
                } catch (Throwable e) {
                    other.set(e);
                }
            });
            t.start();
            t.join();
            assertTrue(other.get() instanceof IllegalMonitorStateException, "got " + other.get());
            assertTrue(a.isHeldByCurrentThread());
            assertFalse(tryLockOnOtherThread(cluster.node(1).lock("u"), 100));
            a.unlock();
        }
    }

    /** fencingToken() without holding the lock throws IllegalMonitorStateException; a condition refuses a thread without the lock. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void fencingTokenAndCondition(MutexAlgorithm algorithm) {
        try (InMemoryCluster cluster = new InMemoryCluster(2, algorithm)) {
            DistributedLock a = cluster.node(0).lock("f");
            assertThrows(IllegalMonitorStateException.class, a::fencingToken);
            assertThrows(IllegalMonitorStateException.class, () -> a.newCondition().signal()); // conditions: DistributedConditionTest
            assertTrue(a.tryLock());
            assertTrue(a.fencingToken() > 0);
            a.unlock();
        }
    }

    /** The same name gives the same lock instance; metrics count entries and messages. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void sameInstanceAndMetrics(MutexAlgorithm algorithm) {
        try (InMemoryCluster cluster = new InMemoryCluster(2, algorithm)) {
            DistributedLock a = cluster.node(0).lock("m");
            assertTrue(a == cluster.node(0).lock("m"));
            a.lock();
            a.unlock();
            assertEquals(1, a.metrics().entries());
            assertEquals(algorithm.configName(), a.metrics().algorithm());
        }
    }

    /** Closing a node fails the threads that wait on it with IllegalStateException. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void close_failsWaiters(MutexAlgorithm algorithm) throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(2, algorithm)) {
            DistributedLock a = cluster.node(0).lock("c");
            DistributedLock b = cluster.node(1).lock("c");
            a.lock();
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            AtomicBoolean acquired = new AtomicBoolean();
            Thread waiter = new Thread(() -> {
                try {
                    b.lock();
                    acquired.set(true);
                } catch (Throwable t) {
                    outcome.set(t);
                }
            });
            waiter.start();
            await().atMost(Duration.ofSeconds(5)).until(() -> waiter.getState() == Thread.State.WAITING);
            cluster.node(1).close();
            waiter.join(5_000);
            assertFalse(acquired.get());
            assertTrue(outcome.get() instanceof IllegalStateException, "got " + outcome.get());
            a.unlock();
        }
    }

    private static boolean tryLockOnOtherThread(DistributedLock lock, long millis) throws Exception {
        ExecutorService exec = Executors.newSingleThreadExecutor();
        try {
            return exec.submit(() -> {
                boolean ok = lock.tryLock(millis, TimeUnit.MILLISECONDS);
                if (ok) {
                    lock.unlock();
                }
                return ok;
            }).get(millis + 10_000, TimeUnit.MILLISECONDS);
        } finally {
            exec.shutdownNow();
        }
    }
}
