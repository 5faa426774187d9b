package io.dlock.inmemory;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.runtime.NodeRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Per-key locks: the state of idle locks is reclaimed on every node, a lock used again starts afresh with
 * fencing tokens above all its earlier ones, and the facades the application kept keep working.
 */
class LockReclamationTest {

    /** Short, so that the tests do not wait long; the default is 60 s. */
    private static final Duration EXPIRY = Duration.ofMillis(200);

    private static InMemoryCluster cluster(int n, MutexAlgorithm algorithm) {
        return new InMemoryCluster(n, DlockConfig.builder().mutex(algorithm).idleExpiry(EXPIRY));
    }

    private static NodeRuntime runtime(LockService node) {
        return (NodeRuntime) node;
    }

    /** Waits until no node keeps a driver (sweeping the registries so the test does not depend on their timer). */
    private static void awaitAllReclaimed(InMemoryCluster cluster) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            cluster.nodes.forEach(n -> runtime(n).expireIdleLocks());
            return cluster.nodes.stream().allMatch(n -> runtime(n).lockDrivers() == 0);
        });
    }

    private static long lockAndUnlock(DistributedLock lock) throws InterruptedException {
        assertTrue(lock.tryLock(20, TimeUnit.SECONDS), "granted: " + lock.name());
        try {
            return lock.fencingToken();
        } finally {
            lock.unlock();
        }
    }

    /**
     * NodeMetrics.liveLocks counts the names with state on the node, the engines the runtime keeps: one per name
     * used, and 0 again once the idle names are reclaimed.
     */
    @Test
    void liveLocksCountsTheNamesWithStateUntilTheyAreReclaimed() throws InterruptedException {
        try (InMemoryCluster cluster = cluster(3, MutexAlgorithm.CENTRALIZED)) {
            LockService node = cluster.node(0);
            assertEquals(0, node.nodeMetrics().liveLocks(), "no lock used yet");
            List<DistributedLock> held = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                DistributedLock lock = node.lock("live-" + i);
                assertTrue(lock.tryLock(20, TimeUnit.SECONDS), "granted: " + lock.name());
                held.add(lock); // held: never reclaimed while the count is read
            }
            assertEquals(5, node.nodeMetrics().liveLocks(), "5 names held on node 0");
            assertEquals(runtime(node).lockDrivers(), node.nodeMetrics().liveLocks());
            held.forEach(DistributedLock::unlock);
            awaitAllReclaimed(cluster);
            for (LockService n : cluster.nodes) {
                assertEquals(0, n.nodeMetrics().liveLocks(), "live locks after reclamation, node " + n.nodeId());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void idleLocksAreReclaimedEverywhereAndKeptFacadesWorkOnWithHigherTokens(MutexAlgorithm algorithm)
            throws InterruptedException {
        try (InMemoryCluster cluster = cluster(3, algorithm)) {
            Map<String, DistributedLock> kept = new HashMap<>();
            Map<String, Long> firstTokens = new HashMap<>();
            for (int i = 0; i < 30; i++) {
                String name = "order-" + i;
                DistributedLock lock = cluster.node(i % 3).lock(name);
                kept.put(name, lock);
                firstTokens.put(name, lockAndUnlock(lock));
            }
            awaitAllReclaimed(cluster);
            long reclaimed = cluster.nodes.stream().mapToLong(n -> runtime(n).reclaimedLocks()).sum();
            assertTrue(reclaimed >= 30, "at least one driver per name reclaimed, got " + reclaimed);
            for (Map.Entry<String, DistributedLock> e : kept.entrySet()) {
                long token = lockAndUnlock(e.getValue());
                assertTrue(token > firstTokens.get(e.getKey()), e.getKey() + ": token " + token
                        + " after reclamation must exceed " + firstTokens.get(e.getKey()));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void fencingTokensIncreaseAcrossRepeatedReclamationsOnEveryNode(MutexAlgorithm algorithm)
            throws InterruptedException {
        try (InMemoryCluster cluster = cluster(3, algorithm)) {
            List<Long> tokens = new ArrayList<>();
            for (int incarnation = 0; incarnation < 4; incarnation++) {
                for (LockService node : cluster.nodes) {
                    tokens.add(lockAndUnlock(node.lock("account-7")));
                }
                awaitAllReclaimed(cluster);
            }
            for (int i = 1; i < tokens.size(); i++) {
                assertTrue(tokens.get(i) > tokens.get(i - 1), "tokens must increase: " + tokens);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void aHeldLockIsNeverReclaimedAndGoesOnceReleased(MutexAlgorithm algorithm) throws InterruptedException {
        try (InMemoryCluster cluster = cluster(3, algorithm)) {
            DistributedLock held = cluster.node(1).lock("held");
            assertTrue(held.tryLock(20, TimeUnit.SECONDS));
            long token = held.fencingToken();
            lockAndUnlock(cluster.node(2).lock("other"));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                cluster.nodes.forEach(n -> runtime(n).expireIdleLocks());
                return runtime(cluster.node(2)).reclaimedLocks() >= 1; // "other" went
            });
            Thread.sleep(EXPIRY.toMillis() * 3);
            assertTrue(held.isHeldByCurrentThread());
            assertEquals(token, held.fencingToken());
            assertTrue(runtime(cluster.node(1)).lockDrivers() >= 1, "the held lock keeps its driver");
            held.unlock();
            awaitAllReclaimed(cluster);
        }
    }

    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void reclaimedLocksCostNoMessages(MutexAlgorithm algorithm) throws InterruptedException {
        try (InMemoryCluster cluster = cluster(3, algorithm)) {
            for (int i = 0; i < 20; i++) {
                lockAndUnlock(cluster.node(i % 3).lock("idle-" + i));
            }
            awaitAllReclaimed(cluster);
            long before = totalSent(cluster);
            Thread.sleep(EXPIRY.toMillis() * 5);
            assertEquals(before, totalSent(cluster), "messages sent while every lock is idle");
        }
    }

    /**
     * {@code fencingToken()} and {@code unlock()} by a thread that does not hold a lock whose state was reclaimed
     * throw as for any non-holder, and only look: they bring back no lock state and send nothing.
     */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void nonHolderCallsOnAReclaimedLockCreateNoState(MutexAlgorithm algorithm) throws InterruptedException {
        try (InMemoryCluster cluster = cluster(3, algorithm)) {
            DistributedLock kept = cluster.node(1).lock("looked-at");
            lockAndUnlock(kept);
            awaitAllReclaimed(cluster);
            long before = totalSent(cluster);

            assertThrows(IllegalMonitorStateException.class, kept::fencingToken);
            assertThrows(IllegalMonitorStateException.class, kept::unlock);
            assertFalse(kept.isHeldByCurrentThread());
            assertEquals(0, kept.getHoldCount());

            for (LockService node : cluster.nodes) {
                assertEquals(0, runtime(node).lockDrivers(), "lock state on " + node.nodeId());
            }
            assertEquals(before, totalSent(cluster), "messages sent by looking at a reclaimed lock");
        }
    }

    private static long totalSent(InMemoryCluster cluster) {
        return cluster.nodes.stream().mapToLong(n -> n.metrics().messagesSent()).sum();
    }

    /**
     * The size bound ({@code dlock.lock.max-live}): with a long idle expiry, a burst of names beyond the bound is
     * reclaimed without waiting for the expiry, down to about the bound, and every name still works afterwards.
     */
    @Test
    void theSizeBoundReclaimsABurstOfNamesBeforeTheExpiry() throws InterruptedException {
        int bound = 50;
        try (InMemoryCluster cluster = new InMemoryCluster(3, DlockConfig.builder()
                .mutex(MutexAlgorithm.RICART_AGRAWALA).idleExpiry(Duration.ofHours(1)).maxLiveLocks(bound))) {
            for (int i = 0; i < 1000; i++) {
                lockAndUnlock(cluster.node(i % 3).lock("burst-" + i));
            }
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
                cluster.nodes.forEach(n -> runtime(n).expireIdleLocks());
                return cluster.nodes.stream().allMatch(n -> runtime(n).lockDrivers() <= 2L * bound);
            });
            assertTrue(cluster.nodes.stream().allMatch(n -> runtime(n).reclaimedLocks() >= 1000 - 2L * bound),
                    "reclaimed long before the hour-long expiry");
            assertTrue(lockAndUnlock(cluster.node(1).lock("burst-7")) > 0);
        }
    }
}
