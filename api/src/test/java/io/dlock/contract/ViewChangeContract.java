package io.dlock.contract;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.NodeId;
import io.dlock.runtime.Envelope;
import io.dlock.runtime.NodeRuntime;
import io.dlock.spi.ForwardingTransport;
import io.dlock.spi.Transport;
import io.dlock.spi.WireReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A view change on nodes with many live locks, on any transport: every lock learns of the view and most exchange a
 * few messages (the centralized coordinator of each name asks every member for its state; a token's holder tells the
 * newcomer), but each node writes them as a few large transport messages per destination, not one per lock and
 * message. Three nodes keep {@link #names()} names used once, a fourth joins, and the transport messages of locks (not
 * the epoch lease's probes or elections, which go on) are counted from the join until the cluster is quiet; each
 * count and how long the change took are printed. Afterwards the new node locks every name.
 *
 * <p>Before nodes batched ({@code BatchingTransport}), such a join cost 4.5 transport messages per live name with
 * centralized and 9 with suzuki-kasami, on either transport; with batches, 0.02 to 0.15 (docs/performance.md, "A view
 * change with many live locks").
 */
public abstract class ViewChangeContract {

    /** Quiet for this long: the view change's messages are over. */
    private static final Duration QUIET = Duration.ofMillis(500);
    private static final int THREADS_PER_NODE = 4;

    /** A configuration template for {@code algorithm}: a fresh cluster name and the transport's settings. */
    protected abstract DlockConfig.Builder template(MutexAlgorithm algorithm);

    /** The transport of a node with {@code config}, not started. */
    protected abstract Transport transport(DlockConfig config);

    /** Names used once before the join: {@code -Ddlock.viewchange.names}, 2 000 by default. */
    protected int names() {
        return Integer.getInteger("dlock.viewchange.names", 2_000);
    }

    /** The algorithms whose locks answer a view change (ricart-agrawala's send nothing then). */
    @ParameterizedTest
    @EnumSource(value = MutexAlgorithm.class, names = {"CENTRALIZED", "SUZUKI_KASAMI"})
    void aJoinCostsAFewTransportMessagesPerDestinationNotOnePerLock(MutexAlgorithm algorithm) throws Exception {
        int names = names();
        DlockConfig.Builder template = template(algorithm).idleExpiry(Duration.ofHours(1)).maxLiveLocks(0);
        AtomicLong sends = new AtomicLong();
        AtomicLong lastSend = new AtomicLong();
        List<LockService> nodes = new ArrayList<>();
        try {
            for (long id = 1; id <= 3; id++) {
                nodes.add(start(template.nodeId(id).build(), sends, lastSend));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> nodes.stream().allMatch(n -> n.view().size() == 3));
            useEachOnce(nodes, names);
            awaitQuiet(sends);

            long before = sends.get();
            long joined = System.nanoTime();
            nodes.add(start(template.nodeId(4).build(), sends, lastSend));
            await().atMost(Duration.ofSeconds(60)).until(() -> nodes.stream().allMatch(n -> n.view().size() == 4));
            awaitQuiet(sends);
            long messages = sends.get() - before;
            System.out.printf("%s: a join with %d live names on 3 nodes: %d transport messages of locks (%.3f per"
                    + " name)%s%n", algorithm.configName(), names, messages, (double) messages / names,
                    messages == 0 ? "" : String.format(", the last %.0f ms after the join",
                            (lastSend.get() - joined) / 1e6));

            for (int i = 0; i < names; i++) {
                DistributedLock lock = nodes.get(3).lock(name(i));
                assertTrue(lock.tryLock(30, TimeUnit.SECONDS), name(i) + " granted to the new node");
                lock.unlock();
            }
            assertTrue(messages <= names / 2, algorithm.configName() + ": " + messages
                    + " transport messages of locks for a join with " + names + " live names; at most " + names / 2);
        } finally {
            nodes.forEach(LockService::close);
        }
    }

    private static String name(int i) {
        return "order-" + i;
    }

    private LockService start(DlockConfig config, AtomicLong sends, AtomicLong lastSend) {
        return NodeRuntime.start(config, new CountingTransport(transport(config), sends, lastSend));
    }

    /** Each node's threads lock and unlock their share of the names, once each. */
    private static void useEachOnce(List<LockService> nodes, int names) throws Exception {
        int workers = nodes.size() * THREADS_PER_NODE;
        ExecutorService threads = Executors.newFixedThreadPool(workers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int first = w;
                LockService node = nodes.get(w % nodes.size());
                done.add(threads.submit(() -> {
                    for (int i = first; i < names; i += workers) {
                        DistributedLock lock = node.lock(name(i));
                        assertTrue(lock.tryLock(30, TimeUnit.SECONDS), name(i) + " granted");
                        lock.unlock();
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    /** Waits until no transport message of locks has been sent for {@link #QUIET}. */
    private static void awaitQuiet(AtomicLong sends) throws InterruptedException {
        long seen = -1;
        while (seen != sends.get()) {
            seen = sends.get();
            Thread.sleep(QUIET.toMillis());
        }
    }

    /** A node's transport that counts the transport messages of locks it sends, and when it sent the last. */
    private static final class CountingTransport extends ForwardingTransport {
        private final AtomicLong sends;
        private final AtomicLong lastSend;

        CountingTransport(Transport transport, AtomicLong sends, AtomicLong lastSend) {
            super(transport);
            this.sends = sends;
            this.lastSend = lastSend;
        }

        @Override
        public void send(NodeId to, byte[] payload) {
            int kind = Envelope.readFrom(new WireReader(payload)).kind();
            if (kind != Envelope.KIND_MEMBERSHIP && kind != Envelope.KIND_ELECTION && kind != Envelope.KIND_RECLAIM) {
                sends.incrementAndGet();
                lastSend.set(System.nanoTime());
            }
            super.send(to, payload);
        }
    }
}
