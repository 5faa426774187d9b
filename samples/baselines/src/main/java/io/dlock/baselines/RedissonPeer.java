package io.dlock.baselines;

import io.dlock.bench.CpuClock;
import io.dlock.bench.NodeLock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@code RLock}, or its {@code RFencedLock} (the same lock that also hands out a fencing token), on a real
 * {@code redis-server} that the peer starts on 127.0.0.1 (no persistence: no RDB snapshot, no AOF) and stops when it
 * closes. Each node is its own Redisson client; RLock is owned per thread of a client, so one per node and name
 * serves all the node's threads. Where {@code redis-server} is not installed the peer is unavailable, and says how to
 * install it. Its CPU per operation counts the redis-server process too.
 */
final class RedissonPeer implements Peer {

    private final boolean fenced;

    /**
     * @param fenced {@code RFencedLock} if true, else {@code RLock}
     */
    RedissonPeer(boolean fenced) {
        this.fenced = fenced;
    }

    @Override
    public String name() {
        return fenced ? "redisson-fenced" : "redisson";
    }

    @Override
    public String transport() {
        return "redis-server-redisson-" + PeerVersions.of("redisson");
    }

    @Override
    public String algorithm() {
        return fenced ? "RFencedLock" : "RLock";
    }

    @Override
    public Optional<String> unavailable() {
        return ServerBinary.REDIS.missing();
    }

    @Override
    public PeerCluster start(int nodes, int port) throws Exception {
        ScratchDirectory scratch = new ScratchDirectory("dlock-bench-redis");
        List<RedissonClient> clients = new ArrayList<>();
        ServerProcess[] server = new ServerProcess[1];
        PeerCluster cluster = new PeerCluster() {
            @Override
            public NodeLock lock(int node, String name) {
                RedissonClient c = clients.get(node);
                return NodeLock.of(fenced ? c.getFencedLock(name) : c.getLock(name));
            }

            @Override
            public CpuClock cpu() {
                return CpuClock.PROCESS.plus(server[0].cpu());
            }

            @Override
            public void close() throws InterruptedException {
                clients.forEach(RedissonClient::shutdown);
                if (server[0] != null) {
                    server[0].close();
                }
                scratch.close();
            }
        };
        try {
            server[0] = ServerProcess.start("redis-server", List.of(ServerBinary.REDIS.require().toString(),
                    "--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                    "--protected-mode", "no", "--daemonize", "no", "--dir", scratch.resolve("").toString()),
                    scratch.resolve("redis.log"), port, 30);
            for (int i = 0; i < nodes; i++) {
                Config config = new Config();
                config.useSingleServer().setAddress("redis://127.0.0.1:" + port)
                        .setConnectionMinimumIdleSize(4).setConnectionPoolSize(32);
                clients.add(Redisson.create(config));
            }
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }
}
