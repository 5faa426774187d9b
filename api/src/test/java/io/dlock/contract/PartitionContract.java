package io.dlock.contract;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.LockOwnershipLostException;
import io.dlock.MutexAlgorithm;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The majority rule (only a view with a majority of the previous one grants) on any transport: a 5-node cluster,
 * node 4 holding the lock, is split 3|2 ({@link #MAJORITY} | {@link #MINORITY}) and each side gets a view of its
 * own. Only the majority side grants, with a higher fencing token; the minority's {@code tryLock} times out; the
 * holder cut off on the minority side is fenced out and its late {@code unlock} says so. After the heal the merged
 * view's epoch is above both sides', and every node locks again with increasing fences. A transport's test class
 * says how to {@link #start}, {@link #split} and {@link #heal} its cluster; every wait is bounded.
 *
 * @param <C> the transport's cluster
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class PartitionContract<C extends LockCluster> {

    /** The node indexes of the majority side. */
    protected static final List<Integer> MAJORITY = List.of(0, 1, 2);
    /** The node indexes of the minority side. */
    protected static final List<Integer> MINORITY = List.of(3, 4);
    /** How long the minority side is given to grant (it must not). */
    private static final long MINORITY_WAIT_MS = 500;

    /** A fresh cluster of {@code n} nodes running {@code algorithm}, every node in one view. */
    protected abstract C start(int n, MutexAlgorithm algorithm);

    /** Cuts every node of {@code majority} off from every node of {@code minority} (indexes), both ways. */
    protected abstract void split(C cluster, List<Integer> majority, List<Integer> minority);

    /** Undoes {@link #split}: every node reaches every other again. */
    protected abstract void heal(C cluster);

    /** The algorithms split: every registered one unless a transport says otherwise. */
    protected Stream<MutexAlgorithm> algorithms() {
        return Stream.of(MutexAlgorithm.values());
    }

    /** How long failure detection (after a split) or a merge (after the heal) may take to change the views. */
    protected Duration viewChangeWithin() {
        return Duration.ofSeconds(10);
    }

    /**
     * Only the majority side grants while split (the minority holder is fenced out, and the minority's tryLock times
     * out); after the heal the merged view has a higher epoch than both sides', every node can lock again and fences
     * keep increasing.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void onlyMajoritySideGrants(MutexAlgorithm algorithm) throws Exception {
        long grantS = viewChangeWithin().toSeconds();
        try (C cluster = start(5, algorithm)) {
            List<DistributedLock> locks = cluster.nodes().stream().map(s -> s.lock("partitioned")).toList();
            // node 4 holds the lock when the network splits
            assertTrue(locks.get(4).tryLock(grantS, TimeUnit.SECONDS), "node 4 not granted before the split");
            long before = locks.get(4).fencingToken();

            long cutAt = System.nanoTime();
            split(cluster, MAJORITY, MINORITY);
            assertTrue(locks.get(2).tryLock(grantS, TimeUnit.SECONDS), "the majority side did not grant");
            long recoveryMillis = (System.nanoTime() - cutAt) / 1_000_000; // reported, not asserted
            long firstFence = locks.get(2).fencingToken();
            locks.get(2).unlock();
            assertTrue(firstFence > before, "majority fence " + firstFence + " not above " + before);
            awaitViewSizes(cluster, 3, 2);
            long majorityEpoch = cluster.node(0).view().epoch();
            long minorityEpoch = cluster.node(4).view().epoch();

            assertFalse(locks.get(3).tryLock(MINORITY_WAIT_MS, TimeUnit.MILLISECONDS), "the minority side granted");
            assertTrue(locks.get(0).tryLock(grantS, TimeUnit.SECONDS), "the majority side did not grant");
            long majorityFence = locks.get(0).fencingToken();
            assertTrue(majorityFence > before, "majority fence " + majorityFence + " not above " + before);
            locks.get(0).unlock();
            // the fenced-out holder leaves its critical section late, and is told its hold was lost
            assertThrows(LockOwnershipLostException.class, () -> locks.get(4).unlock());
            assertFalse(locks.get(4).tryLock(MINORITY_WAIT_MS, TimeUnit.MILLISECONDS), "the minority side granted");

            heal(cluster);
            awaitViewSizes(cluster, 5, 5);
            long mergeEpoch = cluster.node(0).view().epoch();
            System.out.println("partition " + algorithm + " (" + getClass().getSimpleName() + "): majority epoch "
                    + majorityEpoch + ", minority epoch " + minorityEpoch + ", merged epoch " + mergeEpoch
                    + "; split to first majority grant " + recoveryMillis + " ms");
            assertTrue(mergeEpoch > Math.max(majorityEpoch, minorityEpoch),
                    "merge epoch " + mergeEpoch + " not above both sides' " + majorityEpoch + ", " + minorityEpoch);
            long last = majorityFence;
            for (int i = 0; i < 5; i++) {
                DistributedLock lock = locks.get(i);
                assertTrue(lock.tryLock(grantS, TimeUnit.SECONDS), "node " + i + " not granted after the heal");
                try {
                    assertTrue(lock.fencingToken() > last, "fence " + lock.fencingToken() + " not above " + last);
                    last = lock.fencingToken();
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /** Waits until the nodes of {@link #MAJORITY} see {@code majority} members and the others {@code minority}. */
    protected void awaitViewSizes(C cluster, int majority, int minority) {
        await().atMost(viewChangeWithin()).pollInterval(Duration.ofMillis(50)).until(() -> {
            for (int i = 0; i < 5; i++) {
                if (cluster.node(i).view().size() != (MAJORITY.contains(i) ? majority : minority)) {
                    return false;
                }
            }
            return true;
        });
    }
}
