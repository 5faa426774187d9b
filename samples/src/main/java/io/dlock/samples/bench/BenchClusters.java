package io.dlock.samples.bench;

import io.dlock.DlockConfig;
import io.dlock.jgroups.JGroupsTransportFactory;
import io.dlock.LockService;
import io.dlock.MutexVariant;
import io.dlock.bench.BenchHarness;
import io.dlock.bench.Measurement;
import io.dlock.bench.NodeLock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The dlock clusters of {@code dlock bench}: starts n nodes of one algorithm on one transport in this JVM, waits
 * until they agree on the view, measures them with {@link BenchHarness} and closes them. Every wait is bounded.
 */
final class BenchClusters {

    /** Slices of an uncontended run interleaved with the floor: each measure gets a turn 10 times. */
    static final int FLOOR_SLICES = 10;
    /**
     * Seconds of lock+unlock on a throwaway cluster before the first measured run of a transport, not reported. The
     * runtime's path (the lock service, its event loop, the codec, the transport) is the same for every algorithm, and
     * the JIT compiles it within a few seconds: with only the per-run warm-up, the first algorithm measured (always
     * centralized) paid for the compilation (on one vCPU 35.7 us against 26.6 us for the same algorithm later in the
     * same run).
     */
    static final double JIT_WARMUP_SECONDS = 3;

    private final BenchOptions options;
    private final BenchPorts ports;

    BenchClusters(BenchOptions options, BenchPorts ports) {
        this.options = options;
        this.ports = ports;
    }

    /**
     * The configuration of a fresh cluster (its own name, the {@code --mutex-option}s and {@code --grant-spin-us}; on
     * JGroups 127.0.0.1, the {@code --stack} and a port block of its own); set the node id per node.
     */
    DlockConfig.Builder config(String transport, MutexVariant variant, int n, int handoff) {
        DlockConfig.Builder b = DlockConfig.builder().transport(transport).set(DlockConfig.MUTEX, variant.name())
                .localHandoff(handoff).cluster("bench-" + UUID.randomUUID());
        options.mutexOptions().forEach(b::mutexOption);
        if (options.grantSpinUs != null) {
            b.set(DlockConfig.GRANT_SPIN_US, Integer.toString(options.grantSpinUs));
        }
        if (transport.equals("jgroups")) {
            b.set(JGroupsTransportFactory.STACK, options.stack).set(JGroupsTransportFactory.BIND_ADDR, "127.0.0.1")
                    .set(JGroupsTransportFactory.PORT, Integer.toString(ports.reserve(n + 4)))
                    .set(JGroupsTransportFactory.PORT_RANGE, Integer.toString(n + 2));
        }
        return b;
    }

    /**
     * Uncontended (if asked) and contended runs of one algorithm on one cluster of n nodes. With a floor (JGroups,
     * n = {@link BenchFloor#NODES}), the uncontended run is interleaved with the floor's unicast and parallel round
     * trips, slice by slice, and their rows, {@linkplain BenchRow#pairedWith paired} with the algorithm, follow its row.
     *
     * @param floor the floor's cluster, or null for none
     */
    List<BenchRow> measure(String transport, MutexVariant variant, int n, int handoff, boolean uncontended,
                           BenchFloor floor) throws Exception {
        List<BenchRow> rows = new ArrayList<>();
        List<LockService> services = start(config(transport, variant, n, handoff), transport, n);
        try {
            if (uncontended) {
                rows.addAll(uncontended(transport, variant, services, handoff,
                        n == BenchFloor.NODES && transport.equals("jgroups") ? floor : null));
            }
            for (int th : options.threads) {
                rows.add(contended(transport, variant, services, th, handoff));
            }
        } finally {
            close(services);
        }
        return rows;
    }

    /**
     * One run of one workload on a fresh cluster of n nodes without local hand-off: uncontended (one thread on node 1,
     * no floor) or contended ({@code perNode} threads on every node). For {@link BenchPairs}: a run right before a
     * peer's run of the same workload.
     */
    BenchRow measureOne(String transport, MutexVariant variant, int n, boolean uncontended, int perNode)
            throws Exception {
        List<LockService> services = start(config(transport, variant, n, 0), transport, n);
        try {
            return uncontended ? uncontended(transport, variant, services, 0, null).get(0)
                    : contended(transport, variant, services, perNode, 0);
        } finally {
            close(services);
        }
    }

