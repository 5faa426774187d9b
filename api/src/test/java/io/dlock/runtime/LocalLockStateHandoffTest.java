package io.dlock.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Local hand-off in {@link LocalLockState} ({@code dlock.lock.local-handoff}), driven without a
 * network: a single "event loop" thread plays the protocol and grants every request with the next
 * protocol token 10, 11, 12, ...
 */
@Timeout(30)
class LocalLockStateHandoffTest {

    private final ExecutorService loop = Executors.newSingleThreadExecutor();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger releases = new AtomicInteger();
    private final AtomicLong protocolFence = new AtomicLong(9);
    private final List<Long> fences = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    @AfterEach
    void tearDown() throws InterruptedException {
        for (Thread t : threads) {
            t.interrupt();
            t.join(5_000);
        }
        loop.shutdownNow();
        assertTrue(loop.awaitTermination(5, TimeUnit.SECONDS));
    }

    private LocalLockState state(int handoffs) {
        LocalLockState[] holder = new LocalLockState[1];
        holder[0] = new LocalLockState(() -> {
            requests.incrementAndGet();
            loop.execute(() -> holder[0].onGranted(protocolFence.incrementAndGet()));
        }, releases::incrementAndGet, handoffs);
        return holder[0];
    }

    /** Holds the lock, starts {@code waiters} threads that each take it once, and releases it when all of them wait. */
    private void holdThenQueue(LocalLockState s, int waiters) throws Exception {
        assertTrue(s.acquire(true, TimeUnit.SECONDS.toNanos(10)));
        record(s);
        for (int i = 0; i < waiters; i++) {
            Thread t = new Thread(() -> {
                try {
                    if (s.acquire(true, TimeUnit.SECONDS.toNanos(10))) {
                        record(s);
                        s.release();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "waiter-" + i);
            threads.add(t);
            t.start();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (s.queueLength() < waiters && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(waiters, s.queueLength(), "waiters queued");
        s.release();
        for (Thread t : threads) {
            t.join(10_000);
            assertTrue(!t.isAlive(), t.getName() + " finished");
        }
    }

    private void record(LocalLockState s) {
        synchronized (fences) {
            fences.add(s.fencingToken());
        }
    }

    /** With H = 2 one grant serves at most three holders in a row; tokens are F*(H+1)+k and strictly increase. */
    @Test
    void handoffBoundAndFences() throws Exception {
        LocalLockState s = state(2);
        holdThenQueue(s, 3);
        // grant 10: holders 30, 31, 32 (two hand-offs), then released to the cluster; grant 11: 33
        assertEquals(List.of(30L, 31L, 32L, 33L), fences);
        assertEquals(2, requests.get(), "distributed requests");
        assertEquals(2, releases.get(), "distributed releases");
        assertEquals(2, s.localHandoffs());
    }

    /** With H = 0 (the default) every holder has its own distributed grant and the protocol's own token. */
    @Test
    void noHandoffByDefault() throws Exception {
        LocalLockState s = state(0);
        holdThenQueue(s, 3);
        assertEquals(List.of(10L, 11L, 12L, 13L), fences);
        assertEquals(4, requests.get());
        assertEquals(4, releases.get());
        assertEquals(0, s.localHandoffs());
    }

    /** A waiter that gave up before the release gets no hand-off: the grant goes back to the cluster. */
    @Test
    void noHandoffToAWaiterThatLeft() throws Exception {
        LocalLockState s = state(5);
        assertTrue(s.acquire(true, TimeUnit.SECONDS.toNanos(10)));
        Thread waiter = new Thread(() -> {
            try {
                s.acquire(true, TimeUnit.SECONDS.toNanos(30));
            } catch (InterruptedException e) {
                // expected: gives up
            }
        });
        threads.add(waiter);
        waiter.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (s.queueLength() < 1 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        waiter.interrupt();
        waiter.join(10_000);
        s.release();
        assertEquals(1, releases.get(), "released to the cluster, nobody left locally");
    }

    /** A negative bound is refused. */
    @Test
    void negativeBound() {
        assertThrows(IllegalArgumentException.class, () -> new LocalLockState(() -> { }, () -> { }, -1));
    }
}
