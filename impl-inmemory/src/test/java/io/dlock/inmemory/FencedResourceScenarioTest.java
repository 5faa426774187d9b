package io.dlock.inmemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.FencedResource;
import io.dlock.MutexAlgorithm;
import io.dlock.StaleFencingTokenException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The paused-holder case that no lock service can prevent, and that fencing tokens answer: a holder is
 * declared dead while it still believes it holds the lock (here: its node leaves the cluster, as failure
 * detection would remove a paused process), another node takes the lock and writes, then the old holder
 * "resumes" and writes with its old token: the fenced resource refuses it.
 */
@Timeout(60)
class FencedResourceScenarioTest {

    /** After the holder is removed, the next holder's token is newer, and the old holder's late write is refused. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void when_pausedHolderResumesAfterAnotherTookTheLock_then_itsWriteIsRefused(MutexAlgorithm algorithm)
            throws Exception {
        FencedResource<String> store = new FencedResource<>("initial");
        try (InMemoryCluster cluster = new InMemoryCluster(3, algorithm)) {
            DistributedLock paused = cluster.node(0).lock("orders");
            paused.lock();
            long oldToken = paused.fencingToken();
            store.write(oldToken, "written by the first holder");

            cluster.node(0).close(); // the holder "pauses" and is removed from the view

            DistributedLock next = cluster.node(1).lock("orders");
            assertTrue(next.tryLock(20, TimeUnit.SECONDS), algorithm + ": nobody got the lock after the holder left");
            try {
                assertTrue(next.fencingToken() > oldToken, algorithm + ": token did not increase across the view change");
                store.write(next.fencingToken(), "written by the second holder");
            } finally {
                next.unlock();
            }

            // the first holder wakes up, still believing it holds the lock, and writes
            StaleFencingTokenException refused = assertThrows(StaleFencingTokenException.class,
                    () -> store.write(oldToken, "late write of the paused holder"));
            assertEquals(oldToken, refused.token());
            assertEquals("written by the second holder", store.read());
        }
    }
}
