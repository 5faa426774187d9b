package io.dlock.inmemory;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockMetrics;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The messages one event of a lock sends to one node leave in one transport message: a holder that releases while
 * another local thread waits sends its release and the node's next request together.
 */
@Timeout(60)
class MessageBundlingTest {

    /**
     * Centralized, 2 nodes, on the client node: thread 1 locks (REQUEST), thread 2 queues behind it, thread 1
     * unlocks (RELEASE and the node's next REQUEST, one frame), thread 2 is granted and unlocks (RELEASE). Four
     * messages in three frames; on the coordinator's node nothing is sent at all.
     */
    @Test
    void aReleaseWithALocalWaiterSendsTheNextRequestInTheSameFrame() throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(2, DlockConfig.builder().mutex(MutexAlgorithm.CENTRALIZED))) {
            for (LockService node : cluster.nodes) { // a lock's first use on a node may send more (its epoch's SYNC)
                node.lock("bundled").withLock(() -> { });
            }
            int clients = 0;
            for (LockService node : cluster.nodes) {
                DistributedLock lock = node.lock("bundled");
                LockMetrics before = lock.metrics();
                lock.lock();
                CountDownLatch secondEntered = new CountDownLatch(1);
                Thread second = new Thread(() -> {
                    lock.lock();
                    secondEntered.countDown();
                    lock.unlock();
                });
                second.start();
                await().atMost(Duration.ofSeconds(10)).until(() -> lock.metrics().waitingThreads() == 1);
                lock.unlock();
                assertTrue(secondEntered.await(10, TimeUnit.SECONDS), "the waiting thread was never granted");
                second.join(10_000);
                LockMetrics after = lock.metrics();
                long messages = after.messagesSent() - before.messagesSent();
                long frames = after.framesSent() - before.framesSent();
                assertEquals(2, after.entries() - before.entries());
                if (messages == 0) {
                    assertEquals(0, frames, "the coordinator's own entries send nothing");
                    continue;
                }
                clients++;
                assertEquals(4, messages, "REQUEST, RELEASE, REQUEST, RELEASE");
                assertEquals(3, frames, "the RELEASE and the next REQUEST share a frame");
            }
            assertEquals(1, clients, "one of the two nodes is the coordinator, the other its client");
        }
    }
}
