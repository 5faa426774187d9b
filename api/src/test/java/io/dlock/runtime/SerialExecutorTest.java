package io.dlock.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The lock's event loop: runs on a borrowed thread when idle, one task at a time, in order. */
class SerialExecutorTest {

    @Test
    void anIdleLoopRunsTheTaskOnTheCallingThread() {
        SerialExecutor loop = new SerialExecutor(task -> {
            throw new AssertionError("the pool must not be used");
        });
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        loop.runOrQueue(() -> ranOn.set(Thread.currentThread()));
        assertSame(Thread.currentThread(), ranOn.get());
    }

    @Test
    void aTaskSubmittedFromATaskRunsAfterItNotNested() {
        SerialExecutor loop = new SerialExecutor(Runnable::run);
        List<String> order = new ArrayList<>();
        loop.runOrQueue(() -> {
            order.add("outer start");
            loop.runOrQueue(() -> order.add("inner"));
            order.add("outer end");
        });
        assertEquals(List.of("outer start", "outer end", "inner"), order);
    }

    @Test
    void aBusyLoopQueuesAndTheRunningThreadRunsItInOrder() throws Exception {
        SerialExecutor loop = new SerialExecutor(task -> {
            throw new AssertionError("the pool must not be used");
        });
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch queued = new CountDownLatch(1);
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        List<Thread> ranOn = Collections.synchronizedList(new ArrayList<>());
        Thread owner = new Thread(() -> loop.runOrQueue(() -> {
            order.add("first");
            inside.countDown();
            await(queued);
        }));
        owner.start();
        assertTrue(inside.await(10, TimeUnit.SECONDS));
        loop.runOrQueue(() -> {
            order.add("second");
            ranOn.add(Thread.currentThread());
        });
        loop.runOrQueue(() -> order.add("third"));
        assertEquals(List.of("first"), order, "a busy loop only queues: the submitter returns at once");
        queued.countDown();
        owner.join(10_000);
        assertEquals(List.of("first", "second", "third"), order);
        assertSame(owner, ranOn.get(0), "the thread that runs the loop runs what was queued meanwhile");
    }

    @Test
    void aBorrowedThreadHandsTheRestToThePoolAfterItsBudget() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            SerialExecutor loop = new SerialExecutor(pool);
            AtomicInteger ran = new AtomicInteger();
            AtomicInteger outOfOrder = new AtomicInteger();
            List<Thread> threads = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(1);
            int tasks = 100;
            loop.runOrQueue(() -> {
                for (int i = 0; i < tasks; i++) {
                    int n = i;
                    loop.runOrQueue(() -> {
                        threads.add(Thread.currentThread());
                        if (ran.getAndIncrement() != n) {
                            outOfOrder.incrementAndGet();
                        }
                        if (n == tasks - 1) {
                            done.countDown();
                        }
                    });
                }
            });
            assertTrue(done.await(10, TimeUnit.SECONDS));
            assertEquals(0, outOfOrder.get(), "in submission order");
            assertTrue(threads.subList(0, 10).stream().allMatch(t -> t == Thread.currentThread()),
                    "the first queued tasks run on the borrowed thread");
            assertFalse(threads.get(tasks - 1) == Thread.currentThread(), "the rest runs on the pool");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void afterEachPassTheActionRunsOnTheLoopBeforeItIsLetGo() {
        List<String> order = new ArrayList<>();
        SerialExecutor[] loop = new SerialExecutor[1];
        loop[0] = new SerialExecutor(task -> {
            throw new AssertionError("the pool must not be used");
        }) {
            @Override
            protected void afterPass() {
                order.add("flush");
            }
        };
        loop[0].runOrQueue(() -> {
            order.add("release");
            loop[0].runOrQueue(() -> order.add("request")); // queued by a task: same pass
        });
        loop[0].runOrQueue(() -> order.add("grant"));
        assertEquals(List.of("release", "request", "flush", "grant", "flush"), order,
                "a task queued by a task runs in the same pass; the next submission makes a pass of its own");
    }

    @Test
    void aThreadThatUsesUpItsBudgetRunsTheActionBeforeHandingTheLoopToThePool() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            Thread caller = Thread.currentThread();
            SerialExecutor[] loop = new SerialExecutor[1];
            loop[0] = new SerialExecutor(pool) {
                @Override
                protected void afterPass() {
                    order.add("flush on " + (Thread.currentThread() == caller ? "caller" : "pool"));
                }
            };
            CountDownLatch done = new CountDownLatch(1);
            loop[0].runOrQueue(() -> {
                for (int i = 0; i < 40; i++) {
                    loop[0].runOrQueue(() -> order.add("task"));
                }
                loop[0].runOrQueue(done::countDown);
            });
            assertTrue(done.await(10, TimeUnit.SECONDS));
            pool.submit(() -> { }).get(10, TimeUnit.SECONDS); // the pool's pass has ended, flush included
            List<String> flushes = order.stream().filter(s -> s.startsWith("flush")).toList();
            assertEquals("flush on caller", flushes.get(0), "the caller wrote its pass's messages before handing over");
            assertEquals("flush on pool", flushes.get(flushes.size() - 1));
            assertEquals("flush on pool", order.get(order.size() - 1), "every task is followed by a flush");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void manyThreadsSubmittingRunOneAtATimeInEachOnesOrderAndNothingIsLost() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            SerialExecutor loop = new SerialExecutor(pool);
            AtomicInteger running = new AtomicInteger();
            AtomicInteger ran = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            int threads = 4;
            int each = 20_000;
            int[] lastRun = new int[threads]; // read and written by the tasks only, which run one after another
            Arrays.fill(lastRun, -1);
            AtomicInteger outOfOrder = new AtomicInteger();
            List<Thread> submitters = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                boolean borrow = t % 2 == 0;
                int submitter = t;
                submitters.add(new Thread(() -> {
                    for (int i = 0; i < each; i++) {
                        int index = i;
                        Runnable task = () -> {
                            if (running.incrementAndGet() != 1) {
                                overlaps.incrementAndGet();
                            }
                            if (lastRun[submitter] != index - 1) {
                                outOfOrder.incrementAndGet();
                            }
                            lastRun[submitter] = index;
                            ran.incrementAndGet();
                            running.decrementAndGet();
                        };
                        if (borrow) {
                            loop.runOrQueue(task);
                        } else {
                            loop.execute(task);
                        }
                    }
                }));
            }
            submitters.forEach(Thread::start);
            for (Thread t : submitters) {
                t.join(30_000);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (ran.get() < threads * each && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(threads * each, ran.get(), "every task ran");
            assertEquals(0, overlaps.get(), "never two tasks at once");
            assertEquals(0, outOfOrder.get(), "each submitter's tasks run in the order it submitted them");
        } finally {
            pool.shutdownNow();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
