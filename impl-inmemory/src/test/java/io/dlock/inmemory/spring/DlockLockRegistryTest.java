package io.dlock.inmemory.spring;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.LockOwnershipLostException;
import io.dlock.MutexAlgorithm;
import io.dlock.inmemory.InMemoryCluster;
import io.dlock.spring.integration.DlockLockRegistry;
import io.dlock.spring.integration.DlockRegistryLock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link DlockLockRegistry} as Spring Integration's users rely on it, on 3 in-memory nodes: obtain, lock and exclusion
 * across nodes, {@code executeLocked}, TTLs as dlock leases, renewal, expiry of unused locks.
 */
@Timeout(60)
class DlockLockRegistryTest {

    private static final Duration TTL = Duration.ofMillis(300);

    private InMemoryCluster cluster;
    private List<DlockLockRegistry> registries;

    @BeforeEach
    void start() {
        cluster = new InMemoryCluster(3, MutexAlgorithm.CENTRALIZED);
        registries = cluster.nodes().stream().map(DlockLockRegistry::new).toList();
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    /** The same key gives the same lock object on a node; its name is the key's toString(). */
    @Test
    void obtain_sameKey_sameObject() {
        DlockRegistryLock lock = registries.get(0).obtain(42);
        assertSame(lock, registries.get(0).obtain(42));
        assertSame(lock, registries.get(0).obtain("42"));
        assertEquals("42", lock.dlockLock().name());
        assertThrows(NullPointerException.class, () -> registries.get(0).obtain(null));
        assertThrows(IllegalArgumentException.class, () -> registries.get(0).obtain(""));
    }

    /** A lock held on one node keeps the other nodes out until it is unlocked; the next holder's token is higher. */
    @Test
    void lock_excludesOtherNodes_untilUnlocked() throws InterruptedException {
        DlockRegistryLock first = registries.get(0).obtain("orders");
        first.lock();
        long firstToken = first.fencingToken();
        DlockRegistryLock second = registries.get(1).obtain("orders");
        assertFalse(second.tryLock(200, TimeUnit.MILLISECONDS));
        first.unlock();
        assertTrue(second.tryLock(10, TimeUnit.SECONDS));
        try {
            assertTrue(second.fencingToken() > firstToken);
        } finally {
            second.unlock();
        }
    }

    /** executeLocked runs the action under the lock on each node in turn; the timed form times out while it is held. */
    @Test
    void executeLocked_runsUnderTheLock() throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger entries = new AtomicInteger();
        ExecutorService nodeThreads = Executors.newFixedThreadPool(3); // one thread per node, all at once
        List<CompletableFuture<Void>> runs = registries.stream().map(registry -> CompletableFuture.runAsync(() -> {
            try {
                for (int i = 0; i < 5; i++) {
                    registry.executeLocked("counter", () -> {
                        if (inside.incrementAndGet() > 1) {
                            overlaps.incrementAndGet();
                        }
                        entries.incrementAndGet();
                        inside.decrementAndGet();
                    });
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, nodeThreads)).toList();
        try {
            CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        } finally {
            nodeThreads.shutdownNow();
        }
        assertEquals(0, overlaps.get());
        assertEquals(15, entries.get());

        DlockRegistryLock held = registries.get(0).obtain("counter");
        held.lock();
        try {
            CompletableFuture<Void> timed = CompletableFuture.runAsync(() -> assertThrows(TimeoutException.class,
                    () -> registries.get(1).executeLocked("counter", Duration.ofMillis(200), () -> { })));
            timed.get(10, TimeUnit.SECONDS);
        } finally {
            held.unlock();
        }
    }

    /**
     * A hold with a TTL that is not unlocked ends by itself: another node gets the lock with a higher token, and the
     * late unlock throws LockOwnershipLostException.
     */
    @Test
    void ttl_expires_nextHolderHasHigherToken() throws InterruptedException {
        DlockRegistryLock first = registries.get(0).obtain("ttl");
        first.lock(TTL);
        DlockRegistryLock second = registries.get(1).obtain("ttl");
        assertTrue(second.tryLock(Duration.ofSeconds(10), Duration.ofSeconds(10)));
        long secondToken;
        try {
            secondToken = second.fencingToken();
        } finally {
            second.unlock();
        }
        LockOwnershipLostException lost = assertThrows(LockOwnershipLostException.class, first::unlock);
        assertTrue(secondToken > lost.fencingToken(), secondToken + " after " + lost.fencingToken());
        assertThrows(IllegalArgumentException.class, () -> first.lock(Duration.ZERO));
    }

    /** renewLock(key, ttl) moves the end of the hold: the other node stays out past the first TTL. */
    @Test
    void renewLockWithTtl_keepsTheHoldPastTheFirstTtl() throws InterruptedException {
        DlockRegistryLock first = registries.get(0).obtain("renewed");
        Duration firstTtl = Duration.ofSeconds(1); // outlives the moment until the renewal, even on a loaded machine
        first.lock(firstTtl);
        registries.get(0).renewLock("renewed", Duration.ofSeconds(30));
        DlockRegistryLock second = registries.get(1).obtain("renewed");
        assertFalse(second.tryLock(firstTtl.plusMillis(500).toMillis(), TimeUnit.MILLISECONDS));
        first.fencingToken(); // still held: throws if the hold had been lost
        first.unlock();
    }

    /** renewLock(key) renews with the hold's own TTL, by the holding thread, for as long as it is called. */
    @Test
    void renewLock_keepsRenewingWithTheHoldsTtl() {
        DlockRegistryLock lock = registries.get(0).obtain("heartbeat");
        Duration ttl = Duration.ofSeconds(1); // renewed every 100 ms: a loaded machine's pauses stay well within it
        lock.lock(ttl);
        await().pollInSameThread().pollInterval(Duration.ofMillis(100)).during(ttl.plusMillis(500))
                .atMost(Duration.ofSeconds(10)).until(() -> {
                    registries.get(0).renewLock("heartbeat");
                    return lock.dlockLock().isHeldByCurrentThread();
                });
        lock.unlock();
    }

    /** Renewing a lock the thread does not hold, or a key never obtained, fails with a message naming the problem. */
    @Test
    void renewLock_notHeld_throws() {
        registries.get(0).obtain("idle");
        assertThrows(IllegalMonitorStateException.class, () -> registries.get(0).renewLock("idle", TTL));
        assertThrows(IllegalMonitorStateException.class, () -> registries.get(0).renewLock("idle"));
        IllegalStateException unknown = assertThrows(IllegalStateException.class,
                () -> registries.get(0).renewLock("never"));
        assertTrue(unknown.getMessage().contains("'never'"), unknown.getMessage());
        assertThrows(UnsupportedOperationException.class, () -> registries.get(0).setRenewalTaskScheduler(null));
    }

    /** expireUnusedOlderThan forgets the locks nobody holds, never a held one. */
    @Test
    void expireUnused_forgetsOnlyLocksNotHeld() {
        DlockLockRegistry registry = registries.get(0);
        DlockRegistryLock held = registry.obtain("held");
        DlockRegistryLock idle = registry.obtain("idle");
        held.lock();
        try {
            registry.expireUnusedOlderThan(60_000);
            assertSame(idle, registry.obtain("idle"));
            registry.expireUnusedOlderThan(0);
            assertSame(held, registry.obtain("held"));
            assertNotSame(idle, registry.obtain("idle"));
        } finally {
            held.unlock();
        }
        registry.expireUnusedOlderThan(0);
        assertNotSame(held, registry.obtain("held"));
        assertThrows(IllegalArgumentException.class, () -> registry.expireUnusedOlderThan(-1));
    }
}
