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
     * messages in three frames, counted once the coordinator has received all four.
     */
    @Test
    void aReleaseWithALocalWaiterSendsTheNextRequestInTheSameFrame() throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(2, DlockConfig.builder().mutex(MutexAlgorithm.CENTRALIZED))) {
            for (LockService node : cluster.nodes) { // a lock's first use on a node may send more (its epoch's SYNC)
                node.lock("bundled").withLock(() -> { });
            }
            LockService client = null;
            LockService coordinator = null;
            for (LockService node : cluster.nodes) { // the coordinator's own entries send nothing
                long before = node.lock("bundled").metrics().messagesSent();
                node.lock("bundled").withLock(() -> { });
                if (node.lock("bundled").metrics().messagesSent() == before) {
                    coordinator = node;
                } else {
                    client = node;
                }
            }
            assertTrue(client != null && coordinator != null, "one node is the coordinator, the other its client");
            DistributedLock lock = client.lock("bundled");
            DistributedLock atCoordinator = coordinator.lock("bundled");
            await().atMost(Duration.ofSeconds(10)).until(() -> lock.metrics().messagesSent()
                    == atCoordinator.metrics().messagesReceived()); // the probe's RELEASE has arrived
            LockMetrics before = lock.metrics();
            long receivedBefore = atCoordinator.metrics().messagesReceived();

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
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> atCoordinator.metrics().messagesReceived() - receivedBefore >= 4);

            LockMetrics after = lock.metrics();
            assertEquals(2, after.entries() - before.entries());
            assertEquals(4, after.messagesSent() - before.messagesSent(), "REQUEST, RELEASE, REQUEST, RELEASE");
            assertEquals(3, after.framesSent() - before.framesSent(), "the RELEASE and the next REQUEST share a frame");
        }
    }
}
