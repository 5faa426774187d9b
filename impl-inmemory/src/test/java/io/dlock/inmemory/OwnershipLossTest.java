package io.dlock.inmemory;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.LockOwnershipLostException;
import io.dlock.MutexAlgorithm;
import io.dlock.OwnershipListener;
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
 * Ownership loss the holder can see: a holder whose node falls into the minority of a partition
 * ({@link InMemoryNetwork#split}) is told at once through its {@link OwnershipListener}, no longer
 * holds the lock for {@code isHeldByCurrentThread}, and its {@code fencingToken()}, {@code unlock()} and
 * {@code lock()} throw {@link LockOwnershipLostException}; its unlock ends the local hold, and after the
 * heal the node locks again with a higher token than the majority's.
 */
@Timeout(60)
class OwnershipLossTest {

    private static final List<NodeId> MAJORITY = List.of(NodeId.of(0), NodeId.of(1), NodeId.of(2));
    private static final List<NodeId> MINORITY = List.of(NodeId.of(3), NodeId.of(4));

    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void minorityHolderIsToldAndLosesTheLock(MutexAlgorithm algorithm) throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(5, algorithm)) {
            String name = cluster.node(0).config().cluster();
            List<DistributedLock> locks = cluster.nodes.stream().map(s -> s.lock("owned")).toList();
            DistributedLock minority = locks.get(4);
            List<OwnershipLoss> told = new CopyOnWriteArrayList<>();
            List<Thread> toldOn = new CopyOnWriteArrayList<>();
            minority.addOwnershipListener(loss -> {
                told.add(loss);
                toldOn.add(Thread.currentThread());
            });
            assertTrue(minority.tryLock(10, TimeUnit.SECONDS), "node 4 not granted before the split");
            assertTrue(minority.tryLock(10, TimeUnit.SECONDS), "reentrant lock failed"); // hold count 2
            long token = minority.fencingToken();

            InMemoryNetwork.shared().split(name, List.of(MAJORITY, MINORITY));
            await().atMost(Duration.ofSeconds(10)).until(() -> told.size() == 1);
            OwnershipLoss loss = told.get(0);
            assertEquals("owned", loss.lockName());
            assertEquals(token, loss.fencingToken());
            assertSame(Thread.currentThread(), loss.holder());
            assertNotEquals(Thread.currentThread(), toldOn.get(0), "listener must run on a library thread");

            assertFalse(minority.isHeldByCurrentThread());
            assertEquals(0, minority.getHoldCount());
            LockOwnershipLostException onToken = assertThrows(LockOwnershipLostException.class, minority::fencingToken);
            assertEquals(token, onToken.fencingToken());
            assertEquals("owned", onToken.lockName());
            assertThrows(LockOwnershipLostException.class, minority::lock, "must unlock the lost hold first");

            assertTrue(locks.get(0).tryLock(10, TimeUnit.SECONDS), "the majority side did not grant");
            long majorityToken = locks.get(0).fencingToken();
            assertTrue(majorityToken > token, "majority token " + majorityToken + " not above " + token);
            locks.get(0).unlock();

            // two holds were lost: each unlock throws, the second ends the local hold
            assertInstanceOf(IllegalMonitorStateException.class,
                    assertThrows(LockOwnershipLostException.class, minority::unlock));
            assertThrows(LockOwnershipLostException.class, minority::unlock);
            IllegalMonitorStateException after = assertThrows(IllegalMonitorStateException.class, minority::unlock);
            assertFalse(after instanceof LockOwnershipLostException, "the lost hold is over: a plain non-owner error");

            InMemoryNetwork.shared().heal(name);
            await().atMost(Duration.ofSeconds(10)).until(() -> cluster.nodes.stream().allMatch(s -> s.view().size() == 5));
            assertTrue(minority.tryLock(10, TimeUnit.SECONDS), "node 4 not granted after the heal");
            try {
                assertTrue(minority.fencingToken() > majorityToken);
            } finally {
                minority.unlock();
            }
            assertEquals(1, told.size(), "one loss, told once");
        }
    }

    /** A removed listener is not told; a holder on the majority side loses nothing. */
    @Test
    void majorityHolderKeepsTheLockAndRemovedListenersAreNotTold() throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(5, MutexAlgorithm.CENTRALIZED)) {
            String name = cluster.node(0).config().cluster();
            DistributedLock majority = cluster.node(1).lock("kept");
            DistributedLock minority = cluster.node(3).lock("kept");
            List<OwnershipLoss> told = new CopyOnWriteArrayList<>();
            OwnershipListener listener = told::add;
            majority.addOwnershipListener(listener);
            minority.addOwnershipListener(listener);
            minority.removeOwnershipListener(listener);
            assertTrue(majority.tryLock(10, TimeUnit.SECONDS));
            InMemoryNetwork.shared().split(name, List.of(MAJORITY, MINORITY));
            await().atMost(Duration.ofSeconds(10)).until(() -> cluster.node(1).view().size() == 3);
            assertTrue(majority.isHeldByCurrentThread());
            long token = majority.fencingToken();
            majority.unlock();
            assertTrue(token > 0);
            assertTrue(told.isEmpty(), "nobody lost anything: " + told);
            InMemoryNetwork.shared().heal(name);
        }
    }
}
