package io.dlock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The stall dump: every thread's whole stack, once: the waiting
 * thread, what it waits on and who owns it, and what the owner holds.
 */
@Timeout(30)
class StallDumpTest {

    /** Parks {@code depth} frames deep, so that the stack is longer than the eight frames ThreadInfo prints. */
    private static void waitDeep(int depth, ReentrantLock lock, CountDownLatch waiting) {
        if (depth > 0) {
            waitDeep(depth - 1, lock, waiting);
            return;
        }
        waiting.countDown();
        lock.lock();
        lock.unlock();
    }

    @Test
    void theFirstStallWritesEveryThreadsWholeStackOnce() throws Exception {
        ReentrantLock held = new ReentrantLock();
        held.lock();
        CountDownLatch waiting = new CountDownLatch(1);
        Thread waiter = new Thread(() -> waitDeep(20, held, waiting), "stalled-waiter");
        try {
            waiter.start();
            waiting.await();
            while (!held.hasQueuedThread(waiter)) {
                Thread.onSpinWait();
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            StallDump dump = new StallDump(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            dump.stalled("a lock was not granted within 2 s");
            String text = bytes.toString(StandardCharsets.UTF_8);
            assertTrue(text.startsWith("a lock was not granted within 2 s; every thread of this JVM at that moment:"),
                    text);
            String waiterPart = text.substring(text.indexOf("\"stalled-waiter\""));
            waiterPart = waiterPart.substring(0, waiterPart.indexOf("\n\n"));
            assertTrue(waiterPart.lines().findFirst().orElseThrow().matches(
                    "\"stalled-waiter\" #\\d+ WAITING on java.util.concurrent.locks.ReentrantLock\\$NonfairSync@\\w+ "
                            + "owned by \"" + Thread.currentThread().getName() + "\""), waiterPart);
            assertTrue(waiterPart.lines().filter(l -> l.contains("StallDumpTest.waitDeep")).count() > 20, waiterPart);
            assertTrue(text.contains("- holds java.util.concurrent.locks.ReentrantLock$NonfairSync"), text);
            int written = bytes.size();
            dump.stalled("again");
            assertEquals(written, bytes.size(), "written once");
        } finally {
            held.unlock();
            waiter.join();
        }
    }
}
