package io.dlock.inmemory;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockMetrics;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.NodeMetrics;
import io.dlock.metrics.DlockMeterBinder;
import io.dlock.NodeId;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The metrics an operator reads (acquire-wait and hold times, waiting threads, grants per epoch, view
 * changes, time in non-primary views), read through both exports: Micrometer ({@link DlockMeterBinder}
 * on a {@link SimpleMeterRegistry}) and JMX (the platform MBean server, by the documented ObjectNames),
 * and checked against each other and against what the test did.
 */
@Timeout(60)
class MetricsTest {

    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();
    private static final long HOLD_MILLIS = 200;

    private static DlockConfig.Builder jmxOn(MutexAlgorithm algorithm) {
        return DlockConfig.builder().mutex(algorithm).metricsJmx(true);
    }

    private static ObjectName lockName(LockService node, String lock) throws Exception {
        return new ObjectName("io.dlock:type=Lock,cluster=" + node.config().cluster() + ",node=" + node.nodeId()
                + ",name=" + lock);
    }

    private static ObjectName nodeName(LockService node) throws Exception {
        return new ObjectName("io.dlock:type=Node,cluster=" + node.config().cluster() + ",node=" + node.nodeId());
    }

    private static long jmxLong(ObjectName name, String attribute) throws Exception {
        return ((Number) JMX.getAttribute(name, attribute)).longValue();
    }

    private static Tagged tagged(MeterRegistry registry, LockService node, String lock) {
        return new Tagged(registry, node.nodeId().toString(), lock);
    }

    /** Reads one node's (and lock's) meters from a registry. */
    private record Tagged(MeterRegistry registry, String node, String lock) {
        FunctionTimer timer(String name) {
            return registry.get(name).tag("node", node).tag("lock", lock).functionTimer();
        }

        double gauge(String name) {
            return registry.get(name).tag("node", node).tag("lock", lock).gauge().value();
        }

        double counter(String name) {
            return registry.get(name).tag("node", node).tag("lock", lock).functionCounter().count();
        }

        double nodeCounter(String name) {
            return registry.get(name).tag("node", node).functionCounter().count();
        }
    }

