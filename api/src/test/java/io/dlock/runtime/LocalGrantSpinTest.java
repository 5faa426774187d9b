package io.dlock.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link LocalLockState} with a {@link GrantSpin}: the thread that asked the cluster spins with the mutex let go, so a
 * grant made by another thread meanwhile reaches it; a spin never outlasts the caller's timeout, and gives its slot
 * back however the acquisition ends.
 */
@Timeout(30)
class LocalGrantSpinTest {

    private final AtomicInteger spinning = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger releases = new AtomicInteger();

    @Test
    void aGrantMadeWhileTheAskerSpinsIsTaken() throws Exception {
        CompletableFuture<LocalLockState> state = new CompletableFuture<>();
        LocalLockState s = state(Duration.ofMinutes(1), () -> {
            // the event loop, another thread, grants once the asker spins (the mutex is free: onGranted takes it)
            CompletableFuture.runAsync(() -> {
                awaitTrue(() -> spinning.get() == 1);
                state.join().onGranted(42);
            });
        });
        state.complete(s);
        assertTrue(s.acquire(false, TimeUnit.SECONDS.toNanos(20)));
        assertEquals(42, s.fencingToken());
        assertEquals(0, spinning.get(), "the slot is given back");
        s.release();
        assertEquals(1, requests.get());
        assertEquals(1, releases.get());
    }

    @Test
    void aSpinEndsAtTheCallersTimeout() throws Exception {
        LocalLockState s = state(Duration.ofMinutes(1), () -> { });
        assertFalse(s.acquire(false, TimeUnit.MILLISECONDS.toNanos(50)), "no grant: timed out, not spinning a minute");
        assertEquals(0, spinning.get());
        assertEquals(1, requests.get());
        s.onGranted(9); // the late grant finds nobody waiting: released at once
        assertEquals(1, releases.get());
    }

    @Test
    void withoutASpinTheAskerParksAndIsWoken() throws Exception {
        CompletableFuture<LocalLockState> state = new CompletableFuture<>();
        LocalLockState s = state(Duration.ZERO, () -> CompletableFuture.runAsync(() -> {
            sleepQuietly(20);
            state.join().onGranted(7);
        }));
        state.complete(s);
        assertTrue(s.acquire(false, TimeUnit.SECONDS.toNanos(20)));
        assertEquals(7, s.fencingToken());
        assertEquals(0, spinning.get(), "never took a slot");
        s.release();
    }

    /**
     * A thread that could not spin (every slot taken) let go of the mutex all the same: a grant made in that gap
     * signals nobody, so the thread must look at the state again before it parks, or it waits out its timeout. The
     * grant comes from another thread as fast as it can; thousands of rounds hit the gap.
     */
    @Test
    void aGrantInTheGapOfASpinThatCouldNotStartIsNotLost() throws Exception {
        spinning.set(1); // the one slot is taken: every spin gives up at once, after the mutex was let go
        java.util.concurrent.ExecutorService loop = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<LocalLockState> state = new CompletableFuture<>();
            AtomicInteger fence = new AtomicInteger();
            LocalLockState s = state(Duration.ofMillis(1), () -> loop.execute(() -> state.join().onGranted(fence.incrementAndGet())));
            state.complete(s);
            for (int i = 0; i < 20_000; i++) {
                assertTrue(s.acquire(false, TimeUnit.SECONDS.toNanos(2)), "round " + i + ": the grant was not lost");
                s.release();
            }
        } finally {
            loop.shutdownNow();
        }
    }

    private LocalLockState state(Duration window, Runnable onRequest) {
        LocalLockState.Distributed side = new LocalLockState.Distributed() {
            @Override
            public void request() {
                requests.incrementAndGet();
                onRequest.run();
            }

            @Override
            public void release() {
                releases.incrementAndGet();
            }

            @Override
            public void releaseAndRequest() {
                release();
                request();
            }

            @Override
            public void tryLocally() {
                throw new UnsupportedOperationException("not asked in this test");
            }

            @Override
            public void holdLapsed(LocalLockState.LostHold lost) {
            }
        };
        return new LocalLockState("spun", side, false, 0, LeaseCheck.ALWAYS, HoldExecutors.INLINE,
                new GrantSpin(window, spinning, 1));
    }

    private static void awaitTrue(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
