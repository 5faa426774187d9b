package io.dlock.baselines;

import io.dlock.bench.BenchHarness;
import io.dlock.bench.LockPicker;
import io.dlock.bench.Measurement;
import io.dlock.bench.NodeLock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The workloads of {@code dlock bench}, run on a peer's cluster with dlock's own loops ({@link BenchHarness}), so that
 * both are measured alike: uncontended (one thread on node 1, nobody else asks), contended (T threads on every node,
 * one lock) for each thread count, and per-key (T threads on every node, each entry locks a uniformly random one of K
 * names) for each K and thread count. Each run gives one row, a line of JSON in the shape of
 * {@code dlock bench --format json} (which reads it back). A peer's CPU per operation is read from its cluster's clock,
 * so it counts its server processes too.
 */
final class PeerWorkloads {

    private final Peer peer;
    private final PeerCluster cluster;
    private final BenchHarness harness;
    private final int nodes;
    private final String names;

    /**
     * @param harness the loops, with the run's durations; its CPU clock is replaced by the cluster's
     * @param nodes   the cluster's application nodes
     * @param names   the prefix of every lock name of these runs (an unmeasured pass uses names of its own)
     */
    PeerWorkloads(Peer peer, PeerCluster cluster, BenchHarness harness, int nodes, String names) {
        this.peer = peer;
        this.cluster = cluster;
        this.harness = harness.withCpuClock(cluster.cpu());
        this.nodes = nodes;
        this.names = names;
    }

    /** Every run, in order: uncontended, contended per thread count, per-key per K and thread count. */
    List<String> run(List<Integer> threads, List<Integer> perKeys) throws Exception {
        List<String> rows = new ArrayList<>();
        rows.add(uncontended());
        for (int t : threads) {
            rows.add(contended(t));
        }
        for (int k : perKeys) {
            for (int t : threads) {
                rows.add(perKey(k, t));
            }
        }
        return rows;
    }

    /** One thread on node 1 (node 0 of a one-node cluster) locks and unlocks, nobody else asks. */
    String uncontended() throws Exception {
        NodeLock alone = cluster.lock(Math.min(1, nodes - 1), names + "uncontended");
        return row("uncontended", 1, 0, harness.uncontended(alone));
    }

    /** {@code perNode} threads on every node take and release one lock. */
    String contended(int perNode) throws Exception {
        List<NodeLock> locks = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            locks.add(cluster.lock(i, names + "contended-" + perNode));
        }
        return row("contended", perNode, 0, harness.contended(locks, perNode));
    }

    /** {@code perNode} threads on every node; each entry locks a uniformly random one of {@code keys} names. */
    String perKey(int keys, int perNode) throws Exception {
        List<LockPicker> pickers = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            pickers.add(randomKey(i, keys, perNode));
        }
        return row("per-key", perNode, keys, harness.contendedPicking(pickers, perNode, BenchHarness.Window.NONE));
    }

    /** For each entry, node {@code node}'s handle on a uniformly random one of {@code keys} names (one per name). */
    private LockPicker randomKey(int node, int keys, int perNode) {
        Map<Integer, NodeLock> handles = new ConcurrentHashMap<>();
        String prefix = names + "per-key-" + keys + "x" + perNode + "-";
        return () -> {
            int key = ThreadLocalRandom.current().nextInt(keys);
            NodeLock lock = handles.get(key);
            if (lock == null) {
                NodeLock created = cluster.lock(node, prefix + key);
                lock = handles.putIfAbsent(key, created);
                if (lock == null) {
                    lock = created;
                }
            }
            return lock;
        };
    }

    /**
     * One row, in the shape of {@code dlock bench --format json}: a peer has no hand-off and no message count.
     *
     * @param keys K of a per-key row, else 0
     */
    String row(String kind, int threads, int keys, Measurement m) {
        return String.format(Locale.ROOT, "{\"system\": \"%s\", \"transport\": \"%s\", \"algorithm\": \"%s\", "
                        + "\"kind\": \"%s\", \"nodes\": %d, \"threads\": %d, \"handoff\": 0, \"samples\": %d, "
                        + "\"medianUs\": %s, \"p99Us\": %s, \"opsPerSec\": %s, \"msgsPerEntry\": null, \"jain\": %s, "
                        + "\"maxRun\": %d, \"failures\": %d, \"keys\": %d, \"cpuUs\": %s, \"stolenShare\": %s, "
                        + "\"unlockUs\": %s}",
                peer.name(), peer.transport(), peer.algorithm(), kind, nodes, threads, m.count(), num(m.p50Us()),
                num(m.p99Us()), num(m.opsPerSec()), num(m.jain()), m.maxRun(), m.failures(), keys,
                num(m.cpuUsPerOp()), num(m.stolenShare()), num(m.unlockP50Us()));
    }

    private static String num(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "null" : String.format(Locale.ROOT, "%.3f", v);
    }
}
