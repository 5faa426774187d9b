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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link Condition} part of the usual lock test suites, for a distributed lock: across 2 and 3 in-memory
 * nodes, for every algorithm. One scenario per (algorithm, nodes) runs the checks one after the other on one
 * cluster: await/signal across nodes (a new, higher fencing token after the wait; the hold count restored),
 * signalAll across nodes, a timed await that times out (returns false, holds the lock again), an interrupt
 * during await (throws, lock held), and await/signal without the lock (IllegalMonitorStateException).
 */
@Timeout(120)
class DistributedConditionTest {

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    static Stream<Arguments> algorithmsAndSizes() {
        List<Arguments> all = new ArrayList<>();
        for (MutexAlgorithm a : MutexAlgorithm.values()) {
            all.add(Arguments.of(a, 2));
            all.add(Arguments.of(a, 3));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} on {1} nodes")
    @MethodSource("algorithmsAndSizes")
    void conditionContract(MutexAlgorithm algorithm, int n) throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(n, algorithm)) {
            List<DistributedLock> locks = cluster.nodes.stream().map(s -> s.lock("buffer")).toList();
            List<Condition> ready = locks.stream().map(l -> l.newCondition("ready")).toList();
            DistributedLock waiterLock = locks.get(n - 1);
            DistributedLock signallerLock = locks.get(0);

            // await on the last node, signal from the first: the waiter wakes holding the lock again
            AtomicBoolean flag = new AtomicBoolean();
            AtomicInteger holdsAfter = new AtomicInteger();
            long[] tokens = new long[2];
            Future<?> waiter = threads.submit(() -> {
                waiterLock.lock();
                waiterLock.lock(); // hold count 2, restored after the wait
                try {
                    tokens[0] = waiterLock.fencingToken();
                    while (!flag.get()) {
                        ready.get(n - 1).await();
                    }
                    tokens[1] = waiterLock.fencingToken();
                    holdsAfter.set(waiterLock.getHoldCount());
                } finally {
                    waiterLock.unlock();
                    waiterLock.unlock();
                }
                return null;
            });
            await().atMost(Duration.ofSeconds(20)).until(() -> tokens[0] != 0);
            signallerLock.lock(); // possible only because the waiter released the lock
            try {
                flag.set(true);
                ready.get(0).signal();
            } finally {
                signallerLock.unlock();
            }
            waiter.get(20, TimeUnit.SECONDS);
            assertTrue(tokens[1] > tokens[0], "a new grant after the wait: " + tokens[1] + " > " + tokens[0]);
            assertEquals(2, holdsAfter.get(), "hold count restored");

            // signalAll wakes a waiter on every node
            AtomicBoolean go = new AtomicBoolean();
            AtomicInteger waiting = new AtomicInteger();
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                DistributedLock lock = locks.get(i);
                Condition c = ready.get(i);
                all.add(threads.submit(() -> {
                    lock.lock();
                    try {
                        waiting.incrementAndGet();
                        while (!go.get()) {
                            c.await();
                        }
                        assertTrue(lock.isHeldByCurrentThread());
                    } finally {
                        lock.unlock();
                    }
                    return null;
                }));
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> waiting.get() == n);
            Thread.sleep(50); // the last one registered and released (it must, or the lock below waits)
            signallerLock.lock();
            try {
                go.set(true);
                ready.get(0).signalAll();
            } finally {
                signallerLock.unlock();
            }
            for (Future<?> f : all) {
                f.get(20, TimeUnit.SECONDS);
            }

            // a timed await that nobody signals returns false and holds the lock again
            waiterLock.lock();
            try {
                long before = waiterLock.fencingToken();
                assertFalse(ready.get(n - 1).await(100, TimeUnit.MILLISECONDS));
                assertTrue(waiterLock.isHeldByCurrentThread());
                assertTrue(waiterLock.fencingToken() > before);
                assertTrue(ready.get(n - 1).awaitNanos(TimeUnit.MILLISECONDS.toNanos(50)) <= 0);
            } finally {
                waiterLock.unlock();
            }

