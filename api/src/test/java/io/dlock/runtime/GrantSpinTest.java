package io.dlock.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link GrantSpin}: what ends a spin (the condition, the window, the deadline, an interrupt) and how many threads
 * may spin at once. Windows that must not be what ends a spin are a minute long, beyond the test's timeout.
 */
@Timeout(30)
class GrantSpinTest {

    private static final Duration MINUTE = Duration.ofMinutes(1);
    private final AtomicInteger spinning = new AtomicInteger();

    @Test
    void aZeroWindowNeverSpins() {
        assertFalse(GrantSpin.NEVER.spinWhile(() -> true, 0));
        assertFalse(new GrantSpin(Duration.ZERO, spinning, 4).spinWhile(() -> true, 0));
        assertEquals(0, spinning.get());
    }

    @Test
    void endsWhenTheThreadNoLongerWaits() throws Exception {
        AtomicBoolean waiting = new AtomicBoolean(true);
        Thread granter = new Thread(() -> {
            sleep(20);
            waiting.set(false);
        });
        granter.start();
        assertTrue(new GrantSpin(MINUTE, spinning, 1).spinWhile(waiting::get, 0), "spun until the grant came");
        assertFalse(waiting.get());
        granter.join();
        assertEquals(0, spinning.get(), "its slot is given back");
    }

    @Test
    void endsAtTheWindow() {
        long start = System.nanoTime();
        assertTrue(new GrantSpin(Duration.ofMillis(20), spinning, 1).spinWhile(() -> true, 0));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(20), "not before the window");
    }

    @Test
    void endsAtTheCallersDeadlineBeforeTheWindow() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
        assertTrue(new GrantSpin(MINUTE, spinning, 1).spinWhile(() -> true, deadline));
        assertTrue(System.nanoTime() - deadline >= 0, "not before the deadline");
    }

    @Test
    void endsAtAnInterruptAndKeepsIt() {
        Thread me = Thread.currentThread();
        Thread interrupter = new Thread(() -> {
            sleep(20);
            me.interrupt();
        });
        interrupter.start();
        assertTrue(new GrantSpin(MINUTE, spinning, 1).spinWhile(() -> true, 0));
        assertTrue(Thread.interrupted(), "the interrupt is left for the wait that follows");
    }

    @Test
    void noMoreThreadsSpinThanSlots() throws Exception {
        GrantSpin spin = new GrantSpin(MINUTE, spinning, 1);
        AtomicBoolean firstWaits = new AtomicBoolean(true);
        CountDownLatch firstSpins = new CountDownLatch(1);
        Thread first = new Thread(() -> spin.spinWhile(() -> {
            firstSpins.countDown();
            return firstWaits.get();
        }, 0));
        first.start();
        assertTrue(firstSpins.await(10, TimeUnit.SECONDS));
        assertFalse(spin.spinWhile(() -> true, 0), "the one slot is taken: park at once");
        assertEquals(1, spinning.get());
        firstWaits.set(false);
        first.join(10_000);
        assertEquals(0, spinning.get());
        assertTrue(spin.spinWhile(new AtomicBoolean()::get, 0), "the slot is free again");
    }

    @Test
    void aNegativeWindowIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new GrantSpin(Duration.ofNanos(-1)));
        assertTrue(e.getMessage().contains("PT-0.000000001S"), e.getMessage());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
