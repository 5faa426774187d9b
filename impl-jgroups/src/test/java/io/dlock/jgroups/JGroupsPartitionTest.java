package io.dlock.jgroups;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jgroups.Address;
import org.jgroups.protocols.DISCARD;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The majority rule on JGroups (only a view with a majority of the previous one grants): 5 channels in one JVM, split 3|2 with DISCARD
 * ({@code addIgnoreMember} on both sides); failure detection gives each side its own view (possibly
 * with the same view id), and only the majority side grants: {@code tryLock} on the minority times
 * out, on the majority it succeeds. After the heal (MERGE3 installs a merge view with a higher id)
 * every node locks again and fences keep increasing. Every wait is bounded.
 */
@Timeout(120)
class JGroupsPartitionTest {

    private static final Duration VIEWS = Duration.ofSeconds(40);

    private static void cut(JGroupsCluster cluster, int a, int b) {
        Address addressB = cluster.transports.get(b).channel().getAddress();
        Address addressA = cluster.transports.get(a).channel().getAddress();
        cluster.transports.get(a).channel().getProtocolStack().<DISCARD>findProtocol(DISCARD.class)
                .addIgnoreMember(addressB);
        cluster.transports.get(b).channel().getProtocolStack().<DISCARD>findProtocol(DISCARD.class)
                .addIgnoreMember(addressA);
    }

    private static void awaitSizes(JGroupsCluster cluster, int majority, int minority) {
        await().atMost(VIEWS).pollInterval(Duration.ofMillis(50)).until(() -> {
            for (int i = 0; i < 5; i++) {
                if (cluster.node(i).view().size() != (i < 3 ? majority : minority)) {
                    return false;
                }
            }
            return true;
        });
    }

    /**
     * Centralized, Ricart-Agrawala and Suzuki-Kasami (a coordinator, a permission and a token algorithm) in
     * the default build; every algorithm with {@code -Ddlock.test.partition-all=true}.
     */
    static Stream<MutexAlgorithm> algorithms() {
        if (Boolean.getBoolean("dlock.test.partition-all")) {
            return Stream.of(MutexAlgorithm.values());
        }
        return Stream.of(MutexAlgorithm.CENTRALIZED, MutexAlgorithm.RICART_AGRAWALA, MutexAlgorithm.SUZUKI_KASAMI);
    }

    /** Split 3|2: the minority's tryLock times out, the majority grants; after the merge everyone grants, fences increasing. */
    @ParameterizedTest
    @MethodSource("algorithms")
    void onlyMajoritySideGrants(MutexAlgorithm algorithm) throws Exception {
        try (JGroupsCluster cluster = new JGroupsCluster(5, JGroupsCluster.base(algorithm)
                .set(JGroupsTransportFactory.STACK, "dlock-partition-test-stack.xml"))) {
            List<DistributedLock> locks = new ArrayList<>();
            for (LockService s : cluster.nodes) {
                locks.add(s.lock("split"));
            }
            assertTrue(locks.get(4).tryLock(20, TimeUnit.SECONDS), "not granted before the split");
            long before = locks.get(4).fencingToken();
            locks.get(4).unlock();

            long cutAt = System.nanoTime();
            for (int a = 0; a < 3; a++) {
                for (int b = 3; b < 5; b++) {
                    cut(cluster, a, b);
                }
            }
            assertTrue(locks.get(2).tryLock(40, TimeUnit.SECONDS), "the majority side did not grant");
            long recoveryMillis = (System.nanoTime() - cutAt) / 1_000_000; // reported, not asserted
            locks.get(2).unlock();
            awaitSizes(cluster, 3, 2);
            long majorityEpoch = cluster.node(0).view().epoch();
            long minorityEpoch = cluster.node(4).view().epoch();

            assertFalse(locks.get(3).tryLock(500, TimeUnit.MILLISECONDS), "the minority side granted");
            assertFalse(locks.get(4).tryLock(500, TimeUnit.MILLISECONDS), "the minority side granted");
            assertTrue(locks.get(1).tryLock(20, TimeUnit.SECONDS), "the majority side did not grant");
            long majorityFence = locks.get(1).fencingToken();
            locks.get(1).unlock();
            assertTrue(majorityFence > before, "fence " + majorityFence + " not above " + before);

            for (JGroupsTransport t : cluster.transports) {
                t.channel().getProtocolStack().<DISCARD>findProtocol(DISCARD.class).resetIgnoredMembers();
            }
            awaitSizes(cluster, 5, 5);
            long mergeEpoch = cluster.node(0).view().epoch();
            System.out.println("jgroups partition " + algorithm + ": majority view id " + majorityEpoch
                    + ", minority view id " + minorityEpoch + ", merge view id " + mergeEpoch
                    + "; split to first majority grant " + recoveryMillis + " ms (FD_ALL3 timeout 1500 ms"
                    + " + VERIFY_SUSPECT 300 ms)");
            assertTrue(mergeEpoch > Math.max(majorityEpoch, minorityEpoch),
                    "merge epoch " + mergeEpoch + " not above both sides' " + majorityEpoch + ", " + minorityEpoch);
            long last = majorityFence;
            for (int i = 0; i < 5; i++) {
                DistributedLock lock = locks.get(i);
                assertTrue(lock.tryLock(20, TimeUnit.SECONDS), "node " + i + " not granted after the merge");
                try {
                    assertTrue(lock.fencingToken() > last, "fence " + lock.fencingToken() + " not above " + last);
                    last = lock.fencingToken();
                } finally {
                    lock.unlock();
                }
            }
        }
    }
}
