package io.dlock.samples.bench;

import io.dlock.DlockConfig;
import io.dlock.MutexVariant;
import io.dlock.bench.PeerProtocol;
import io.dlock.samples.DlockCommand;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code dlock bench}: measures every mutual-exclusion algorithm on a real network, in one JVM:
 * <ul>
 *   <li><b>uncontended latency</b>: one thread on node 1 (never the centralized coordinator of the lock
 *       {@code uncontended}: with the default per-name choice its name's owner among nodes 1..N is another node
 *       for every N from 2 to 64, with {@code coordinator=leader} it is the highest id) takes and releases the
 *       lock in a loop while nobody else wants it; median and
 *       p99 of lock+unlock, from a sorted array of every sample;</li>
 *   <li><b>contended throughput</b>: every node runs T threads that take and release the lock in a
 *       loop; lock+unlock per second over the whole cluster, messages per entry (from
 *       {@link io.dlock.LockMetrics}, over the measured window only), and fairness between nodes: Jain's index
 *       over the nodes' entry counts (1 = perfectly even) and the longest run of consecutive entries
 *       by one node;</li>
 *   <li><b>per-key</b> (only with {@code --per-key K[,K...]}): one lock per business key, at scale. For each K, a
 *       fresh cluster of the smallest {@code --nodes}, with {@code dlock.lock.idle-expiry-ms} set to
 *       {@code --idle-expiry-ms} (default 1000), where every node runs T threads that each lock a uniformly random
 *       one of K names per entry; lock+unlock per second over the whole cluster, messages per entry of all the
 *       nodes' locks ({@link io.dlock.LockService#metrics()}, measured window only), and the heap retained per name
 *       used once the idle names are reclaimed (heap after, less heap before the run, over the distinct names used),
 *       with the lock engines still live then ({@link BenchPerKey});</li>
 *   <li><b>the floor</b> (JGroups only), on the same stack: one unicast request-response round trip
 *       (node 1 sends 8 bytes to node 3, which echoes them), the parallel round trip to every other node and one
 *       multicast (node 1 sends 8 bytes to all, until every other node has received them; the receivers are in
 *       this JVM). The floor's cluster stays up, and its unicast and parallel round trips are timed again
 *       interleaved with each algorithm's uncontended run at its size ({@link BenchFloor}); every uncontended
 *       median is printed as a multiple of the round trip of its own slices.</li>
 * </ul>
 * Transports: JGroups over 127.0.0.1 with dlock's default TCP stack (N channels in one JVM; {@code --stack} gives
 * another, e.g. a copy of the default stack with another bundler or {@code tcp_nodelay} off, to compare stacks:
 * each uncontended median is also printed as a multiple of the round trip on the same stack), and the
 * real-time in-memory network. Each run warms up for {@code --warmup} seconds before it measures for
 * {@code --seconds}; before the first uncontended run of a transport, a throwaway cluster locks and unlocks for
 * {@link BenchClusters#JIT_WARMUP_SECONDS} seconds so that the JIT has compiled the runtime's path.
 *
 * <p>{@code --baselines} also runs the peers, the locks users would pick instead (JGroups 5.3.24 CENTRAL_LOCK2,
 * Hazelcast 5.4.0 CP FencedLock, Redisson RLock and RFencedLock on a redis-server, Curator on 3 ZooKeeper servers,
 * etcd's lock on 3 etcd members), each in its own JVM from the benchmark-only baselines jar ({@link BenchBaselines}),
 * on the same workloads at the smallest {@code --nodes}, and prints them beside dlock's figures with the ratios
 * dlock/peer ({@link BenchPeersReport}). Each peer's run of a workload follows a run of dlock's default algorithm on
 * the same workload, seconds before ({@link BenchPairs}), and the ratio compares the two: dlock and its peer are
 * measured under the same load of a shared machine; a pair that met uneven or heavy steal is run again. {@code --rounds R} repeats everything R times, round by round
 * (dlock's own runs, then the pairs, peer by peer).
 *
 * <p>Every wait is bounded: a lock that is not granted within {@code --lock-timeout} seconds ends the
 * run for that thread and is reported as a failure (exit code 1); the first one also writes every thread's stack to
 * standard error, so that a short timeout makes the bench a hunt for stalls.
 *
 * <p>The measuring loops are {@link io.dlock.bench.BenchHarness} (module {@code samples/bench-harness}), which
 * the baselines use too, so dlock and the baselines are measured the same way. This class only runs the matrix;
 * the parts are {@link BenchOptions} (the options and their checks), {@link BenchClusters} (the dlock clusters
 * and their message counts over the harness's measured window, {@link MessageWindow}), {@link BenchPerKey}, {@link BenchIdle},
 * {@link BenchFloor}, {@link BenchBaselines} (the baselines' JVMs) and {@link BenchReport} (the output).
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measure uncontended latency, contended throughput, messages per entry and fairness of each "
                + "algorithm on JGroups (loopback TCP) and the in-memory network, against the JGroups floor and the baselines;"
                + " with --per-key, also many locks (one per key) and the heap they retain once reclaimed; with --idle, "
                + "only what an idle cluster costs.")
public final class BenchCommand extends DlockCommand {

    @Mixin
    BenchOptions options;

    @Override
    public Integer call() throws Exception {
        options.check();
        if (options.goalsFrom != null) {
            List<BenchRow> saved = Files.readAllLines(options.goalsFrom).stream().map(BenchRow::parse)
                    .flatMap(Optional::stream).toList();
            String goals = BenchGoals.text(saved);
            print(goals.isEmpty() ? "no JGroups row of dlock in " + options.goalsFrom + ": no goal to judge\n" : goals);
            return 0;
        }
        // hundreds of joins and leaves: keep the log to warnings unless asked otherwise
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        if (System.getProperty("org.slf4j.simpleLogger.log.org.jgroups") == null) {
            // closing channels in quick succession makes JGroups warn about closed streams
            System.setProperty("org.slf4j.simpleLogger.log.org.jgroups", "error");
        }
        BenchPorts ports = new BenchPorts(options.port);
        BenchClusters clusters = new BenchClusters(options, ports);
        long start = System.nanoTime();
        List<BenchRow> rows = new ArrayList<>();
        List<String> skipped = List.of();
        if (options.idle) {
            rows.addAll(idleRuns(clusters)); // --idle is refused with --baselines
        } else {
            BenchPerKey perKey = new BenchPerKey(options, clusters);
            BenchPairs pairs = options.baselines
                    ? new BenchPairs(options, clusters, perKey, BenchBaselines.of(options, ports)) : null;
            for (int pass = 1; pass <= options.warmPasses; pass++) {
                measureDlock(clusters, perKey); // unmeasured: the JIT compiles what the rounds will measure
            }
            for (int round = 1; round <= options.rounds; round++) {
                for (BenchRow r : measureDlock(clusters, perKey)) {
                    rows.add(r.inRound(round));
                }
                if (pairs != null) {
                    rows.addAll(pairs.run(round));
                }
            }
            skipped = pairs == null ? List.of() : pairs.skipped();
        }
        double took = (System.nanoTime() - start) / 1e9;
        print(options.format.json() ? BenchReport.json(rows)
                : BenchReport.text(rows, options.stack, options.idle ? 0 : options.warmPasses, options.warmup,
                        options.seconds, took, skipped)
                        + (options.mutexOptions().isEmpty() ? "" : "dlock.mutex options of every cluster: "
                        + options.mutexOptions() + "\n")
                        + (options.grantSpinUs == null ? "" : DlockConfig.GRANT_SPIN_US + " of every dlock cluster: "
                        + options.grantSpinUs + "\n"));
        skipped.forEach(s -> System.err.println(PeerProtocol.SKIPPED + s));
        return rows.stream().anyMatch(r -> r.failures() > 0) ? 1 : 0;
    }

    /** One round of dlock's own runs: per transport, the floor, then every algorithm's runs. */
    private List<BenchRow> measureDlock(BenchClusters clusters, BenchPerKey perKey) throws Exception {
        List<BenchRow> rows = new ArrayList<>();
        for (String t : options.transport.names) {
            BenchFloor floor = t.equals("jgroups") && !options.noFloor ? BenchFloor.start(options, clusters) : null;
            try {
                if (floor != null) {
                    rows.addAll(floor.measure());
                }
                if (!options.noUncontended && !options.algorithms.chosen().isEmpty()) {
                    clusters.warmUpJit(t, options.algorithms.chosen().get(0), options.nodes.counts().get(0));
                }
                for (MutexVariant a : options.algorithms.chosen()) {
                    for (int h : options.handoffs) {
                        List<Integer> sizes = options.nodes.counts();
                        for (int i = 0; i < sizes.size(); i++) {
                            rows.addAll(clusters.measure(t, a, sizes.get(i), h, i == 0 && !options.noUncontended,
                                    floor));
                        }
                        for (int k : options.perKeys()) {
                            rows.addAll(perKey.measure(t, a, sizes.get(0), h, k));
                        }
                    }
                }
            } finally {
                if (floor != null) {
                    floor.close();
                }
            }
        }
        return rows;
    }

    /** {@code --idle}: one idle run per transport, algorithm, hand-off and size. */
    private List<BenchRow> idleRuns(BenchClusters clusters) throws Exception {
        BenchIdle idle = new BenchIdle(options, clusters);
        List<BenchRow> rows = new ArrayList<>();
        for (String t : options.transport.names) {
            for (MutexVariant a : options.algorithms.chosen()) {
                for (int h : options.handoffs) {
                    for (int n : options.nodes.counts()) {
                        rows.add(idle.measure(t, a, n, h));
                    }
                }
            }
        }
        return rows;
    }
}