            // awaitUntil a deadline nobody signals before: false, lock held again
            waiterLock.lock();
            try {
                assertFalse(ready.get(n - 1).awaitUntil(new java.util.Date(System.currentTimeMillis() + 100)));
                assertTrue(waiterLock.isHeldByCurrentThread());
            } finally {
                waiterLock.unlock();
            }

            // awaitUninterruptibly: an interrupt does not end the wait; a signal does, and the interrupt stays set
            AtomicBoolean released = new AtomicBoolean();
            CompletableFuture<Boolean> stillInterrupted = new CompletableFuture<>();
            Thread u = new Thread(() -> {
                waiterLock.lock();
                try {
                    while (!released.get()) {
                        ready.get(n - 1).awaitUninterruptibly();
                    }
                    stillInterrupted.complete(Thread.currentThread().isInterrupted() && waiterLock.isHeldByCurrentThread());
                } finally {
                    waiterLock.unlock();
                }
            });
            u.start();
            assertTrue(signallerLock.tryLock(20, TimeUnit.SECONDS), "the uninterruptible waiter did not release the lock");
            signallerLock.unlock();
            u.interrupt();
            Thread.sleep(50);
            assertFalse(stillInterrupted.isDone(), "an interrupt ended awaitUninterruptibly");
            signallerLock.lock();
            try {
                released.set(true);
                ready.get(0).signalAll();
            } finally {
                signallerLock.unlock();
            }
            assertTrue(stillInterrupted.get(20, TimeUnit.SECONDS), "woken holding the lock, interrupt status kept");

            // an interrupt during await throws InterruptedException with the lock held
            CompletableFuture<Boolean> heldAfterInterrupt = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                waiterLock.lock();
                try {
                    ready.get(n - 1).await();
                    heldAfterInterrupt.complete(false);
                } catch (InterruptedException e) {
                    heldAfterInterrupt.complete(waiterLock.isHeldByCurrentThread());
                } finally {
                    waiterLock.unlock();
                }
            });
            t.start();
            assertTrue(signallerLock.tryLock(20, TimeUnit.SECONDS), "the waiter did not release the lock");
            signallerLock.unlock(); // the waiter released the lock: it waits
            t.interrupt();
            assertTrue(heldAfterInterrupt.get(20, TimeUnit.SECONDS), "InterruptedException thrown with the lock held");

            // without the lock
            assertThrows(IllegalMonitorStateException.class, () -> ready.get(0).await());
            assertThrows(IllegalMonitorStateException.class, () -> ready.get(0).signal());
            assertThrows(IllegalMonitorStateException.class, () -> ready.get(0).signalAll());
            assertThrows(IllegalMonitorStateException.class, () -> ready.get(0).await(1, TimeUnit.MILLISECONDS));
        }
    }

    /** Conditions made in the same order on every node are the same conditions; a bad name is refused. */
    @Test
    void unnamedConditionsMatchByCreationOrder() throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(2, MutexAlgorithm.RICART_AGRAWALA)) {
            DistributedLock a = cluster.node(0).lock("q");
            DistributedLock b = cluster.node(1).lock("q");
            Condition aFirst = a.newCondition();
            Condition aSecond = a.newCondition();
            b.newCondition();
            Condition bSecond = b.newCondition();
            AtomicBoolean done = new AtomicBoolean();
            Future<?> waiter = threads.submit(() -> {
                a.lock();
                try {
                    while (!done.get()) {
                        aSecond.await();
                    }
                } finally {
                    a.unlock();
                }
                return null;
            });
            assertTrue(b.tryLock(10, TimeUnit.SECONDS));
            try {
                done.set(true);
                bSecond.signal();
            } finally {
                b.unlock();
            }
            waiter.get(10, TimeUnit.SECONDS);
            assertTrue(aFirst != aSecond);
            assertThrows(IllegalArgumentException.class, () -> a.newCondition(""));
            assertThrows(IllegalArgumentException.class, () -> a.newCondition("x".repeat(201)));
        }
    }
}
