package io.dlock.inmemory.shedlock;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.MutexAlgorithm;
import io.dlock.OwnershipLoss;
import io.dlock.inmemory.InMemoryCluster;
import io.dlock.shedlock.DlockLockProvider;
import java.lang.reflect.Constructor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockExtender;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.support.KeepAliveLockProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link DlockLockProvider} under ShedLock's {@link DefaultLockingTaskExecutor} on 3 in-memory nodes: one run of a
 * task at a time in the cluster, lockAtLeastFor and lockAtMostFor, extension (by hand and through
 * {@link KeepAliveLockProvider}), and the fencing token inside the task.
 */
@Timeout(60)
class DlockLockProviderTest {

    /** The wait of the providers whose attempts are expected to be refused while another node holds the lock. */
    private static final Duration SHORT_WAIT = Duration.ofMillis(300);
    /** The wait of the providers whose attempts must run: long enough for a loaded machine. */
    private static final Duration LONG_WAIT = Duration.ofSeconds(10);

    private InMemoryCluster cluster;
    private final List<DlockLockProvider> providers = new ArrayList<>();
    /** Per node: an executor that gives up after {@link #SHORT_WAIT}. */
    private final List<LockingTaskExecutor> impatient = new ArrayList<>();
    /** Per node: an executor that waits up to {@link #LONG_WAIT} (its provider in {@link #patientProviders}). */
    private final List<LockingTaskExecutor> patient = new ArrayList<>();
    private final List<DlockLockProvider> patientProviders = new ArrayList<>();

    @BeforeEach
    void start() {
        cluster = new InMemoryCluster(3, MutexAlgorithm.CENTRALIZED);
        for (int i = 0; i < 3; i++) {
            DlockLockProvider shortWait = new DlockLockProvider(cluster.node(i), SHORT_WAIT);
            DlockLockProvider longWait = new DlockLockProvider(cluster.node(i), LONG_WAIT);
            providers.add(shortWait);
            providers.add(longWait);
            patientProviders.add(longWait);
            impatient.add(new DefaultLockingTaskExecutor(shortWait));
            patient.add(new DefaultLockingTaskExecutor(longWait));
        }
    }

    @AfterEach
    void stop() {
        providers.forEach(DlockLockProvider::close);
        cluster.close();
    }

    private static LockConfiguration config(String name, Duration atMost, Duration atLeast) {
        return new LockConfiguration(Instant.now(), name, atMost, atLeast);
    }

    /**
     * The same task started at once on 3 nodes runs on exactly one; the others skip it. A round in which every
     * attempt gave up (a loaded machine answered slower than the short wait) is repeated with a new task name.
     */
    @Test
    void concurrentRuns_exactlyOneRuns() throws Exception {
        List<Integer> runsPerRound = new ArrayList<>();
        while (runsPerRound.size() < 5 && (runsPerRound.isEmpty() || runsPerRound.get(runsPerRound.size() - 1) == 0)) {
            runsPerRound.add(runAtOnceOnEveryNode("report-" + runsPerRound.size()));
        }
        assertEquals(1, runsPerRound.get(runsPerRound.size() - 1), "runs per round: " + runsPerRound);
        assertTrue(runsPerRound.stream().allMatch(runs -> runs <= 1), "runs per round: " + runsPerRound);
    }

    /** Starts task {@code name} on the 3 nodes at once; the one that runs it waits until the 2 others skipped. */
    private int runAtOnceOnEveryNode(String name) throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch othersSkipped = new CountDownLatch(2);
        List<CompletableFuture<Void>> attempts = new ArrayList<>();
        ExecutorService nodeThreads = Executors.newFixedThreadPool(3); // one thread per node, all at once
        for (LockingTaskExecutor executor : impatient) {
            attempts.add(CompletableFuture.runAsync(() -> {
                AtomicBoolean ran = new AtomicBoolean();
                executor.executeWithLock((Runnable) () -> {
                    ran.set(true);
                    runs.incrementAndGet();
                    await().atMost(Duration.ofSeconds(10)).until(() -> othersSkipped.getCount() == 0);
                }, config(name, Duration.ofSeconds(30), Duration.ZERO));
                if (!ran.get()) {
                    othersSkipped.countDown();
                }
            }, nodeThreads));
        }
        try {
            CompletableFuture.allOf(attempts.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        } finally {
            nodeThreads.shutdownNow();
        }
        return runs.get();
    }

