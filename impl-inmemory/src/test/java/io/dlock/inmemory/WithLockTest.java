package io.dlock.inmemory;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.dlock.DistributedLock;
import io.dlock.MutexAlgorithm;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link DistributedLock#withLock}, {@link DistributedLock#callWithLock} and their interruptible variants,
 * on two in-memory nodes: the action runs holding the lock, and every way out of it (return, exception,
 * checked exception, {@link Error}) releases the lock so that the other node can take it. The default
 * methods do not depend on the algorithm; one is enough.
 */
@Timeout(60)
class WithLockTest {

    private InMemoryCluster cluster;
    private DistributedLock lock;
    private DistributedLock otherNode;

    @BeforeEach
    void start() {
        cluster = new InMemoryCluster(2, MutexAlgorithm.RICART_AGRAWALA);
        lock = cluster.node(0).lock("w");
        otherNode = cluster.node(1).lock("w");
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    /** withLock runs the action on the calling thread holding the lock once, and releases it afterwards. */
    @Test
    void withLock_runsHoldingTheLock_thenReleases() throws Exception {
        Thread caller = Thread.currentThread();
        AtomicBoolean ran = new AtomicBoolean();
        lock.withLock(() -> {
            assertSame(caller, Thread.currentThread());
            assertTrue(lock.isHeldByCurrentThread());
            assertEquals(1, lock.getHoldCount());
            assertTrue(lock.fencingToken() > 0);
            ran.set(true);
        });
        assertTrue(ran.get());
        assertReleased();
    }

    /** callWithLock returns the action's result and releases the lock. */
    @Test
    void callWithLock_returnsTheResult_thenReleases() throws Exception {
        long token = lock.callWithLock(lock::fencingToken);
        assertTrue(token > 0);
        assertNull(lock.callWithLock(() -> null));
        assertReleased();
    }

    /** A RuntimeException thrown by the action reaches the caller as the same instance; the lock is released. */
    @Test
    void runtimeException_propagatesUnchanged_andReleases() throws Exception {
        IllegalStateException thrown = new IllegalStateException("from the action");
        IllegalStateException caught = assertThrows(IllegalStateException.class, () -> lock.withLock(() -> {
            throw thrown;
        }));
        assertSame(thrown, caught);
        assertEquals(0, caught.getSuppressed().length);
        assertReleased();
    }

    /** A checked exception is neither wrapped nor widened: the caller catches the action's own type. */
    @Test
    void checkedException_propagatesUnchanged_andReleases() throws Exception {
        IOException thrown = new IOException("disk full");
        try {
            lock.callWithLock(() -> {
                throw thrown;
            });
            fail("callWithLock returned normally");
        } catch (IOException caught) { // compiles only because callWithLock declares the action's IOException
            assertSame(thrown, caught);
        }
        assertReleased();
    }

    /** An Error thrown by the action propagates as the same instance, and the lock is released all the same. */
    @Test
    void error_propagatesUnchanged_andReleases() throws Exception {
        StackOverflowError thrown = new StackOverflowError("deep inside the action");
        assertSame(thrown, assertThrows(StackOverflowError.class, () -> lock.callWithLock(() -> {
            throw thrown;
        })));
        assertReleased();
    }

    /** Inside the action the lock is reentrant: nested withLock/callWithLock and lock/unlock count holds. */
    @Test
    void reentrancy_insideTheAction() throws Exception {
        int innerHolds = lock.callWithLock(() -> {
            lock.lock();
            try {
                assertEquals(2, lock.getHoldCount());
            } finally {
                lock.unlock();
            }
            lock.withLock(() -> assertEquals(2, lock.getHoldCount()));
            assertEquals(1, lock.getHoldCount());
            return lock.callWithLock(lock::getHoldCount);
        });
        assertEquals(2, innerHolds);
        assertReleased();
    }

    /** A nested action that throws releases only its own hold: the outer action still holds the lock. */
    @Test
    void nestedFailure_releasesOnlyTheInnerHold() throws Exception {
        lock.withLock(() -> {
            assertThrows(IllegalArgumentException.class, () -> lock.withLock(() -> {
                throw new IllegalArgumentException("inner");
            }));
            assertTrue(lock.isHeldByCurrentThread());
            assertEquals(1, lock.getHoldCount());
        });
        assertReleased();
    }

    /** A null action is refused before the lock is taken. */
    @Test
    void nullAction_isRefusedWithoutLocking() throws Exception {
        assertThrows(NullPointerException.class, () -> lock.withLock(null));
        assertThrows(NullPointerException.class, () -> lock.callWithLock(null));
        assertThrows(NullPointerException.class, () -> lock.withLockInterruptibly(null));
        assertThrows(NullPointerException.class, () -> lock.callWithLockInterruptibly(null));
        assertFalse(lock.isHeldByCurrentThread());
        assertReleased();
    }

    /** An action that releases its own hold makes the closing unlock throw IllegalMonitorStateException. */
    @Test
    void actionThatUnlocksItself_makesTheClosingUnlockThrow() throws Exception {
        assertThrows(IllegalMonitorStateException.class, () -> lock.withLock(lock::unlock));
        assertReleased();
    }

    /** If the closing unlock fails too (the node left meanwhile), the action's exception wins and carries it. */
    @Test
    void unlockFailureAfterActionFailure_isSuppressedIntoTheActionsException() {
        IllegalStateException thrown = new IllegalStateException("from the action");
        IllegalStateException caught = assertThrows(IllegalStateException.class, () -> lock.withLock(() -> {
            cluster.node(0).close();
            throw thrown;
        }));
        assertSame(thrown, caught);
        assertEquals(1, caught.getSuppressed().length);
        assertInstanceOf(IllegalMonitorStateException.class, caught.getSuppressed()[0]);
    }

    /** The interruptible variants run the action and release the lock like the others. */
    @Test
    void interruptibleVariants_runAndRelease() throws Exception {
        AtomicBoolean ran = new AtomicBoolean();
        lock.withLockInterruptibly(() -> ran.set(lock.isHeldByCurrentThread()));
        assertTrue(ran.get());
        assertEquals("held", lock.callWithLockInterruptibly(() -> lock.isHeldByCurrentThread() ? "held" : "not"));
        assertReleased();
    }

    /** Interrupted while the other node holds the lock: InterruptedException, the action never runs, nothing held. */
    @Test
    void interruptibleVariant_interruptedWhileWaiting_doesNotRunTheAction() throws Exception {
        CountDownLatch otherHolds = new CountDownLatch(1);
        CountDownLatch releaseOther = new CountDownLatch(1);
        CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> otherNode.withLock(() -> {
            otherHolds.countDown();
            awaitQuietly(releaseOther);
        }));
        assertTrue(otherHolds.await(10, TimeUnit.SECONDS));
        AtomicBoolean ran = new AtomicBoolean();
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                lock.withLockInterruptibly(() -> ran.set(true));
            } catch (Throwable t) {
                outcome.set(t);
            }
            outcome.compareAndSet(null, new AssertionError("withLockInterruptibly returned normally"));
        });
        waiter.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> waiter.getState() == Thread.State.WAITING);
        waiter.interrupt();
        waiter.join(10_000);
        assertFalse(waiter.isAlive());
        assertInstanceOf(InterruptedException.class, outcome.get());
        assertFalse(ran.get());
        releaseOther.countDown();
        holder.get(10, TimeUnit.SECONDS);
        assertReleased();
    }

    /** The calling thread no longer holds the lock, and the other node can take it. */
    private void assertReleased() throws Exception {
        assertFalse(lock.isHeldByCurrentThread());
        assertEquals(0, lock.getHoldCount());
        assertTrue(CompletableFuture.supplyAsync(() -> otherNode.callWithLock(otherNode::isHeldByCurrentThread))
                .get(10, TimeUnit.SECONDS), "the other node could not take the lock after the action");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
