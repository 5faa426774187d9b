package io.dlock.baselines;

import io.dlock.bench.NodeLock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jgroups.JChannel;
import org.jgroups.blocks.locking.LockService;

/**
 * JGroups 5.3.24's own lock service: {@code CENTRAL_LOCK2} at the top of a stack shaped like dlock's default one
 * ({@code central-lock2.xml}: TCP_NIO2 on 127.0.0.1, tcp_nodelay, no bundler), N channels in this JVM,
 * {@link LockService#getLock} on each. The coordinator (the first channel) grants the locks; the uncontended run is on
 * node 1, the second channel, so its requests cross the network as dlock's do.
 */
final class CentralLock2Peer implements Peer {

    @Override
    public String name() {
        return "central-lock2";
    }

    @Override
    public String transport() {
        return "jgroups-" + PeerVersions.of("jgroups").replace(".Final", "");
    }

    @Override
    public String algorithm() {
        return "CENTRAL_LOCK2";
    }

    @Override
    public PeerCluster start(int nodes, int port) throws Exception {
        System.setProperty("baseline.port", Integer.toString(port));
        System.setProperty("baseline.port_range", Integer.toString(nodes + 2));
        System.setProperty("java.net.preferIPv4Stack", "true");
        List<JChannel> channels = new ArrayList<>();
        List<LockService> services = new ArrayList<>();
        PeerCluster cluster = new PeerCluster() {
            @Override
            public NodeLock lock(int node, String name) {
                // LockService's locks belong to the calling thread: one per node serves all its threads
                return NodeLock.of(services.get(node).getLock(name));
            }

            @Override
            public void close() {
                for (int i = channels.size() - 1; i >= 0; i--) {
                    channels.get(i).close();
                }
            }
        };
        try {
            for (int i = 0; i < nodes; i++) {
                JChannel ch = new JChannel(CentralLock2Peer.class.getResourceAsStream("/central-lock2.xml"));
                ch.name("cl2-" + (i + 1));
                channels.add(ch);
                services.add(new LockService(ch));
                ch.connect("central-lock2-bench");
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (channels.stream().anyMatch(c -> c.getView() == null || c.getView().size() < nodes)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("CENTRAL_LOCK2 cluster of " + nodes + " did not form within 60 s");
                }
                Thread.sleep(10);
            }
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }
}
