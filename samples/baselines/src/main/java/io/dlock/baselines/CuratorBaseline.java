package io.dlock.baselines;

import io.dlock.bench.BenchHarness;
import io.dlock.bench.NodeLock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;

/**
 * Apache Curator's {@link InterProcessMutex} on one embedded ZooKeeper server ({@code curator-test}'s
 * {@link TestingServer}, on 127.0.0.1): each "node" is its own Curator client (own ZooKeeper session),
 * with one mutex per lock name shared by that node's threads (InterProcessMutex is thread-safe and
 * tracks ownership per thread). Note the shape differs from dlock's: a single ZooKeeper server is the
 * one point every request goes through (like dlock's centralized coordinator, but in its own process
 * role, with a write to its transaction log per znode, fsynced unless {@code curator-nosync} turns
 * {@code zookeeper.forceSync} off).
 */
final class CuratorBaseline {

    private CuratorBaseline() {
    }

    static void run(BenchHarness harness, String system, int nodes, List<Integer> threads, List<String> rows) throws Exception {
        try (TestingServer server = new TestingServer(true)) {
            List<CuratorFramework> clients = new ArrayList<>();
            try {
                for (int i = 0; i < nodes; i++) {
                    CuratorFramework c = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100));
                    c.start();
                    if (!c.blockUntilConnected(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("Curator client did not connect within 30 s");
                    }
                    clients.add(c);
                }
                rows.add(Baselines.row(system, "zookeeper", "InterProcessMutex", "uncontended", nodes, 1,
                        harness.uncontended(adapt(new InterProcessMutex(clients.get(0), "/bench/uncontended")))));
                for (int t : threads) {
                    List<NodeLock> locks = new ArrayList<>();
                    for (CuratorFramework c : clients) {
                        locks.add(adapt(new InterProcessMutex(c, "/bench/contended-" + t)));
                    }
                    rows.add(Baselines.row(system, "zookeeper", "InterProcessMutex", "contended", nodes, t,
                            harness.contended(locks, t)));
                }
            } finally {
                clients.forEach(CuratorFramework::close);
            }
        }
    }

    private static NodeLock adapt(InterProcessMutex mutex) {
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
}
