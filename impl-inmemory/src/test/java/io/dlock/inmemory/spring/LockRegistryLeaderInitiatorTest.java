package io.dlock.inmemory.spring;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.MutexAlgorithm;
import io.dlock.inmemory.InMemoryCluster;
import io.dlock.spring.integration.DlockLockRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

/**
 * Spring Integration's own {@link LockRegistryLeaderInitiator} on {@link DlockLockRegistry}, on 3 in-memory nodes:
 * exactly one candidate is granted, and when that node's service closes another one is.
 */
@Timeout(60)
class LockRegistryLeaderInitiatorTest {

    /** One leader among 3 nodes; the leader's service closes; one of the 2 others is granted. */
    @Test
    void oneLeader_thenAnotherAfterTheLeadersServiceCloses() {
        List<RecordingCandidate> candidates = new ArrayList<>();
        List<LockRegistryLeaderInitiator> initiators = new ArrayList<>();
        try (InMemoryCluster cluster = new InMemoryCluster(3, MutexAlgorithm.CENTRALIZED)) {
            for (int i = 0; i < 3; i++) {
                RecordingCandidate candidate = new RecordingCandidate("node-" + i);
                LockRegistryLeaderInitiator initiator =
                        new LockRegistryLeaderInitiator(new DlockLockRegistry(cluster.node(i)), candidate);
                initiator.setHeartBeatMillis(100);
                initiator.setBusyWaitMillis(50);
                candidates.add(candidate);
                initiators.add(initiator);
                initiator.start();
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> leaders(candidates).size() == 1);
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
                    .until(() -> leaders(candidates).size() == 1);
            int leader = leaders(candidates).get(0);
            assertTrue(initiators.get(leader).getContext().isLeader());

            cluster.node(leader).close();
            await().atMost(Duration.ofSeconds(20)).until(() -> leaders(candidates).stream().anyMatch(i -> i != leader));
            List<Integer> others = leaders(candidates).stream().filter(i -> i != leader).toList();
            assertEquals(1, others.size(), "one new leader among the live nodes: " + others);
        } finally {
            initiators.forEach(LockRegistryLeaderInitiator::stop);
        }
    }

    private static List<Integer> leaders(List<RecordingCandidate> candidates) {
        return IntStream.range(0, candidates.size()).filter(i -> candidates.get(i).leads()).boxed().toList();
    }
}
