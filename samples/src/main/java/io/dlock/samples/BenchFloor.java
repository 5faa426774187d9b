package io.dlock.samples;

import io.dlock.DlockConfig;
import io.dlock.MutexAlgorithm;
import io.dlock.bench.BenchHarness;
import io.dlock.bench.Measurement;
import io.dlock.jgroups.JGroupsTransport;
import io.dlock.jgroups.JGroupsTransportFactory;
import io.dlock.spi.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.List;
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
 */
final class BenchFloor {

    /** Nodes of the floor's cluster; the goals compare it with the uncontended runs of the same size. */
    static final int NODES = 3;
    /** The floor row of one unicast round trip. */
    static final String UNICAST_RTT = "unicast-rtt";
    /** The floor row of N-1 round trips at once (until the last echo). */
    static final String PARALLEL_RTT = "parallel-rtt";

    private final BenchOptions options;
    private final BenchClusters clusters;

    BenchFloor(BenchOptions options, BenchClusters clusters) {
        this.options = options;
        this.clusters = clusters;
    }

    /** Unicast round trip node 1 -> node 3 -> node 1, and multicast from node 1 until all others have it. */
    List<BenchRow> measure() throws Exception {
        int n = NODES;
        DlockConfig.Builder b = clusters.config("jgroups", MutexVariantConverter.of(MutexAlgorithm.CENTRALIZED), n, 0);
        Semaphore echoes = new Semaphore(0);
        Semaphore multicastReceived = new Semaphore(0);
        List<JGroupsTransport> transports = new ArrayList<>();
        byte unicast = 1;
        byte multicast = 2;
        try {
            for (int id = 1; id <= n; id++) {
                JGroupsTransport tr = JGroupsTransportFactory.create(b.nodeId(id).build(), true);
                boolean client = id == 1;
                tr.start(new Transport.Receiver() {
                    @Override
                    public void onMessage(NodeId from, byte[] payload) {
                        if (payload.length > 0 && payload[0] == multicast) {
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
            JGroupsTransport client = transports.get(0);
            NodeId server = NodeId.of(n);
            byte[] ping = new byte[8];
            ping[0] = unicast;
            BenchHarness harness = options.harness();
            Measurement rtt = harness.latency(() -> {
                client.send(server, ping);
                return echoes.tryAcquire(options.lockTimeout, TimeUnit.SECONDS);
            }, BenchHarness.Window.NONE);
            Measurement parallel = harness.latency(() -> {
                for (int id = 2; id <= n; id++) {
                    client.send(NodeId.of(id), ping);
                }
                return echoes.tryAcquire(n - 1, options.lockTimeout, TimeUnit.SECONDS);
            }, BenchHarness.Window.NONE);
            byte[] all = new byte[8];
            all[0] = multicast;
            Measurement mc = harness.latency(() -> {
                Message m = new BytesMessage(null, all).setFlag(Message.Flag.DONT_BUNDLE)
                        .setFlag(Message.TransientFlag.DONT_LOOPBACK);
                client.channel().send(m);
                return multicastReceived.tryAcquire(n - 1, options.lockTimeout, TimeUnit.SECONDS);
            }, BenchHarness.Window.NONE);
            long failures = rtt.failures() + parallel.failures() + mc.failures();
            return List.of(row(UNICAST_RTT, rtt, failures), row(PARALLEL_RTT, parallel, failures),
                    row("multicast", mc, failures));
        } finally {
            transports.forEach(JGroupsTransport::close);
        }
    }

    private static BenchRow row(String what, Measurement m, long failures) {
        return new BenchRow("jgroups", "jgroups", what, "floor", NODES, 1, 0, m.count(), m.p50Us(), m.p99Us(),
                m.opsPerSec(), 2, Double.NaN, 0, failures);
    }
}
