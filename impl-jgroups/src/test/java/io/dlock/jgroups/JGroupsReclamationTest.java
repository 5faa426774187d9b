package io.dlock.jgroups;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.DlockConfig;
import io.dlock.runtime.NodeRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Per-key locks over JGroups: contended names are reclaimed on every node once idle, and the next incarnation
 * of each name keeps mutual exclusion and fencing tokens above the earlier ones.
 */
class JGroupsReclamationTest {

    private static final int NAMES = 12;
    private static final int ROUNDS = 3;

    @ParameterizedTest(name = "{0}")
    @EnumSource(MutexAlgorithm.class)
    void contendedKeysAreReclaimedAndComeBackSafely(MutexAlgorithm algorithm) throws Exception {
        DlockConfig.Builder template = JGroupsCluster.base(algorithm).set(JGroupsTransportFactory.STACK, "loopback")
                .idleExpiry(Duration.ofMillis(300));
        try (JGroupsCluster cluster = new JGroupsCluster(3, template)) {
            long[] counters = new long[NAMES];
            AtomicLongArray lastToken = new AtomicLongArray(NAMES);
            for (int incarnation = 0; incarnation < 2; incarnation++) {
                contend(cluster, counters, lastToken);
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
                    cluster.nodes.forEach(n -> ((NodeRuntime) n).expireIdleLocks());
                    return cluster.nodes.stream().allMatch(n -> ((NodeRuntime) n).lockDrivers() == 0);
                });
            }
            for (int k = 0; k < NAMES; k++) {
                assertEquals(2L * 3 * ROUNDS, counters[k], "entries of key-" + k + " (a lost update means two holders)");
            }
            long reclaimed = cluster.nodes.stream().mapToLong(n -> ((NodeRuntime) n).reclaimedLocks()).sum();
            assertTrue(reclaimed >= 2 * NAMES, "every name reclaimed twice somewhere, got " + reclaimed);
        }
    }

    /** Every node's thread enters every name ROUNDS times; tokens of each name must increase in grant order. */
    private static void contend(JGroupsCluster cluster, long[] counters, AtomicLongArray lastToken)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(cluster.nodes.size());
        try {
            List<Future<?>> done = new ArrayList<>();
            for (LockService node : cluster.nodes) {
                done.add(pool.submit(() -> {
                    for (int r = 0; r < ROUNDS; r++) {
                        for (int k = 0; k < NAMES; k++) {
                            DistributedLock lock = node.lock("key-" + k);
                            assertTrue(lock.tryLock(30, TimeUnit.SECONDS), "key-" + k + " granted");
                            try {
                                long token = lock.fencingToken();
                                long before = lastToken.getAndSet(k, token);
                                assertTrue(token > before, "key-" + k + ": token " + token + " after " + before);
                                long v = counters[k];
                                Thread.yield();
                                counters[k] = v + 1;
                            } finally {
                                lock.unlock();
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
