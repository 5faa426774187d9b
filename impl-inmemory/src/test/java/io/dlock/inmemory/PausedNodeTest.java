package io.dlock.inmemory;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockOwnershipLostException;
import io.dlock.MutexAlgorithm;
import io.dlock.OwnershipLoss;
import io.dlock.NodeId;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A node stopped as by {@code SIGSTOP} ({@link InMemoryNetwork#pause}) while the others exclude it, then resumed
 * before it learns of its new view (as a JGroups member learns only a second or more after it runs again): its
 * epoch lease has run out, so it grants nothing in its old view, and a holder of it learns that it lost the lock.
 * Without the lease, the resumed node re-entered with the token it held, or its coordinator granted, while the
 * majority had granted the lock again, and its holder's {@code unlock()} succeeded.
 */
@Timeout(120)
class PausedNodeTest {

    private static final NodeId PAUSED = NodeId.of(4);
    private static final List<NodeId> OTHERS = List.of(NodeId.of(0), NodeId.of(1), NodeId.of(2), NodeId.of(3));
    private static final Duration LEASE = Duration.ofMillis(200);
    /** How long after its resume the paused node still sees its old view. */
    private static final Duration VIEW_LATE_BY = Duration.ofSeconds(1);

    private static InMemoryCluster cluster(MutexAlgorithm algorithm) {
        return new InMemoryCluster(5, DlockConfig.builder().mutex(algorithm).lease(LEASE));
    }

    /**
     * Pauses node 4 and has the others exclude it (as failure detection would); the majority then locks: returns
     * its token (the majority's hold goes on).
     */
    private static long pauseWhileTheOthersLock(String cluster, DistributedLock majority) throws InterruptedException {
        InMemoryNetwork.shared().pause(cluster, PAUSED);
        InMemoryNetwork.shared().split(cluster, List.of(OTHERS, List.of(PAUSED)));
        assertTrue(majority.tryLock(20, TimeUnit.SECONDS), "the majority did not grant while node 4 was paused");
        return majority.fencingToken();
    }

    /** Heals the split; node 4 locks again, with a token above {@code majorityToken}. */
    private static void healThenLocksAbove(InMemoryCluster c, DistributedLock paused, long majorityToken)
            throws InterruptedException {
        InMemoryNetwork.shared().heal(c.node(0).config().cluster());
        await().atMost(Duration.ofSeconds(20)).until(() -> c.node(4).view().size() == 5);
        assertTrue(paused.tryLock(20, TimeUnit.SECONDS), "node 4 not granted after the heal");
        try {
            assertTrue(paused.fencingToken() > majorityToken);
        } finally {
            paused.unlock();
        }
    }

    /** The holder of a node paused past its lease is told, and its token and unlock fail, once it resumes. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void when_holderIsPausedPastItsLease_then_itLearnsItLostTheLock(MutexAlgorithm algorithm) throws Exception {
        try (InMemoryCluster c = cluster(algorithm)) {
            String name = c.node(0).config().cluster();
            DistributedLock paused = c.node(4).lock("held");
            DistributedLock majority = c.node(0).lock("held");
            List<OwnershipLoss> told = new CopyOnWriteArrayList<>();
            paused.addOwnershipListener(told::add);
            assertTrue(paused.tryLock(10, TimeUnit.SECONDS), "node 4 not granted before the pause");
            long token = paused.fencingToken();

            long majorityToken = pauseWhileTheOthersLock(name, majority);
            assertTrue(majorityToken > token, "majority token " + majorityToken + " not above " + token);

            InMemoryNetwork.shared().resume(name, PAUSED, VIEW_LATE_BY);
            LockOwnershipLostException onToken = assertThrows(LockOwnershipLostException.class, paused::fencingToken,
                    "the resumed holder's token must not be handed out as current");
            assertEquals(token, onToken.fencingToken());
            assertThrows(LockOwnershipLostException.class, paused::unlock, "its unlock must say the hold was lost");
            await().atMost(Duration.ofSeconds(10)).until(() -> told.size() == 1);
            assertEquals(token, told.get(0).fencingToken());
            majority.unlock();

            healThenLocksAbove(c, paused, majorityToken);
        }
    }

    /**
     * A node that used the lock last (it may keep a token, or be the coordinator) and is resumed in its old view
     * while the majority holds the lock is not granted until its view is current.
     */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void when_nodeResumesInItsOldView_then_itGrantsNothingThere(MutexAlgorithm algorithm) throws Exception {
        try (InMemoryCluster c = cluster(algorithm)) {
            String name = c.node(0).config().cluster();
            DistributedLock paused = c.node(4).lock("idle");
            DistributedLock majority = c.node(0).lock("idle");
            assertTrue(paused.tryLock(10, TimeUnit.SECONDS));
            long before = paused.fencingToken();
            paused.unlock();

            long majorityToken = pauseWhileTheOthersLock(name, majority);
            assertTrue(majorityToken > before);

            InMemoryNetwork.shared().resume(name, PAUSED, VIEW_LATE_BY);
            assertFalse(paused.tryLock(), "tryLock() on the resumed node must not enter in its old view");
            assertFalse(paused.tryLock(500, TimeUnit.MILLISECONDS),
                    "the resumed node entered in its old view while the majority holds the lock");
            majority.unlock();

            healThenLocksAbove(c, paused, majorityToken);
        }
    }

    /**
     * A pause past the lease that nobody noticed (no view changed): the node's lease runs again once the others
     * answer, in the same view, and it locks as before; the hold that spanned the pause was reported lost (the node
     * could not know that nobody excluded it meanwhile).
     */
    @Test
    void when_leaseRunsAgainInTheSameView_then_theNodeLocksAsBefore() throws Exception {
        try (InMemoryCluster c = cluster(MutexAlgorithm.SUZUKI_KASAMI)) {
            String name = c.node(0).config().cluster();
            DistributedLock lock = c.node(4).lock("same-view");
            assertTrue(lock.tryLock(10, TimeUnit.SECONDS));
            long token = lock.fencingToken();
            InMemoryNetwork.shared().pause(name, PAUSED);
            Thread.sleep(LEASE.toMillis() * 3);
            assertThrows(LockOwnershipLostException.class, lock::unlock);
            InMemoryNetwork.shared().resume(name, PAUSED, Duration.ZERO);
            assertTrue(lock.tryLock(10, TimeUnit.SECONDS), "not granted once the lease ran again");
            try {
                assertTrue(lock.fencingToken() > token);
                assertEquals(5, c.node(4).view().size(), "no view changed");
            } finally {
                lock.unlock();
            }
        }
    }
}
