package io.dlock.inmemory;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Clean leaves and the majority rule: nodes shut down one by one announce their leave, so the ones left
 * stay primary down to the last node (without the announcement, the last of a 2-node cluster would hold
 * no majority of its last primary view and block forever).
 */
@Timeout(60)
class CleanLeaveTest {

    /** A 4-node cluster shut down one node at a time: after every close the remaining nodes still lock, fences increasing. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void shuttingDownOneByOne_leavesAPrimaryClusterDownToTheLastNode(MutexAlgorithm algorithm) throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(4, algorithm)) {
            long last = -1;
            for (int closed = 0; closed < 4; closed++) {
                for (int i = closed; i < 4; i++) {
                    LockService node = cluster.node(i);
                    DistributedLock lock = node.lock("shrinking");
                    assertTrue(lock.tryLock(10, TimeUnit.SECONDS),
                            algorithm + ": node " + node.nodeId() + " not granted with " + (4 - closed) + " nodes left, view "
                                    + node.view());
                    try {
                        assertTrue(lock.fencingToken() > last, "fence " + lock.fencingToken() + " not above " + last);
                        last = lock.fencingToken();
                    } finally {
                        lock.unlock();
                    }
                }
                cluster.node(closed).close();
            }
        }
    }
}
