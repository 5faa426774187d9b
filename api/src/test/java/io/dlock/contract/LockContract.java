package io.dlock.contract;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.LockService;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link java.util.concurrent.locks.Lock} contract of {@link DistributedLock}, through the public API, on any
 * transport (JSR-166 TCK style: one property per test), and mutual exclusion of a plain counter across nodes and
 * threads with increasing fencing tokens. A transport's test class says how to {@link #start} a cluster and which
 * {@link #algorithms()} and {@link #counterRuns()} it runs; it may check more around the counter run
 * ({@link #beforeCounting}, {@link #afterCounting}). Every acquisition is bounded, so a lost grant fails the test
 * with every node's view and metrics instead of hanging the build.
 *
 * @param <C> the transport's cluster
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class LockContract<C extends LockCluster> {

    /** How long one acquisition may take before the test fails with the cluster's state (never a hang). */
    public static final Duration ACQUIRE_TIMEOUT = Duration.ofSeconds(60);
    /** How long the counter run's threads may take, all together. */
    private static final long COUNTING_TIMEOUT_S = 100;

    /** Shared state that only the lock protects: plain fields, no volatile, no atomics. */
    private static final class Counter {
        long value;
        long lastFence = -1;
        int fenceViolations;
    }

    /** A fresh cluster of {@code n} nodes running {@code algorithm}, every node in one view. */
    protected abstract C start(int n, MutexAlgorithm algorithm);

    /** The algorithms of the Lock-contract tests: every registered one unless a transport says otherwise. */
    protected Stream<MutexAlgorithm> algorithms() {
        return Stream.of(MutexAlgorithm.values());
    }

    /** (algorithm, N) of {@link #mutualExclusion_acrossNodesAndThreads}: each of {@link #algorithms()} at N = 3. */
    protected Stream<Arguments> counterRuns() {
        return algorithms().map(a -> Arguments.of(a, 3));
    }

    /** Threads per node of the counter run. */
    protected int threadsPerNode() {
        return 3;
    }

    /** Increments each thread of the counter run makes. */
    protected int incrementsPerThread() {
        return 100;
    }

    /** Called once every node has used the lock "counter" once, just before the counter run; nothing by default. */
    protected void beforeCounting(C cluster, MutexAlgorithm algorithm) {
    }

    /**
     * Called after the counter run and its checks, with the entries since {@link #beforeCounting} (the run's, and
     * the final check's by node 0 alone); nothing by default.
     */
    protected void afterCounting(C cluster, MutexAlgorithm algorithm, long entries) {
    }

    /**
     * Several threads per node increment a plain counter under the lock: no update is lost (the lock's
     * release/acquire chain publishes every write), and fencing tokens strictly increase.
     */
    @ParameterizedTest(name = "{0} N={1}")
    @MethodSource("counterRuns")
    void mutualExclusion_acrossNodesAndThreads(MutexAlgorithm algorithm, int n) throws Exception {
        int threads = threadsPerNode();
        int increments = incrementsPerThread();
        try (C cluster = start(n, algorithm)) {
            // Warm-up: every node creates the lock and uses it once, so start-up traffic (state queries of
            // lazily created protocols) is over before the run.
            for (LockService node : cluster.nodes()) {
                DistributedLock lock = node.lock("counter");
                acquire(cluster, lock);
                lock.unlock();
            }
            beforeCounting(cluster, algorithm);
            Counter counter = new Counter();
            ExecutorService pool = Executors.newFixedThreadPool(n * threads);
            List<Future<?>> futures = new ArrayList<>();
            for (LockService node : cluster.nodes()) {
                DistributedLock lock = node.lock("counter");
                for (int t = 0; t < threads; t++) {
                    futures.add(pool.submit(() -> {
                        for (int i = 0; i < increments; i++) {
                            acquire(cluster, lock);
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
                f.get(COUNTING_TIMEOUT_S, TimeUnit.SECONDS);
            }
            pool.shutdown();
            // The lock's release/acquire chain published the last write to this thread too.
            DistributedLock lock = cluster.node(0).lock("counter");
            acquire(cluster, lock);
            long finalValue;
            int violations;
            try {
                finalValue = counter.value;
                violations = counter.fenceViolations;
            } finally {
                lock.unlock();
            }
            assertEquals((long) n * threads * increments, finalValue);
            assertEquals(0, violations);
            afterCounting(cluster, algorithm, (long) n * threads * increments + 1);
        }
    }

    /** The owner may re-acquire; the hold count follows; only the last unlock lets another node in. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void reentrancy(MutexAlgorithm algorithm) throws Exception {
        try (C cluster = start(2, algorithm)) {
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
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void tryLock_timeout(MutexAlgorithm algorithm) throws Exception {
        try (C cluster = start(3, algorithm)) {
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
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void abandonedRequest_isReleasedWhenGranted(MutexAlgorithm algorithm) throws Exception {
        try (C cluster = start(3, algorithm)) {
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
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void lockInterruptibly_interrupted(MutexAlgorithm algorithm) throws Exception {
        try (C cluster = start(2, algorithm)) {
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
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void unlock_byNonOwner_throwsIMSE(MutexAlgorithm algorithm) throws Exception {
        try (C cluster = start(2, algorithm)) {
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
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void fencingTokenAndCondition(MutexAlgorithm algorithm) {
        try (C cluster = start(2, algorithm)) {
            DistributedLock a = cluster.node(0).lock("f");
            assertThrows(IllegalMonitorStateException.class, a::fencingToken);
            assertThrows(IllegalMonitorStateException.class, () -> a.newCondition().signal()); // conditions: DistributedConditionTest
            assertTrue(a.tryLock());
            assertTrue(a.fencingToken() > 0);
            a.unlock();
        }
    }

    /** The same name gives the same lock instance; metrics count entries and messages. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void sameInstanceAndMetrics(MutexAlgorithm algorithm) {
        try (C cluster = start(2, algorithm)) {
            DistributedLock a = cluster.node(0).lock("m");
            assertTrue(a == cluster.node(0).lock("m"));
            a.lock();
            a.unlock();
            assertEquals(1, a.metrics().entries());
            assertEquals(algorithm.configName(), a.metrics().algorithm());
        }
    }

    /** Closing a node fails the threads that wait on it with IllegalStateException. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void close_failsWaiters(MutexAlgorithm algorithm) throws Exception {
        try (C cluster = start(2, algorithm)) {
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

    /**
     * Acquires {@code lock} within {@link #ACQUIRE_TIMEOUT}, or fails naming the lock, the views and the metrics of
     * every node of {@code cluster}, so a lost grant shows up as a readable failure instead of a hung build.
     */
    public static void acquire(LockCluster cluster, DistributedLock lock) {
        try {
            if (lock.tryLock(ACQUIRE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while acquiring " + lock.name(), e);
        }
        StringBuilder state = new StringBuilder();
        for (LockService node : cluster.nodes()) {
            state.append("\n  ").append(node.nodeId()).append(" view ").append(node.view())
                    .append(" metrics ").append(node.metrics());
        }
        throw new AssertionError("lock '" + lock.name() + "' not granted within " + ACQUIRE_TIMEOUT.toSeconds()
                + " s; nodes:" + state);
    }

    /** Whether another thread gets {@code lock} within {@code millis} (releasing it at once if so). */
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