    /**
     * Warms the JIT up for {@code transport}: a throwaway cluster of n nodes of {@code variant}, node 1 locking and
     * unlocking for {@link #JIT_WARMUP_SECONDS}; nothing is reported.
     *
     * @throws IllegalStateException if a lock is not granted within the lock timeout
     */
    void warmUpJit(String transport, MutexVariant variant, int n) throws Exception {
        List<LockService> services = start(config(transport, variant, n, 0), transport, n);
        try {
            BenchHarness.Operation op = options.harness().lockUnlock(NodeLock.of(services.get(0).lock("jit-warm-up")));
            long end = System.nanoTime() + (long) (JIT_WARMUP_SECONDS * 1e9);
            while (System.nanoTime() < end) {
                if (!op.run()) {
                    throw new IllegalStateException(transport + " warm-up: a lock was not granted within "
                            + options.lockTimeout + " s");
                }
            }
        } finally {
            close(services);
        }
    }

    /**
     * Starts n nodes of the configuration {@code b} (from {@link #config}) with ids 1..n and waits (bounded) until
     * all see the same full view.
     */
    List<LockService> start(DlockConfig.Builder b, String transport, int n) throws InterruptedException {
        List<LockService> services = new ArrayList<>();
        try {
            for (int id = 1; id <= n; id++) {
                services.add(LockService.start(b.nodeId(id).build()));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!(services.stream().allMatch(s -> s.view().size() == n)
                    && services.stream().map(s -> s.view().epoch()).distinct().count() == 1)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(transport + " cluster of " + n + " did not form within 60 s");
                }
                Thread.sleep(10);
            }
            return services;
        } catch (RuntimeException | InterruptedException e) {
            close(services);
            throw e;
        }
    }

    /** Closes the nodes in parallel (a JGroups leave takes up to a second each), waiting 30 s at most. */
    static void close(List<LockService> services) throws InterruptedException {
        List<Thread> closers = new ArrayList<>();
        for (LockService s : services) {
            Thread c = new Thread(s::close, "bench-close-" + s.nodeId());
            c.setDaemon(true);
            c.start();
            closers.add(c);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (Thread c : closers) {
            c.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
    }

    /** The uncontended row; with a floor, followed by the floor's unicast and parallel rows of the same slices. */
    private List<BenchRow> uncontended(String transport, MutexVariant variant, List<LockService> services, int handoff,
                                       BenchFloor floor) throws Exception {
        MessageWindow sent = MessageWindow.ofLock(services, "uncontended");
        NodeLock lock = NodeLock.of(services.get(0).lock("uncontended"));
        BenchHarness harness = options.harness();
        List<BenchRow> rows = new ArrayList<>();
        Measurement m;
        if (floor == null) {
            m = harness.uncontended(lock, sent);
        } else {
            List<Measurement> ms = harness.interleaved(List.of(harness.lockUnlock(lock), floor.unicast(),
                    floor.parallel()), FLOOR_SLICES, sent);
            m = ms.get(0);
            long failures = ms.get(1).failures() + ms.get(2).failures();
            rows.add(BenchFloor.row(BenchFloor.UNICAST_RTT, ms.get(1), failures).pairedWith(variant.name()));
            rows.add(BenchFloor.row(BenchFloor.PARALLEL_RTT, ms.get(2), failures).pairedWith(variant.name()));
        }
        rows.add(0, new BenchRow("dlock", transport, variant.name(), "uncontended", services.size(), 1, handoff,
                m.count(), m.p50Us(), m.p99Us(), m.opsPerSec(), sent.perEntry(m.count()), Double.NaN, 0,
                m.failures()).withHost(m).withFrames(sent.framesPerEntry(m.count())));
        return rows;
    }

    private BenchRow contended(String transport, MutexVariant variant, List<LockService> services, int perNode,
                               int handoff) throws Exception {
        String name = "contended-" + perNode;
        List<NodeLock> locks = new ArrayList<>();
        for (LockService s : services) {
            locks.add(NodeLock.of(s.lock(name)));
        }
        MessageWindow sent = MessageWindow.ofLock(services, name);
        Measurement m = options.harness().contended(locks, perNode, sent);
        return new BenchRow("dlock", transport, variant.name(), "contended", services.size(), perNode, handoff,
                m.count(), Double.NaN, Double.NaN, m.opsPerSec(), sent.perEntry(m.count()), m.jain(), m.maxRun(),
                m.failures()).withHost(m).withFrames(sent.framesPerEntry(m.count()));
    }
}
