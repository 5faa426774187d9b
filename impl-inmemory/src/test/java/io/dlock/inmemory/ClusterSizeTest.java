package io.dlock.inmemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.runtime.NodeRuntime;
import io.dlock.spi.ForwardingTransport;
import io.dlock.spi.Transport;
import io.dlock.spi.TransportException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code dlock.cluster.size}: start waits for a primary view; nodes that start in a minority never grant. */
class ClusterSizeTest {

    private static DlockConfig config(String cluster, int size) {
        return DlockConfig.builder().cluster(cluster).clusterSize(size).build();
    }

    /** Three nodes started at once with size 3: each start returns once all three (a majority) are in. */
    @Test
    void when_threeNodesStartTogether_then_everyStartReturnsInAPrimaryView() throws Exception {
        String cluster = "size-together-" + System.nanoTime();
        List<CompletableFuture<LockService>> starts = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            starts.add(CompletableFuture.supplyAsync(() -> LockService.start(config(cluster, 3))));
        }
        List<LockService> nodes = new ArrayList<>();
        try {
            for (CompletableFuture<LockService> start : starts) {
                nodes.add(start.get(30, TimeUnit.SECONDS));
            }
            for (LockService node : nodes) {
                assertTrue(((NodeRuntime) node).isPrimary(), node + " started outside a primary view");
                assertTrue(node.view().size() >= 2, node.view().toString());
            }
            DistributedLock lock = nodes.get(0).lock("l");
            assertTrue(lock.tryLock(10, TimeUnit.SECONDS));
            lock.unlock();
        } finally {
            nodes.forEach(LockService::close);
        }
    }

    /**
     * A node that starts alone with size 3 is never primary: its start fails after the bound with a
     * message naming the view and the majority it needs, and it has granted nothing.
     */
    @Test
    void when_aNodeStartsAloneWithSizeThree_then_itsStartFailsNamingTheMissingMajority() {
        String cluster = "size-alone-" + System.nanoTime();
        Transport transport = new ShortStart(new InMemoryTransportFactory().create(config(cluster, 3)));
        TransportException e = assertThrows(TransportException.class,
                () -> LockService.start(config(cluster, 3), transport));
        assertTrue(e.getMessage().contains("not in a primary view"), e.getMessage());
        assertTrue(e.getMessage().contains("1 member(s), 2 of dlock.cluster.size=3 needed"), e.getMessage());
    }

    /** Without a size, the same lone node starts at once and is primary (today's behaviour, kept). */
    @Test
    void when_aNodeStartsAloneWithoutSize_then_itIsPrimaryAtOnce() {
        try (LockService node = LockService.start(DlockConfig.builder().cluster("nosize-" + System.nanoTime()).build())) {
            assertTrue(((NodeRuntime) node).isPrimary());
            assertEquals(1, node.view().size());
        }
    }

    /** Two of five: both starts fail, neither node ever granted (a pair is no majority of five). */
    @Test
    void when_twoOfFiveStart_then_neitherIsPrimary() throws Exception {
        String cluster = "size-two-of-five-" + System.nanoTime();
        CompletableFuture<Throwable> a = CompletableFuture.supplyAsync(() -> startFailure(cluster));
        CompletableFuture<Throwable> b = CompletableFuture.supplyAsync(() -> startFailure(cluster));
        for (CompletableFuture<Throwable> f : List.of(a, b)) {
            Throwable t = f.get(30, TimeUnit.SECONDS);
            assertTrue(t instanceof TransportException, String.valueOf(t));
            assertTrue(t.getMessage().contains("of dlock.cluster.size=5 needed"), t.getMessage());
            assertFalse(t.getMessage().contains("has 3 member"), t.getMessage());
        }
    }

    private static Throwable startFailure(String cluster) {
        try (LockService node = LockService.start(config(cluster, 5),
                new ShortStart(new InMemoryTransportFactory().create(config(cluster, 5))))) {
            return new AssertionError("started in view " + node.view());
        } catch (RuntimeException e) {
            return e;
        }
    }

    /** An in-memory transport whose start bound is 1 s, so a failing start fails quickly. */
    private static final class ShortStart extends ForwardingTransport {

        ShortStart(Transport delegate) {
            super(delegate);
        }

        @Override
        public Duration primaryViewTimeout() {
            return Duration.ofSeconds(1);
        }
    }
}
