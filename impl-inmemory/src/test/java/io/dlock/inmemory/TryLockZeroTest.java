package io.dlock.inmemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.MutexAlgorithm;
import io.dlock.protocol.AlgorithmDefinitions;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code tryLock(0, unit)} as {@code ReentrantLock}'s: it never waits for the cluster and never sends a
 * message. Where a node can know that the lock is free (it holds the idle token, or it is the centralized
 * coordinator and the lock is free) it succeeds at once with a fencing token above every earlier one; on
 * the other nodes, for the permission-based algorithms, and while another local thread holds the lock, it
 * fails at once.
 */
@Timeout(60)
class TryLockZeroTest {

    /** Algorithms where some node can enter without a message when the lock is idle. */
    private static final Set<MutexAlgorithm> LOCAL_ENTRY = EnumSet.of(MutexAlgorithm.CENTRALIZED,
            MutexAlgorithm.SUZUKI_KASAMI, MutexAlgorithm.RAYMOND, MutexAlgorithm.NAIMI_TREHEL, MutexAlgorithm.TOKEN_RING);

    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void succeedsOnlyWhereTheNodeCanKnowAndNeverSendsAMessage(MutexAlgorithm algorithm) throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(3, algorithm)) {
            List<DistributedLock> locks = cluster.nodes.stream().map(s -> s.lock("zero")).toList();
            locks.get(0).lock(); // the lock is in use once: a token now rests on node 0
            long before = locks.get(0).fencingToken();
            locks.get(0).unlock();
            boolean quiet = AlgorithmDefinitions.mutex(algorithm).quiescentWhenIdle(); // true for every built-in algorithm
            if (quiet) {
                awaitNoTraffic(locks); // the release's own messages (permission algorithms) are sent after unlock()
            }
            int succeeded = 0;
            for (int round = 0; round < 200 && succeeded == 0; round++) { // a ring's token may be passing by
                for (DistributedLock lock : locks) {
                    long sent = sentByAll(locks);
                    boolean got = lock.tryLock(0, TimeUnit.SECONDS);
                    if (got) {
                        if (quiet) {
                            assertEquals(sent, sentByAll(locks), "a local entry sends nothing");
                        }
                        assertTrue(lock.fencingToken() > before, "token " + lock.fencingToken() + " not above " + before);
                        assertFalse(otherThreadTriesZero(lock), "held by this thread: another local thread fails at once");
                        lock.unlock();
                        succeeded++;
                        if (quiet) {
                            awaitNoTraffic(locks); // the exit's own messages (a token ring passes its token on)
                        }
                    } else if (quiet) {
                        assertEquals(sent, sentByAll(locks), "a refused tryLock(0) sends nothing");
                    }
                }
                if (!LOCAL_ENTRY.contains(algorithm)) {
                    break;
                }
            }
            if (LOCAL_ENTRY.contains(algorithm)) {
                assertTrue(succeeded > 0, algorithm + ": no node entered locally");
            } else {
                assertEquals(0, succeeded, algorithm + " must ask the cluster, so tryLock(0) fails");
            }
            // the lock still works as before
            assertTrue(locks.get(2).tryLock(10, TimeUnit.SECONDS));
            locks.get(2).unlock();
        }
    }

    private static void awaitNoTraffic(List<DistributedLock> locks) throws InterruptedException {
        long last = -1;
        for (int i = 0; i < 100; i++) {
            long now = sentByAll(locks);
            if (now == last) {
                return;
            }
            last = now;
            Thread.sleep(50);
        }
        throw new AssertionError("messages still flow with the lock idle");
    }

    private static long sentByAll(List<DistributedLock> locks) {
        return locks.stream().mapToLong(l -> l.metrics().messagesSent()).sum();
    }

    private static boolean otherThreadTriesZero(DistributedLock lock) throws Exception {
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(lock.tryLock(0, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                result.completeExceptionally(e);
            }
        });
        t.start();
        return result.get(10, TimeUnit.SECONDS);
    }
}
