package io.dlock.samples.bench;

import io.dlock.DlockConfig;
import io.dlock.MutexAlgorithm;
import io.dlock.bench.BenchHarness;
import io.dlock.bench.Measurement;
import io.dlock.jgroups.JGroupsTransport;
import io.dlock.jgroups.JGroupsTransportFactory;
import io.dlock.samples.MutexVariantConverter;
import io.dlock.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jgroups.BytesMessage;
import org.jgroups.Message;

/**
 * The floor of {@code dlock bench}, on the stack the dlock clusters use: one unicast request-response round trip
 * (node 1 sends 8 bytes to node 3, which echoes them), the parallel round trip (node 1 sends 8 bytes to each
 * other node at once and waits for every echo: the slowest of N-1 round trips, what an algorithm that asks
 * every other node, Ricart-Agrawala or Lamport, waits for at least) and one multicast (node 1 sends 8 bytes to
 * all, until every other node, in this JVM, has received them). No lock can be faster than these.
 *
 * <p>The floor's cluster stays up while the bench runs on JGroups: {@link #measure} gives the floor's own rows,
 * and {@link #unicast} and {@link #parallel} are timed again interleaved with each algorithm's uncontended run
 * (see {@link BenchClusters}), so that a lock's ratio to the round trip is taken in the same minutes.
 */
final class BenchFloor implements AutoCloseable {

    /** Nodes of the floor's cluster; the goals compare it with the uncontended runs of the same size. */
    static final int NODES = 3;
    /** The floor row of one unicast round trip. */
    static final String UNICAST_RTT = "unicast-rtt";
    /** The floor row of N-1 round trips at once (until the last echo). */
    static final String PARALLEL_RTT = "parallel-rtt";
    private static final byte UNICAST = 1;
    private static final byte MULTICAST = 2;

    private final BenchOptions options;
    private final List<JGroupsTransport> transports;
    private final Semaphore echoes;
    private final Semaphore multicastReceived;
    private final byte[] ping = {UNICAST, 0, 0, 0, 0, 0, 0, 0};

    private BenchFloor(BenchOptions options, List<JGroupsTransport> transports, Semaphore echoes,
                       Semaphore multicastReceived) {
        this.options = options;
        this.transports = transports;
        this.echoes = echoes;
        this.multicastReceived = multicastReceived;
    }

    /** Starts the floor's cluster of {@link #NODES} channels and waits (at most 60 s) until all see each other. */
    static BenchFloor start(BenchOptions options, BenchClusters clusters) throws Exception {
        int n = NODES;
        DlockConfig.Builder b = clusters.config("jgroups", MutexVariantConverter.of(MutexAlgorithm.CENTRALIZED), n, 0);
        Semaphore echoes = new Semaphore(0);
        Semaphore multicastReceived = new Semaphore(0);
        List<JGroupsTransport> transports = new ArrayList<>();
        BenchFloor floor = new BenchFloor(options, transports, echoes, multicastReceived);
        try {
            for (int id = 1; id <= n; id++) {
                JGroupsTransport tr = JGroupsTransportFactory.newTransport(b.nodeId(id).build());
                boolean client = id == 1;
                tr.start(new Transport.Receiver() {
                    @Override
                    public void onMessage(NodeId from, byte[] payload) {
                        if (payload.length > 0 && payload[0] == MULTICAST) {
                            multicastReceived.release();
                        } else if (!client) {
                            tr.send(from, payload);
                        } else {
                            echoes.release();
                        }
                    }

                    @Override
                    public void onView(View view) {
                    }
                });
                transports.add(tr);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (transports.stream().anyMatch(tr -> tr.view() == null || tr.view().size() < n)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("floor cluster did not form within 60 s");
                }
                Thread.sleep(10);
            }
            return floor;
        } catch (Exception | Error e) {
            floor.close();
            throw e;
        }
    }

    /** One unicast round trip, node 1 to node 3 and back. */
    BenchHarness.Operation unicast() {
        JGroupsTransport client = transports.get(0);
        NodeId server = NodeId.of(NODES);
        return () -> {
            client.send(server, ping);
            return echoes.tryAcquire(options.lockTimeout, TimeUnit.SECONDS);
        };
    }

    /** N-1 round trips at once, node 1 to every other node, until the last echo. */
    BenchHarness.Operation parallel() {
        JGroupsTransport client = transports.get(0);
        return () -> {
            for (int id = 2; id <= NODES; id++) {
                client.send(NodeId.of(id), ping);
            }
            return echoes.tryAcquire(NODES - 1, options.lockTimeout, TimeUnit.SECONDS);
        };
    }

    /** The floor's own rows: unicast round trip, parallel round trip, multicast from node 1 until all others have it. */
    List<BenchRow> measure() throws Exception {
        BenchHarness harness = options.harness();
        Measurement rtt = harness.latency(unicast(), BenchHarness.Window.NONE);
        Measurement parallel = harness.latency(parallel(), BenchHarness.Window.NONE);
        byte[] all = new byte[8];
        all[0] = MULTICAST;
        JGroupsTransport client = transports.get(0);
        Measurement mc = harness.latency(() -> {
            Message m = new BytesMessage(null, all).setFlag(Message.Flag.DONT_BUNDLE)
                    .setFlag(Message.TransientFlag.DONT_LOOPBACK);
            client.channel().send(m);
            return multicastReceived.tryAcquire(NODES - 1, options.lockTimeout, TimeUnit.SECONDS);
        }, BenchHarness.Window.NONE);
        long failures = rtt.failures() + parallel.failures() + mc.failures();
        return List.of(row(UNICAST_RTT, rtt, failures), row(PARALLEL_RTT, parallel, failures),
                row("multicast", mc, failures));
    }

    /**
     * The floor row of {@code measure} to divide {@code algorithm}'s uncontended median by: the one timed interleaved
     * with that algorithm's run if {@code rows} hold one, else the floor's own (as in runs saved before the floor was
     * interleaved).
     */
    static Optional<BenchRow> of(List<BenchRow> rows, String measure, String algorithm) {
        List<BenchRow> floors = rows.stream().filter(r -> r.kind().equals("floor") && r.algorithm().equals(measure))
                .toList();
        return floors.stream().filter(r -> r.pairedWith().equals(algorithm)).findFirst()
                .or(() -> floors.stream().filter(r -> r.pairedWith().isEmpty()).findFirst());
    }

    /** A floor row of one measure. */
    static BenchRow row(String what, Measurement m, long failures) {
        return new BenchRow("jgroups", "jgroups", what, "floor", NODES, 1, 0, m.count(), m.p50Us(), m.p99Us(),
                m.opsPerSec(), 2, Double.NaN, 0, failures).withHost(m);
    }

    @Override
    public void close() {
        transports.forEach(JGroupsTransport::close);
    }
}
