package io.dlock.inmemory;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.runtime.NodeRuntime;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import io.dlock.runtime.Envelope;
import io.dlock.NodeId;
import io.dlock.spi.ForwardingTransport;
import io.dlock.spi.Transport;
import io.dlock.spi.WireReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A closed {@link LockService}: the {@link DistributedLock} handles the application kept fail with
 * {@link IllegalStateException}, whether or not the lock's state was reclaimed before the close, and build
 * nothing (no lock state, no MBean); concurrent closes run the close once.
 */
@Timeout(120)
class ClosedServiceTest {

    /** Short, so that the reclaimed case does not wait long; the default is 60 s. */
    private static final Duration EXPIRY = Duration.ofMillis(200);

    private static NodeRuntime runtime(LockService node) {
        return (NodeRuntime) node;
    }

    /** Every call that acts on the lock, on a handle of a closed service, throws IllegalStateException at once. */
    @ParameterizedTest(name = "reclaimed before the close: {0}")
    @ValueSource(booleans = {false, true})
    void keptHandle_afterClose_everyCallThrowsIllegalState(boolean reclaimed) throws Exception {
        DlockConfig.Builder template = DlockConfig.builder().mutex(MutexAlgorithm.CENTRALIZED).idleExpiry(EXPIRY)
                .metricsJmx(true);
        try (InMemoryCluster cluster = new InMemoryCluster(2, template)) {
            LockService node = cluster.node(0);
            DistributedLock kept = node.lock("kept");
            assertTrue(kept.tryLock(20, TimeUnit.SECONDS));
            kept.unlock();
            if (reclaimed) {
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
                    cluster.nodes.forEach(n -> runtime(n).expireIdleLocks());
                    return cluster.nodes.stream().allMatch(n -> runtime(n).lockDrivers() == 0);
                });
            }
            ObjectName mbeans = new ObjectName("io.dlock:type=Lock,cluster=" + node.config().cluster()
                    + ",node=" + node.nodeId() + ",*");
            node.close();

            assertClosed("lock()", kept::lock);
            assertClosed("lockInterruptibly()", kept::lockInterruptibly);
            assertClosed("tryLock()", kept::tryLock);
            assertClosed("tryLock(time, unit)", () -> kept.tryLock(1, TimeUnit.SECONDS));
            // held locks are dropped by the close: unlock() says so as for any thread that does not hold the lock
            assertTimeoutPreemptively(Duration.ofSeconds(10),
                    () -> assertThrows(IllegalMonitorStateException.class, kept::unlock), "unlock() waited");
            assertClosed("newCondition()", kept::newCondition);
            assertClosed("newCondition(name)", () -> kept.newCondition("not-empty"));
            assertClosed("fencingToken()", kept::fencingToken);
            assertClosed("withLock(action)", () -> kept.withLock(() -> { }));

            assertFalse(kept.isHeldByCurrentThread());
            assertEquals(0, kept.getHoldCount());
            if (reclaimed) {
                assertEquals(0, runtime(node).lockDrivers(), "no lock state built after the close");
            }
            assertEquals(Set.of(), registered(mbeans), "no lock MBean left or registered after the close");
        }
    }

    private static Set<ObjectName> registered(ObjectName pattern) throws MalformedObjectNameException {
        return ManagementFactory.getPlatformMBeanServer().queryNames(pattern, null);
    }

    /** {@code call} throws IllegalStateException naming the closed service, within seconds (it must not wait). */
    private static void assertClosed(String call, Executable body) {
        IllegalStateException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(IllegalStateException.class, body, call + " on a closed service"),
                call + " waited on a closed service");
        assertTrue(e.getMessage().contains("closed"), call + ": " + e.getMessage());
    }

    /**
     * {@code close()} from several threads at once runs the close once (one leave announcement to each member,
     * one transport close), and every caller returns only after it completed.
     */
    @Test
    void concurrentClose_runsOnce_andEveryCallerReturnsAfterIt() throws Exception {
        DlockConfig config = DlockConfig.builder().cluster("close-" + UUID.randomUUID()).nodeId(0).build();
        CountingTransport transport = new CountingTransport(new InMemoryTransportFactory().create(config));
        LockService closing = NodeRuntime.start(config, transport);
        try (LockService other = LockService.start(config.toBuilder().nodeId(1).build())) {
            await().atMost(Duration.ofSeconds(10)).until(() -> closing.view().size() == 2);
            int callers = 8;
            CyclicBarrier start = new CyclicBarrier(callers);
            ExecutorService threads = Executors.newFixedThreadPool(callers);
            try {
                List<Future<Integer>> closesSeenOnReturn = new ArrayList<>();
                for (int i = 0; i < callers; i++) {
                    closesSeenOnReturn.add(threads.submit(() -> {
                        start.await();
                        closing.close();
                        return transport.closes.get();
                    }));
                }
                for (Future<Integer> seen : closesSeenOnReturn) {
                    assertEquals(1, seen.get(30, TimeUnit.SECONDS), "transport closes when a caller returned");
                }
            } finally {
                threads.shutdownNow();
            }
            assertEquals(1, transport.closes.get(), "transport closes");
            assertEquals(1, transport.leaving.get(), "leave announcements to the other member");
        }
    }

    /** Counts what {@code close()} does to the transport: closes, and leave announcements sent. */
    private static final class CountingTransport extends ForwardingTransport {

        /** {@code CleanLeave.LEAVING}: the membership message type of a leave announcement. */
        private static final int LEAVING = 1;
        final AtomicInteger closes = new AtomicInteger();
        final AtomicInteger leaving = new AtomicInteger();

        CountingTransport(Transport delegate) {
            super(delegate);
        }

        @Override
        public void send(NodeId to, byte[] payload) {
            WireReader in = new WireReader(payload);
            if (Envelope.readFrom(in).kind() == Envelope.KIND_MEMBERSHIP && in.readByte() == LEAVING) {
                leaving.incrementAndGet();
            }
            super.send(to, payload);
        }

        @Override
        public void close() {
            closes.incrementAndGet();
            super.close();
        }
    }
}