    /**
     * Node 0 holds the lock for 200 ms while a thread of node 1 waits for it: node 1 shows one waiting
     * thread, then an acquire wait of at least most of that hold; node 0 a hold of at least 200 ms; entries,
     * wait and hold counts agree, and Micrometer and JMX give the same values as {@code metrics()}.
     */
    @ParameterizedTest
    @EnumSource(value = MutexAlgorithm.class, names = {"CENTRALIZED", "RICART_AGRAWALA", "SUZUKI_KASAMI"})
    void waitAndHoldTimesReadThroughMicrometerAndJmx(MutexAlgorithm algorithm) throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(3, jmxOn(algorithm))) {
            String name = "metered";
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            for (LockService node : cluster.nodes) {
                new DlockMeterBinder(node, List.of(name)).bindTo(registry);
            }
            DistributedLock first = cluster.node(0).lock(name);
            DistributedLock second = cluster.node(1).lock(name);
            ObjectName secondBean = lockName(cluster.node(1), name);

            first.lock();
            long heldAt = System.nanoTime();
            CountDownLatch acquired = new CountDownLatch(1);
            Thread waiter = new Thread(() -> {
                second.lock();
                second.unlock();
                acquired.countDown();
            });
            waiter.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> second.metrics().waitingThreads() == 1);
            assertEquals(1, jmxLong(secondBean, "WaitingThreads"), "JMX waiting threads");
            assertEquals(1.0, tagged(registry, cluster.node(1), name).gauge("dlock.lock.waiting.threads"));
            long remaining = TimeUnit.MILLISECONDS.toNanos(HOLD_MILLIS) - (System.nanoTime() - heldAt);
            if (remaining > 0) {
                TimeUnit.NANOSECONDS.sleep(remaining);
            }
            first.unlock();
            assertTrue(acquired.await(10, TimeUnit.SECONDS), "node 1 never got the lock");
            waiter.join();

            LockMetrics holder = first.metrics();
            LockMetrics other = second.metrics();
            assertEquals(1, holder.entries());
            assertEquals(1, holder.acquireWait().count());
            assertEquals(1, holder.hold().count());
            assertTrue(holder.hold().totalNanos() >= TimeUnit.MILLISECONDS.toNanos(HOLD_MILLIS),
                    "hold time " + holder.hold().totalNanos() + " ns below the " + HOLD_MILLIS + " ms held");
            assertEquals(holder.hold().totalNanos(), holder.hold().maxNanos());
            assertEquals(1, other.entries());
            assertEquals(1, other.acquireWait().count());
            assertTrue(other.acquireWait().totalNanos() >= TimeUnit.MILLISECONDS.toNanos(HOLD_MILLIS / 2),
                    "node 1 waited " + other.acquireWait().totalNanos() + " ns while node 0 held for " + HOLD_MILLIS
                            + " ms");
            assertTrue(other.acquireWait().percentileNanos(0.99) >= other.acquireWait().maxNanos() / 2,
                    "p99 " + other.acquireWait().percentileNanos(0.99) + " far below the max");
            assertEquals(0, other.waitingThreads());
            assertEquals(1, holder.epochGrants(), "grants in the current epoch on node 0");
            assertEquals(1, other.epochGrants(), "grants in the current epoch on node 1");

            for (int i = 0; i < 2; i++) {
                LockService node = cluster.node(i);
                LockMetrics m = node.lock(name).metrics();
                Tagged meters = tagged(registry, node, name);
                ObjectName bean = lockName(node, name);
                FunctionTimer wait = meters.timer("dlock.lock.acquire.wait");
                assertEquals(m.acquireWait().count(), (long) wait.count(), "Micrometer wait count, node " + i);
                assertEquals(m.acquireWait().totalNanos(), wait.totalTime(TimeUnit.NANOSECONDS), 1.0,
                        "Micrometer wait total, node " + i);
                FunctionTimer hold = meters.timer("dlock.lock.hold");
                assertEquals(m.hold().count(), (long) hold.count(), "Micrometer hold count, node " + i);
                assertEquals(m.hold().totalNanos(), hold.totalTime(TimeUnit.NANOSECONDS), 1.0);
                assertEquals(m.entries(), (long) meters.counter("dlock.lock.entries"));
                // a RELEASE may still be on its way out: the frame counter is compared once the lock is quiet
                DistributedLock lockHere = node.lock(name);
                await().atMost(Duration.ofSeconds(10)).until(() -> lockHere.metrics().framesSent()
                        == (long) meters.counter("dlock.lock.frames.sent")
                        && lockHere.metrics().framesSent() == jmxLong(bean, "FramesSent"));
                LockMetrics quiet = lockHere.metrics();
                assertTrue(quiet.framesSent() > 0 && quiet.framesSent() <= quiet.messagesSent(),
                        "frames " + quiet.framesSent() + " carry the " + quiet.messagesSent() + " messages, node " + i);
                assertEquals(m.epochGrants(), (long) meters.gauge("dlock.lock.epoch.grants"));
                // A TimeGauge converts through its base unit in double: 16 380 ns came back as 16 379.99..., so not cast to long.
                assertEquals(m.hold().maxNanos(), registry.get("dlock.lock.hold.max").tag("node",
                        node.nodeId().toString()).tag("lock", name).timeGauge().value(TimeUnit.NANOSECONDS), 1.0);

                assertEquals(m.acquireWait().count(), jmxLong(bean, "AcquireWaitCount"), "JMX wait count, node " + i);
                assertEquals(m.acquireWait().totalNanos(), jmxLong(bean, "AcquireWaitTotalNanos"));
                assertEquals(m.acquireWait().maxNanos(), jmxLong(bean, "AcquireWaitMaxNanos"));
                assertEquals(m.acquireWait().percentileNanos(0.99), jmxLong(bean, "AcquireWaitP99Nanos"));
                assertEquals(m.hold().count(), jmxLong(bean, "HoldCount"));
                assertEquals(m.hold().totalNanos(), jmxLong(bean, "HoldTotalNanos"));
                assertEquals(m.hold().percentileNanos(0.5), jmxLong(bean, "HoldP50Nanos"));
                assertEquals(m.entries(), jmxLong(bean, "Entries"));
                assertEquals(m.epochGrants(), jmxLong(bean, "EpochGrants"));
                assertEquals(0, jmxLong(bean, "WaitingThreads"));
                assertEquals(algorithm.configName(), JMX.getAttribute(bean, "Algorithm"));

                NodeMetrics n = node.nodeMetrics();
                ObjectName nodeBean = nodeName(node);
                assertTrue(n.primary());
                assertEquals(0, n.nonPrimaryNanos(), "a node always in primary views");
                assertEquals(n.viewChanges(), jmxLong(nodeBean, "ViewChanges"));
                assertEquals(n.viewChanges(), (long) meters.nodeCounter("dlock.node.view.changes"));
                assertEquals(n.epoch(), jmxLong(nodeBean, "Epoch"));
                assertEquals(Boolean.TRUE, JMX.getAttribute(nodeBean, "Primary"));
            }
            // the node-wide sum carries the distributions too
            assertEquals(1, cluster.node(1).metrics().acquireWait().count());
        }
    }

    /**
     * Split 3|2: the minority's time in non-primary views grows while the split lasts (read through JMX and
     * Micrometer), the majority's stays 0; every node counts the view changes; after the heal the minority's
     * time stops growing, and a new epoch starts the grants per epoch from 0.
     */
    @Test
    void nonPrimaryTimeGrowsOnlyInTheMinority() throws Exception {
        try (InMemoryCluster cluster = new InMemoryCluster(5, jmxOn(MutexAlgorithm.CENTRALIZED))) {
            String clusterName = cluster.node(0).config().cluster();
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            for (LockService node : cluster.nodes) {
                new DlockMeterBinder(node, List.of()).bindTo(registry);
            }
            DistributedLock lock = cluster.node(0).lock("epochs");
            lock.lock();
            lock.unlock();
            assertEquals(1, lock.metrics().epochGrants());
            long[] changesBefore = new long[5];
            for (int i = 0; i < 5; i++) {
                changesBefore[i] = cluster.node(i).nodeMetrics().viewChanges();
            }

            InMemoryNetwork.shared().split(clusterName, List.of(List.of(NodeId.of(0), NodeId.of(1), NodeId.of(2)),
                    List.of(NodeId.of(3), NodeId.of(4))));
            await().atMost(Duration.ofSeconds(10)).until(() -> cluster.nodes.stream()
                    .allMatch(s -> s.view().size() == (s.nodeId().value() < 3 ? 3 : 2)));
            LockService minority = cluster.node(3);
            ObjectName minorityBean = nodeName(minority);
            assertFalse(minority.nodeMetrics().primary());
            long early = jmxLong(minorityBean, "NonPrimaryNanos");
            Thread.sleep(100);
            long late = jmxLong(minorityBean, "NonPrimaryNanos");
            assertTrue(late - early >= TimeUnit.MILLISECONDS.toNanos(100),
                    "non-primary time grew by " + (late - early) + " ns in 100 ms");
            double seconds = registry.get("dlock.node.nonprimary.time").tag("node", minority.nodeId().toString())
                    .functionCounter().count();
            assertTrue(seconds * 1e9 >= late, "Micrometer's " + seconds + " s behind JMX's " + late + " ns");
            assertEquals(0, jmxLong(nodeName(cluster.node(0)), "NonPrimaryNanos"), "the majority was always primary");
            assertEquals(0, lock.metrics().epochGrants(), "a new epoch starts the grants per epoch from 0");
            for (int i = 0; i < 5; i++) {
                assertTrue(cluster.node(i).nodeMetrics().viewChanges() > changesBefore[i], "node " + i
                        + " did not count the split's view");
            }

            InMemoryNetwork.shared().heal(clusterName);
            await().atMost(Duration.ofSeconds(10)).until(() -> cluster.nodes.stream().allMatch(
                    s -> s.view().size() == 5 && s.nodeMetrics().primary()));
            long healed = minority.nodeMetrics().nonPrimaryNanos();
            assertTrue(healed >= late);
            Thread.sleep(50);
            assertEquals(healed, jmxLong(minorityBean, "NonPrimaryNanos"), "non-primary time grew in a primary view");
        }
    }

    /** Closing a node unregisters its MBeans; without {@code dlock.metrics.jmx} none is registered. */
    @Test
    void mbeansLiveWithTheNodeAndOnlyWhenAskedFor() throws Exception {
        LockService node;
        try (InMemoryCluster cluster = new InMemoryCluster(1, jmxOn(MutexAlgorithm.CENTRALIZED))) {
            node = cluster.node(0);
            node.lock("a");
            assertTrue(JMX.isRegistered(nodeName(node)));
            assertTrue(JMX.isRegistered(lockName(node, "a")));
        }
        assertFalse(JMX.isRegistered(nodeName(node)), "node MBean left after close");
        assertFalse(JMX.isRegistered(lockName(node, "a")), "lock MBean left after close");
        try (InMemoryCluster cluster = new InMemoryCluster(1, MutexAlgorithm.CENTRALIZED)) {
            cluster.node(0).lock("a");
            assertTrue(JMX.queryNames(new ObjectName("io.dlock:cluster=" + cluster.node(0).config().cluster() + ",*"),
                    null).isEmpty(), "MBeans registered without dlock.metrics.jmx=true");
        }
    }
}
