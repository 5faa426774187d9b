package io.dlock.contract;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.LockHold;
import io.dlock.LockOwnershipLostException;
import io.dlock.MutexAlgorithm;
import io.dlock.OwnershipLoss;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Owner-free holds ({@link LockHold}) and asynchronous acquisition of {@link DistributedLock}, through the public API,
 * on any transport: a hold released from another thread, a cancelled asynchronous acquisition that leaks nothing,
 * holds and threads in one local queue; leases that run out (the holder is told, its token and release fail, the
 * next holder's token is higher) and renewals that keep a hold. A transport's test class says how to
 * {@link #start} a cluster and which {@link #algorithms()} it runs. Every acquisition is bounded
 * ({@link LockContract#ACQUIRE_TIMEOUT}).
 *
 * @param <C> the transport's cluster
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class HoldContract<C extends LockCluster> {

    /** How long a test waits for something that must happen (never an assertion on speed). */
    protected static final Duration PATIENCE = Duration.ofSeconds(30);

    /** A fresh cluster of {@code n} nodes running {@code algorithm}, every node in one view. */
    protected abstract C start(int n, MutexAlgorithm algorithm);

    /** The algorithms of the tests: every registered one unless a transport says otherwise. */
    protected Stream<MutexAlgorithm> algorithms() {
        return Stream.of(MutexAlgorithm.values());
    }

    /**
     * A hold taken on one thread is released on another: the lock is then free for another node, whose token is
     * higher; the released hold no longer holds, and a second release or a token read fails.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void hold_releasedFromAnotherThread(MutexAlgorithm algorithm) throws Exception {
        try (C cluster = start(3, algorithm)) {
            DistributedLock a = cluster.node(0).lock("hold");
            DistributedLock b = cluster.node(1).lock("hold");
            LockHold hold = a.tryAcquire(LockContract.ACQUIRE_TIMEOUT).orElseThrow();
            assertTrue(hold.isHeld());
            assertEquals("hold", hold.lockName());
            long token = hold.fencingToken();
            assertFalse(a.isHeldByCurrentThread(), "a hold belongs to no thread");
            assertFalse(tryLockOnOtherThread(b, 100), "another node got the lock while the hold held it");

            onAnotherThread(() -> {
                assertEquals(token, hold.fencingToken(), "any thread reads the hold's token");
                hold.release();
            });
            assertFalse(hold.isHeld());
            assertThrows(IllegalMonitorStateException.class, hold::release, "released twice");
            assertThrows(IllegalMonitorStateException.class, hold::fencingToken);

            LockContract.acquire(cluster, b);
            try {
                assertTrue(b.fencingToken() > token, "next token " + b.fencingToken() + " not above " + token);
            } finally {
                b.unlock();
            }
        }
    }

    /**
     * An asynchronous acquisition cancelled while another node holds the lock leaves nothing behind: its request's
     * late grant goes back, so a third node gets the lock, and so does the cancelling node afterwards.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void asyncAcquisition_cancelledMidWait_leaksNothing(MutexAlgorithm algorithm) throws Exception {
        try (C cluster = start(3, algorithm)) {
            DistributedLock a = cluster.node(0).lock("async");
            DistributedLock b = cluster.node(1).lock("async");
            DistributedLock c = cluster.node(2).lock("async");
            LockContract.acquire(cluster, a);
            CompletableFuture<LockHold> pending = b.acquireAsync();
            await().atMost(PATIENCE).until(() -> b.metrics().waitingThreads() == 1);
            assertFalse(pending.isDone(), "granted while another node held the lock");
            assertTrue(pending.cancel(true));
            await().atMost(PATIENCE).until(() -> b.metrics().waitingThreads() == 0);
            a.unlock(); // b's request may be granted now, to nobody: it must go back

            assertTrue(tryLockOnOtherThread(c, LockContract.ACQUIRE_TIMEOUT.toMillis()), "the lock leaked");
            LockHold again = b.acquireAsync().get(LockContract.ACQUIRE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            again.release();
            assertTrue(tryLockOnOtherThread(a, LockContract.ACQUIRE_TIMEOUT.toMillis()), "the lock leaked");
        }
    }

    /**
     * Asynchronous acquisitions cancelled at any moment, some of them as they are granted, under contention from
     * another node: none leaks its grant, and the holds that were handed over are released by their future's
     * owner; afterwards every node gets the lock.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void asyncAcquisitions_cancelledAtAnyMoment_leakNothing(MutexAlgorithm algorithm) throws Exception {
        try (C cluster = start(2, algorithm)) {
            DistributedLock a = cluster.node(0).lock("race");
            DistributedLock b = cluster.node(1).lock("race");
            List<CompletableFuture<LockHold>> futures = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                CompletableFuture<LockHold> f = b.acquireAsync();
                futures.add(f);
                if (i % 2 == 0) {
                    if (!f.cancel(false)) {
                        f.join().release(); // granted before the cancel: the hold is the test's to release
                    }
                } else {
                    f.thenAccept(LockHold::release);
                }
                LockContract.acquire(cluster, a);
                a.unlock();
            }
            for (CompletableFuture<LockHold> f : futures) {
                try {
                    f.get(LockContract.ACQUIRE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                } catch (java.util.concurrent.CancellationException cancelled) {
                    // what half of them were meant to be
                }
            }
            await().atMost(PATIENCE).until(() -> b.metrics().waitingThreads() == 0);
            assertTrue(tryLockOnOtherThread(a, LockContract.ACQUIRE_TIMEOUT.toMillis()), "the lock leaked");
            assertTrue(tryLockOnOtherThread(b, LockContract.ACQUIRE_TIMEOUT.toMillis()), "the lock leaked");
        }
    }

    /**
     * On one node, threads and holds queue together in arrival order: a hold asked for before a thread's
     * {@code lock()} is granted first, and the thread waits until the hold is released; tokens increase.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void holdsAndThreads_queueTogetherInArrivalOrder(MutexAlgorithm algorithm) throws Exception {
        try (C cluster = start(2, algorithm)) {
            DistributedLock a = cluster.node(0).lock("queue");
            LockContract.acquire(cluster, a);
            long first = a.fencingToken();
            CompletableFuture<LockHold> hold = a.acquireAsync();
            await().atMost(PATIENCE).until(() -> a.metrics().waitingThreads() == 1);
            AtomicLong threadToken = new AtomicLong(-1);
            ExecutorService thread = Executors.newSingleThreadExecutor();
            try {
                var locked = thread.submit(() -> {
                    a.lock();
                    try {
                        threadToken.set(a.fencingToken());
                    } finally {
                        a.unlock();
                    }
                    return null;
                });
                await().atMost(PATIENCE).until(() -> a.metrics().waitingThreads() == 2);
                a.unlock();
                LockHold h = hold.get(LockContract.ACQUIRE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                long holdToken = h.fencingToken();
                assertTrue(holdToken > first, "hold token " + holdToken + " not above " + first);
                assertFalse(locked.isDone(), "the thread that came later got in before the hold was released");
                assertEquals(-1, threadToken.get());
                h.release();
                locked.get(LockContract.ACQUIRE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                assertTrue(threadToken.get() > holdToken, "thread token " + threadToken + " not above " + holdToken);
            } finally {
                thread.shutdownNow();
            }
        }
    }

    /** Closing a node fails its pending asynchronous acquisitions with IllegalStateException. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void close_failsPendingAsyncAcquisitions(MutexAlgorithm algorithm) throws Exception {
        try (C cluster = start(2, algorithm)) {
            DistributedLock a = cluster.node(0).lock("closing");
            DistributedLock b = cluster.node(1).lock("closing");
            LockContract.acquire(cluster, a);
            CompletableFuture<LockHold> pending = b.acquireAsync();
            await().atMost(PATIENCE).until(() -> b.metrics().waitingThreads() == 1);
            cluster.node(1).close();
            ExecutionException failed = assertThrows(ExecutionException.class,
                    () -> pending.get(LockContract.ACQUIRE_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
            assertTrue(failed.getCause() instanceof IllegalStateException, "got " + failed.getCause());
            assertThrows(IllegalStateException.class, b::acquireAsync);
            a.unlock();
        }
    }

    /**
     * A thread's lease runs out before it unlocks: its listener is told (lease expired, this thread), it no longer
     * holds the lock, its token read and unlock throw LockOwnershipLostException, and another node gets the lock,
     * with a higher token, before the first one has unlocked; its unlocks count the lost hold down.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void threadLease_runsOut_theHoldIsLostAndTheLockMovesOn(MutexAlgorithm algorithm) throws Exception {
        try (C cluster = start(3, algorithm)) {
            DistributedLock a = cluster.node(0).lock("lease");
            DistributedLock b = cluster.node(1).lock("lease");
            List<OwnershipLoss> told = new CopyOnWriteArrayList<>();
            a.addOwnershipListener(told::add);
            assertTrue(a.tryLock(LockContract.ACQUIRE_TIMEOUT, Duration.ofMillis(200)));
            a.lock(); // a plain re-entry keeps the lease: two holds to count down
            await().atMost(PATIENCE).until(() -> told.size() == 1);
            OwnershipLoss loss = told.get(0);
            assertEquals(OwnershipLoss.Cause.LEASE_EXPIRED, loss.cause());
            assertEquals("lease", loss.lockName());
            assertSame(Thread.currentThread(), loss.holder());
            assertNull(loss.hold());

            assertFalse(a.isHeldByCurrentThread());
            assertEquals(0, a.getHoldCount());
            LockOwnershipLostException onToken = assertThrows(LockOwnershipLostException.class, a::fencingToken);
            assertEquals(loss.fencingToken(), onToken.fencingToken());
            assertThrows(LockOwnershipLostException.class, () -> a.renew(Duration.ofSeconds(1)));
            assertThrows(LockOwnershipLostException.class, a::lock, "must unlock the lost hold first");

            LockContract.acquire(cluster, b); // the lock went back although a has not unlocked
            try {
                assertTrue(b.fencingToken() > loss.fencingToken(),
                        "next token " + b.fencingToken() + " not above " + loss.fencingToken());
            } finally {
                b.unlock();
            }
            assertThrows(LockOwnershipLostException.class, a::unlock);
            assertThrows(LockOwnershipLostException.class, a::unlock);
            IllegalMonitorStateException after = assertThrows(IllegalMonitorStateException.class, a::unlock);
            assertFalse(after instanceof LockOwnershipLostException, "the lost hold is over: a plain non-owner error");
            LockContract.acquire(cluster, a);
            a.unlock();
            assertEquals(1, told.size(), "one loss, told once");
        }
    }

    /**
     * A hold taken asynchronously with a long lease, renewed to a short one, runs out: the listener is told of that
     * hold, its token read, renewal and release throw LockOwnershipLostException, and another node gets the lock with
     * a higher token.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void holdLease_renewedShorter_runsOut(MutexAlgorithm algorithm) throws Exception {
        try (C cluster = start(3, algorithm)) {
            DistributedLock a = cluster.node(0).lock("hold-lease");
            DistributedLock b = cluster.node(1).lock("hold-lease");
            List<OwnershipLoss> told = new CopyOnWriteArrayList<>();
            a.addOwnershipListener(told::add);
            LockHold hold = a.acquireAsync(Duration.ofSeconds(60))
                    .get(LockContract.ACQUIRE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            long token = hold.fencingToken();
            hold.renew(Duration.ofMillis(100));
            await().atMost(PATIENCE).until(() -> told.size() == 1);
            OwnershipLoss loss = told.get(0);
            assertEquals(OwnershipLoss.Cause.LEASE_EXPIRED, loss.cause());
            assertSame(hold, loss.hold());
            assertNull(loss.holder());
            assertEquals(token, loss.fencingToken());
            assertFalse(hold.isHeld());
            assertEquals(token, assertThrows(LockOwnershipLostException.class, hold::fencingToken).fencingToken());
            assertThrows(LockOwnershipLostException.class, () -> hold.renew(Duration.ofSeconds(1)));

            LockContract.acquire(cluster, b);
            try {
                assertTrue(b.fencingToken() > token, "next token " + b.fencingToken() + " not above " + token);
            } finally {
                b.unlock();
            }
            onAnotherThread(() -> assertThrows(LockOwnershipLostException.class, hold::release));
            assertThrows(IllegalMonitorStateException.class, hold::release);
        }
    }

    /**
     * Renewal extends a live hold past its first lease, for a thread and for a hold: both still hold the lock, with
     * the same token, after the first lease would have ended; nobody is told of a loss, and the releases succeed.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void renewal_keepsTheHoldPastItsFirstLease(MutexAlgorithm algorithm) throws Exception {
        try (C cluster = start(2, algorithm)) {
            DistributedLock a = cluster.node(0).lock("renewed");
            DistributedLock b = cluster.node(1).lock("renewed-too");
            List<OwnershipLoss> told = new CopyOnWriteArrayList<>();
            a.addOwnershipListener(told::add);
            b.addOwnershipListener(told::add);
            Duration first = Duration.ofSeconds(2);
            assertTrue(a.tryLock(LockContract.ACQUIRE_TIMEOUT, first));
            long token = a.fencingToken();
            a.renew(Duration.ofSeconds(60));
            LockHold hold = b.tryAcquire(LockContract.ACQUIRE_TIMEOUT, first).orElseThrow();
            long holdToken = hold.fencingToken();
            hold.renew(Duration.ofSeconds(60));

            await().pollInSameThread().during(first.plusMillis(500)).atMost(first.plusSeconds(30))
                    .until(() -> a.isHeldByCurrentThread() && hold.isHeld());
            assertEquals(token, a.fencingToken());
            assertEquals(holdToken, hold.fencingToken());
            assertTrue(told.isEmpty(), "a renewed hold was lost: " + told);
            a.unlock();
            hold.release();
        }
    }

    /** Bad leases and waits are refused with IllegalArgumentException or NullPointerException, and change nothing. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("firstAlgorithm")
    void badDurations_areRefused(MutexAlgorithm algorithm) throws Exception {
        try (C cluster = start(2, algorithm)) {
            DistributedLock a = cluster.node(0).lock("args");
            for (Duration bad : List.of(Duration.ZERO, Duration.ofMillis(-1), DistributedLock.MAX_LEASE.plusNanos(1))) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.lock(bad));
                assertTrue(e.getMessage().contains("lease") && e.getMessage().contains(bad.toString()), e.getMessage());
                assertThrows(IllegalArgumentException.class, () -> a.tryLock(Duration.ZERO, bad));
                assertThrows(IllegalArgumentException.class, () -> a.acquire(bad));
                assertThrows(IllegalArgumentException.class, () -> a.tryAcquire(Duration.ZERO, bad));
                assertThrows(IllegalArgumentException.class, () -> a.acquireAsync(bad));
                assertThrows(IllegalArgumentException.class, () -> a.renew(bad));
            }
            assertThrows(NullPointerException.class, () -> a.lock(null));
            assertThrows(NullPointerException.class, () -> a.tryLock(null, Duration.ofSeconds(1)));
            assertThrows(NullPointerException.class, () -> a.acquireAsync(null));
            IllegalArgumentException negativeWait = assertThrows(IllegalArgumentException.class,
                    () -> a.tryAcquire(Duration.ofSeconds(-1)));
            assertTrue(negativeWait.getMessage().contains("wait"), negativeWait.getMessage());
            assertThrows(IllegalMonitorStateException.class, () -> a.renew(Duration.ofSeconds(1)), "renew, not held");
            assertFalse(a.isHeldByCurrentThread());
            assertEquals(0, a.metrics().waitingThreads());
            a.lock(DistributedLock.MAX_LEASE); // the longest lease is allowed
            a.unlock();
        }
    }

    /** The first of {@link #algorithms()}: argument checks do not depend on the algorithm. */
    protected Stream<MutexAlgorithm> firstAlgorithm() {
        return algorithms().limit(1);
    }

    /** Runs {@code action} on a new thread and rethrows what it threw. */
    protected static void onAnotherThread(Runnable action) throws Exception {
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        Thread t = new Thread(() -> {
            try {
                action.run();
            } catch (Throwable e) {
                failures.add(e);
            }
        });
        t.start();
        t.join(PATIENCE.toMillis());
        assertFalse(t.isAlive(), "the other thread did not finish");
        if (!failures.isEmpty()) {
            throw new AssertionError("on another thread", failures.get(0));
        }
    }

    /** Whether another thread gets {@code lock} within {@code millis} (releasing it at once if so). */
    protected static boolean tryLockOnOtherThread(DistributedLock lock, long millis) throws Exception {
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
