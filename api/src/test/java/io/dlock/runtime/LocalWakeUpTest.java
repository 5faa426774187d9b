package io.dlock.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link LocalLockState} with a protocol that answers on the calling thread, as the runtime's event loop does when it
 * runs on the caller's thread: a grant that arrives inside {@code issueRequest} is taken at once, and a holder that
 * releases while other local threads wait asks again for them before anyone wakes.
 */
@Timeout(30)
class LocalWakeUpTest {

    private final List<String> calls = Collections.synchronizedList(new ArrayList<>());

    @Test
    void aGrantGivenInsideTheRequestIsTakenWithoutWaiting() throws Exception {
        LocalLockState[] s = new LocalLockState[1];
        long[] fence = {0};
        s[0] = new LocalLockState(() -> {
            calls.add("request");
            s[0].onGranted(++fence[0]); // the token is here: granted on the caller's thread, inside the request
        }, () -> calls.add("release"), 0);
        for (int i = 0; i < 3; i++) {
            assertTrue(s[0].acquire(false, -1), "no wait: the grant came with the request");
            assertEquals(i + 1, s[0].fencingToken());
            s[0].release();
        }
        assertEquals(List.of("request", "release", "request", "release", "request", "release"), calls);
    }

    @Test
    void aReleaseWithLocalWaitersAsksAgainForThem() throws Exception {
        LocalLockState state = new LocalLockState(() -> calls.add("request"), () -> calls.add("release"), 0);
        Thread first = new Thread(() -> acquireAndHoldUntilInterrupted(state));
        first.start();
        awaitCalls(1);
        state.onGranted(10);
        awaitHeld(state, 0);
        Thread second = new Thread(() -> {
            try {
                if (state.acquire(false, TimeUnit.SECONDS.toNanos(10))) {
                    calls.add("second holds " + state.fencingToken());
                    state.release();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        second.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (state.queueLength() < 1 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(List.of("request"), calls, "the second thread waits behind the node's one request");
        first.interrupt(); // the first holder releases
        first.join(10_000);
        assertEquals(List.of("request", "release", "request"), calls,
                "the release asks again at once for the waiting thread, which has not woken");
        state.onGranted(11);
        second.join(10_000);
        assertEquals(List.of("request", "release", "request", "second holds 11", "release"), calls);
    }

    private void acquireAndHoldUntilInterrupted(LocalLockState state) {
        try {
            state.acquire(false, -1);
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                // release
            }
            state.release();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void awaitCalls(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (calls.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(n, calls.size(), calls::toString);
    }

    private static void awaitHeld(LocalLockState state, int queued) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while ((state.idle() || state.queueLength() != queued) && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(queued, state.queueLength());
    }
}
