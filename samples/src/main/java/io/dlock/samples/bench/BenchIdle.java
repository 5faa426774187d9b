package io.dlock.samples.bench;

import io.dlock.LockService;
import io.dlock.MutexVariant;
import io.dlock.bench.BenchHarness;
import io.dlock.bench.IdleWindow;
import io.dlock.bench.NodeLock;
import java.util.List;

/**
 * The idle runs of {@code dlock bench --idle}: what a cluster costs while nobody asks for its lock. On a fresh
 * cluster, node 1 locks and unlocks once (which creates the lock on every node: a census for the token
 * algorithms); then nothing runs for the warm-up and the measured window ({@link BenchHarness#idle}). A row reports
 * the messages the nodes sent per second in the window (all their locks) and the CPU the JVM used, in cores: a
 * quiescent algorithm sends nothing, a perpetual one (a circulating token) what its idle rounds cost.
 */
final class BenchIdle {

    /** The kind of the rows. */
    static final String KIND = "idle";

    /** The lock the run takes once. */
    static final String LOCK = "idle";

    private final BenchOptions options;
    private final BenchClusters clusters;

    BenchIdle(BenchOptions options, BenchClusters clusters) {
        this.options = options;
        this.clusters = clusters;
    }

    /** One row: a fresh cluster of n nodes, one lock+unlock, then the idle window. */
    BenchRow measure(String transport, MutexVariant variant, int n, int handoff) throws Exception {
        List<LockService> services = clusters.start(clusters.config(transport, variant, n, handoff), transport, n);
        try {
            BenchHarness harness = options.harness();
            boolean granted = harness.lockUnlock(NodeLock.of(services.get(0).lock(LOCK))).run();
            MessageWindow sent = MessageWindow.ofNodes(services);
            IdleWindow w = harness.idle(sent);
            return new BenchRow("dlock", transport, variant.name(), KIND, services.size(), 0, handoff, 0, Double.NaN,
                    Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, granted ? 0 : 1)
                    .withIdle(new BenchRow.Idle(sent.perSecond(w.seconds()), w.cpuCores()));
        } finally {
            BenchClusters.close(services);
        }
    }
}
