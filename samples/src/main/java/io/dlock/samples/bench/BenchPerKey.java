package io.dlock.samples.bench;

import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.MutexVariant;
import io.dlock.bench.LockPicker;
import io.dlock.bench.Measurement;
import io.dlock.bench.NodeLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The per-key runs of {@code dlock bench --per-key}: one lock per business key, at scale. On a fresh cluster whose
 * idle expiry is {@code --idle-expiry-ms}, every node runs T threads that each lock a uniformly random one of K
 * names ({@code key-0} .. {@code key-(K-1)}) per entry, through the harness's contended loop
 * ({@link io.dlock.bench.BenchHarness#contendedPicking}). A row reports the throughput of the whole cluster, the
 * messages per entry of all the nodes' locks over the measured window, how those messages spread over the nodes
 * (the largest share handled by one node, Jain's index over the nodes), and the heap retained per name used: the
 * heap after the run, once the idle names are reclaimed (or the wait for that ran out), minus the heap before the
 * run, over the distinct names the run used.
 *
 * <p>Every wait is bounded: the harness's, and the wait for reclamation, at most 10 × the idle expiry + 10 s.
 */
final class BenchPerKey {

    /** The kind of the rows. */
    static final String KIND = "per-key";

    /** Live locks per node ({@link io.dlock.NodeMetrics#liveLocks()}) at or below which reclamation counts as done. */
    static final long SETTLED_ENGINES_PER_NODE = 0;

    private static final long POLL_MILLIS = 50;

    private final BenchOptions options;
    private final BenchClusters clusters;

    BenchPerKey(BenchOptions options, BenchClusters clusters) {
        this.options = options;
        this.clusters = clusters;
    }

    /** One row per {@code --threads} value, on one fresh cluster of n nodes picking from {@code keys} names. */
    List<BenchRow> measure(String transport, MutexVariant variant, int n, int handoff, int keys) throws Exception {
        DlockConfig.Builder b = clusters.config(transport, variant, n, handoff)
                .idleExpiry(Duration.ofMillis(options.idleExpiryMs));
        List<LockService> services = clusters.start(b, transport, n);
        try {
            List<BenchRow> rows = new ArrayList<>();
            for (int perNode : options.threads) {
                rows.add(run(transport, variant, services, perNode, handoff, keys, true));
            }
            return rows;
        } finally {
            BenchClusters.close(services);
        }
    }

    /**
     * One run of {@code perNode} threads per node on a fresh cluster of n nodes without local hand-off, with neither
     * the heap nor the reclamation measured (heap per name NaN, engines: those live right after the run). For
     * {@link BenchPairs}: a run right before a peer's run of the same workload, so in dlock's default configuration,
     * its idle expiry included ({@link DlockConfig#DEFAULT_IDLE_EXPIRY_MS}; {@code --idle-expiry-ms} shortens it for
     * dlock's own per-key runs only, whose reclamation the bench waits for and measures).
     */
    BenchRow measureOne(String transport, MutexVariant variant, int n, int keys, int perNode) throws Exception {
        DlockConfig.Builder b = clusters.config(transport, variant, n, 0);
        List<LockService> services = clusters.start(b, transport, n);
        try {
            return run(transport, variant, services, perNode, 0, keys, false);
        } finally {
            BenchClusters.close(services);
        }
    }

    /**
     * One run; with {@code heap}, the heap before it (for the first run: right after the cluster formed; later ones: after the previous
     * run's names were reclaimed), the run, the wait for reclamation, the heap after; without, only the run.
     */
    private BenchRow run(String transport, MutexVariant variant, List<LockService> services, int perNode, int handoff,
                         int keys, boolean heap) throws Exception {
        UsedKeys used = new UsedKeys(keys); // allocated before the first reading: it is the bench's, not the locks'
        long before = heap ? HeapUsage.afterGc() : 0;
        List<LockPicker> pickers = new ArrayList<>();
        for (LockService s : services) {
            pickers.add(randomKey(s, keys, used));
        }
        MessageWindow sent = MessageWindow.ofNodes(services);
        Measurement m = options.harness().contendedPicking(pickers, perNode, sent);
        long liveEngines = heap ? awaitReclamation(services)
                : services.stream().mapToLong(BenchPerKey::liveLocks).sum();
        long after = heap ? HeapUsage.afterGc() : 0;
        long names = used.count();
        double bytesPerName = names == 0 || !heap ? Double.NaN : (double) (after - before) / names;
        return new BenchRow("dlock", transport, variant.name(), KIND, services.size(), perNode, handoff, m.count(),
                Double.NaN, Double.NaN, m.opsPerSec(), sent.perEntry(m.count()), m.jain(), m.maxRun(), m.failures(),
                new BenchRow.PerKey(keys, names, bytesPerName, liveEngines, sent.maxNodeShare(), sent.nodeJain()))
                .withHost(m);
    }

    /** For each entry, the lock of a uniformly random one of {@code keys} names on this node, marked as used. */
    private static LockPicker randomKey(LockService service, int keys, UsedKeys used) {
        return () -> {
            int key = ThreadLocalRandom.current().nextInt(keys);
            used.mark(key);
            return NodeLock.of(service.lock("key-" + key));
        };
    }

    /**
     * Waits until every node keeps at most {@link #SETTLED_ENGINES_PER_NODE} live locks (the nodes expire and reclaim
     * their idle locks on their own timers), or until 10 × the idle expiry + 10 s have passed.
     *
     * @return the locks still live, all nodes together
     */
    private long awaitReclamation(List<LockService> services) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10 * options.idleExpiryMs)
                + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            if (services.stream().allMatch(s -> liveLocks(s) <= SETTLED_ENGINES_PER_NODE)
                    || System.nanoTime() > deadline) {
                return services.stream().mapToLong(BenchPerKey::liveLocks).sum();
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    private static long liveLocks(LockService service) {
        return service.nodeMetrics().liveLocks();
    }
}
