package io.dlock.baselines;

import io.dlock.bench.NodeLock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;

/**
 * Apache Curator's {@link InterProcessMutex} on a ZooKeeper ensemble of {@link #SERVERS} servers in this JVM
 * ({@code curator-test}'s {@link TestingCluster}, on 127.0.0.1): each node is its own Curator client (own ZooKeeper
 * session) connected to one server (node i to server i mod 3, as an application beside its server would be), with one
 * mutex per lock name shared by that node's threads (InterProcessMutex is thread-safe and tracks ownership per
 * thread). Every acquire writes znodes through the ensemble's leader, with a transaction log write on a quorum,
 * fsynced unless {@code curator-nosync} turns {@code zookeeper.forceSync} off (what a RAM-only deployment costs).
 */
final class CuratorPeer implements Peer {

    /** The ensemble's size. */
    static final int SERVERS = 3;

    private final boolean sync;

    /**
     * @param sync whether ZooKeeper fsyncs its transaction log per write (its default)
     */
    CuratorPeer(boolean sync) {
        this.sync = sync;
    }

    @Override
    public String name() {
        return sync ? "curator" : "curator-nosync";
    }

    @Override
    public String transport() {
        return "zookeeper-x" + SERVERS + "-curator-" + PeerVersions.of("curator");
    }

    @Override
    public String algorithm() {
        return "InterProcessMutex";
    }

    @Override
    public PeerCluster start(int nodes, int port) throws Exception {
        if (!sync) {
            System.setProperty("zookeeper.forceSync", "no");
        }
        TestingCluster ensemble = new TestingCluster(SERVERS);
        List<CuratorFramework> clients = new ArrayList<>();
        PeerCluster cluster = new PeerCluster() {
            @Override
            public NodeLock lock(int node, String name) {
                InterProcessMutex mutex = new InterProcessMutex(clients.get(node), "/bench/" + name);
                return new NodeLock() {
                    @Override
                    public boolean tryLock(long seconds) throws Exception {
                        return mutex.acquire(seconds, TimeUnit.SECONDS);
                    }

                    @Override
                    public void unlock() throws Exception {
                        mutex.release();
                    }
                };
            }

            @Override
            public void close() throws Exception {
                clients.forEach(CuratorFramework::close);
                ensemble.close();
            }
        };
        try {
            ensemble.start();
            List<InstanceSpec> servers = new ArrayList<>(ensemble.getInstances());
            for (int i = 0; i < nodes; i++) {
                CuratorFramework c = CuratorFrameworkFactory.newClient(servers.get(i % SERVERS).getConnectString(),
                        new RetryOneTime(100));
                clients.add(c);
                c.start();
                if (!c.blockUntilConnected(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("Curator client " + i + " did not connect to "
                            + servers.get(i % SERVERS).getConnectString() + " within 60 s");
                }
            }
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }
}