    /** The task's thread sees its lock's fencing token, higher on each run, and none outside the task. */
    @Test
    void fencingToken_visibleInsideTheTask() {
        assertEquals(OptionalLong.empty(), DlockLockProvider.currentFencingToken());
        List<Long> tokens = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            patient.get(i).executeWithLock((Runnable) () -> tokens.add(
                    DlockLockProvider.currentFencingToken().orElseThrow()), config("token", Duration.ofSeconds(30),
                    Duration.ZERO));
        }
        assertEquals(3, tokens.size());
        assertTrue(tokens.get(0) < tokens.get(1) && tokens.get(1) < tokens.get(2), tokens.toString());
        assertEquals(OptionalLong.empty(), DlockLockProvider.currentFencingToken());
    }

    /** After a short task with lockAtLeastFor, the other nodes stay out until it has passed, then run. */
    @Test
    void lockAtLeastFor_keepsOthersOutAfterTheTaskEnds() {
        AtomicInteger runs = new AtomicInteger();
        Runnable task = runs::incrementAndGet;
        patient.get(0).executeWithLock(task, config("atLeast", Duration.ofSeconds(30), Duration.ofSeconds(2)));
        assertEquals(1, runs.get());
        impatient.get(1).executeWithLock(task, config("atLeast", Duration.ofSeconds(30), Duration.ZERO));
        assertEquals(1, runs.get(), "lockAtLeastFor still holds the lock after the task ended");
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            impatient.get(1).executeWithLock(task, config("atLeast", Duration.ofSeconds(30), Duration.ZERO));
            return runs.get() == 2;
        });
    }

    /**
     * A hung task's hold ends after lockAtMostFor: another node runs the task meanwhile with a higher token, and the
     * hung task's late unlock does not fail it.
     */
    @Test
    void lockAtMostFor_endsAHungTasksHold() throws Exception {
        CountDownLatch hang = new CountDownLatch(1);
        CompletableFuture<Long> hungToken = new CompletableFuture<>();
        CompletableFuture<Void> hung = CompletableFuture.runAsync(() -> patient.get(0).executeWithLock(
                (Runnable) () -> {
                    hungToken.complete(DlockLockProvider.currentFencingToken().orElseThrow());
                    awaitUninterruptibly(hang);
                }, config("hung", Duration.ofMillis(300), Duration.ZERO)));
        long first = hungToken.get(10, TimeUnit.SECONDS);
        AtomicInteger later = new AtomicInteger();
        Queue<Long> laterTokens = new ConcurrentLinkedQueue<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            impatient.get(1).executeWithLock((Runnable) () -> {
                later.incrementAndGet();
                laterTokens.add(DlockLockProvider.currentFencingToken().orElseThrow());
            }, config("hung", Duration.ofSeconds(30), Duration.ZERO));
            return later.get() == 1;
        });
        assertTrue(laterTokens.peek() > first, laterTokens + " after " + first);
        hang.countDown();
        hung.get(10, TimeUnit.SECONDS);
    }

    /** LockExtender in the task extends the lease: the task outlives its first lockAtMostFor without losing the hold. */
    @Test
    void extend_byTheTask_keepsTheHold() {
        Queue<OwnershipLoss> losses = watchLosses("extended");
        Duration atMost = Duration.ofSeconds(1); // outlives the moment until the extension, even on a loaded machine
        patient.get(0).executeWithLock((Runnable) () -> {
            LockExtender.extendActiveLock(Duration.ofSeconds(30), Duration.ZERO);
            assertOthersStayOut("extended", atMost.plusMillis(500));
        }, config("extended", atMost, Duration.ZERO));
        assertTrue(losses.isEmpty(), losses.toString());
    }

    /** KeepAliveLockProvider over DlockLockProvider extends the lease while the task runs; the hold is never lost. */
    @Test
    void keepAliveLockProvider_extendsWhileTheTaskRuns() throws Exception {
        Queue<OwnershipLoss> losses = watchLosses("kept-alive");
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try {
            LockingTaskExecutor keptAlive = new DefaultLockingTaskExecutor(keepAlive(patientProviders.get(0), scheduler));
            Duration atMost = Duration.ofSeconds(1); // extended every 500 ms
            keptAlive.executeWithLock((Runnable) () -> assertOthersStayOut("kept-alive", atMost.multipliedBy(2)),
                    config("kept-alive", atMost, Duration.ZERO));
        } finally {
            scheduler.shutdownNow();
        }
        assertTrue(losses.isEmpty(), losses.toString());
        AtomicBoolean ran = new AtomicBoolean();
        patient.get(1).executeWithLock((Runnable) () -> ran.set(true),
                config("kept-alive", Duration.ofSeconds(30), Duration.ZERO));
        assertTrue(ran.get(), "released at the task's end");
    }

    /** A lock is used up by its unlock or a successful extension; extension of a lost hold gives empty. */
    @Test
    void simpleLock_usedUpAfterUnlockOrExtend_emptyWhenLost() {
        SimpleLock lock = patientProviders.get(0).lock(config("once", Duration.ofSeconds(30), Duration.ZERO)).orElseThrow();
        SimpleLock extended = lock.extend(Duration.ofSeconds(30), Duration.ZERO).orElseThrow();
        assertThrows(IllegalStateException.class, lock::unlock);
        assertThrows(IllegalArgumentException.class, () -> extended.extend(Duration.ofSeconds(1), Duration.ofSeconds(2)));
        extended.unlock();
        assertThrows(IllegalStateException.class, extended::unlock);

        Queue<OwnershipLoss> losses = watchLosses("lost");
        SimpleLock shortLived = patientProviders.get(0).lock(config("lost", Duration.ofMillis(200), Duration.ZERO))
                .orElseThrow();
        long token = DlockLockProvider.currentFencingToken().orElseThrow();
        await().atMost(Duration.ofSeconds(10)).until(() -> !losses.isEmpty());
        assertEquals(OwnershipLoss.Cause.LEASE_EXPIRED, losses.peek().cause());
        assertEquals(Optional.empty(), shortLived.extend(Duration.ofSeconds(30), Duration.ZERO));
        assertEquals(OptionalLong.of(token), DlockLockProvider.currentFencingToken(), "the lost hold's token, still");
        shortLived.unlock(); // ends the task quietly: the lease ran out before
        assertEquals(OptionalLong.empty(), DlockLockProvider.currentFencingToken());
    }

    /** Records the ownership losses of lock {@code name} on node 0. */
    private Queue<OwnershipLoss> watchLosses(String name) {
        Queue<OwnershipLoss> losses = new ConcurrentLinkedQueue<>();
        cluster.node(0).lock(name).addOwnershipListener(losses::add);
        return losses;
    }

    /** During {@code time}, node 1 never runs a task under lock {@code name}. */
    private void assertOthersStayOut(String name, Duration time) {
        AtomicInteger ran = new AtomicInteger();
        await().during(time).atMost(time.multipliedBy(3)).until(() -> {
            impatient.get(1).executeWithLock((Runnable) ran::incrementAndGet,
                    config(name, Duration.ofSeconds(30), Duration.ZERO));
            return ran.get() == 0;
        });
    }

    /**
     * KeepAliveLockProvider with a short minimal lockAtMostFor: its public constructor refuses less than 30 s, too
     * long for a unit test, so its package-private one is called (the class path allows it).
     */
    private static LockProvider keepAlive(ExtensibleLockProvider provider, ScheduledExecutorService scheduler)
            throws ReflectiveOperationException {
        Constructor<KeepAliveLockProvider> constructor = KeepAliveLockProvider.class.getDeclaredConstructor(
                ExtensibleLockProvider.class, ScheduledExecutorService.class, Duration.class);
        constructor.setAccessible(true);
        return constructor.newInstance(provider, scheduler, Duration.ofMillis(100));
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
