package io.dlock.baselines;

import io.dlock.bench.BenchHarness;
import io.dlock.bench.NodeLock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.jgroups.JChannel;
import org.jgroups.blocks.locking.LockService;

/**
 * JGroups 5.3.24's own lock service: {@code CENTRAL_LOCK2} at the top of a stack shaped like dlock's
 * default one ({@code central-lock2.xml}: TCP_NIO2 on 127.0.0.1, tcp_nodelay, no bundler), N channels in this JVM,
 * {@link LockService#getLock} on each. The coordinator (the first channel) grants the locks; node 1
 * of the uncontended run is the second channel, so its requests cross the network as dlock's do.
 */
final class CentralLock2Baseline {

    private CentralLock2Baseline() {
    }

    static void run(BenchHarness harness, int nodes, List<Integer> threads, int port, List<String> rows) throws Exception {
        System.setProperty("baseline.port", Integer.toString(port));
        System.setProperty("baseline.port_range", Integer.toString(nodes + 2));
        System.setProperty("java.net.preferIPv4Stack", "true");
        List<JChannel> channels = new ArrayList<>();
        try {
            List<LockService> services = new ArrayList<>();
            for (int i = 0; i < nodes; i++) {
                JChannel ch = new JChannel(CentralLock2Baseline.class.getResourceAsStream("/central-lock2.xml"));
                ch.name("cl2-" + (i + 1));
                channels.add(ch);
                services.add(new LockService(ch));
                ch.connect("central-lock2-bench");
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (channels.stream().anyMatch(c -> c.getView() == null || c.getView().size() < nodes)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("CENTRAL_LOCK2 cluster did not form within 60 s");
                }
                Thread.sleep(10);
            }
            Lock alone = services.get(1).getLock("uncontended");
            rows.add(Baselines.row("central-lock2", "jgroups-5.3.24", "CENTRAL_LOCK2", "uncontended", nodes, 1,
                    harness.uncontended(NodeLock.of(alone))));
            for (int t : threads) {
                List<NodeLock> locks = new ArrayList<>();
                for (LockService s : services) {
                    // LockService's locks belong to the calling thread: one per node serves all its threads
                    locks.add(NodeLock.of(s.getLock("contended-" + t)));
                }
                rows.add(Baselines.row("central-lock2", "jgroups-5.3.24", "CENTRAL_LOCK2", "contended", nodes, t,
                        harness.contended(locks, t)));
            }
        } finally {
            for (int i = channels.size() - 1; i >= 0; i--) {
                channels.get(i).close();
            }
        }
    }
}
