package io.dlock.baselines;

import io.dlock.bench.CpuClock;
import io.dlock.bench.NodeLock;
import io.etcd.jetcd.Client;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * etcd's lock service through jetcd, on a cluster of {@link #MEMBERS} etcd members that the peer starts on 127.0.0.1
 * from the {@code etcd} binary (Debian package {@code etcd-server}) and stops when it closes: client ports
 * {@code port} .. {@code port + 2}, peer ports {@code port + 3} .. {@code port + 5}, data in a temporary directory.
 * Node i is a jetcd client of member i mod 3 (see {@link EtcdLock} for the leases). Where {@code etcd} is not
 * installed the peer is unavailable and says how to install it. Its CPU per operation counts the members too.
 */
final class EtcdPeer implements Peer {

    /** The etcd cluster's size. */
    static final int MEMBERS = 3;

    @Override
    public String name() {
        return "etcd";
    }

    @Override
    public String transport() {
        return "etcd-x" + MEMBERS + "-jetcd-" + PeerVersions.of("jetcd");
    }

    @Override
    public String algorithm() {
        return "etcd-lock";
    }

    @Override
    public Optional<String> unavailable() {
        return ServerBinary.ETCD.missing();
    }

    @Override
    public PeerCluster start(int nodes, int port) throws Exception {
        ScratchDirectory scratch = new ScratchDirectory("dlock-bench-etcd");
        List<ServerProcess> members = new ArrayList<>();
        List<EtcdLock> clients = new ArrayList<>();
        PeerCluster cluster = new PeerCluster() {
            @Override
            public NodeLock lock(int node, String name) {
                return clients.get(node).lock(name);
            }

            @Override
            public CpuClock cpu() {
                CpuClock all = CpuClock.PROCESS;
                for (ServerProcess m : members) {
                    all = all.plus(m.cpu());
                }
                return all;
            }

            @Override
            public void close() throws InterruptedException {
                clients.forEach(EtcdLock::close);
                for (ServerProcess m : members) {
                    m.close();
                }
                scratch.close();
            }
        };
        try {
            String etcd = ServerBinary.ETCD.require().toString();
            List<String> initial = new ArrayList<>();
            for (int i = 0; i < MEMBERS; i++) {
                initial.add("m" + i + "=" + url(port + MEMBERS + i));
            }
            for (int i = 0; i < MEMBERS; i++) {
                members.add(ServerProcess.launch("etcd member m" + i, List.of(etcd, "--name", "m" + i,
                        "--data-dir", scratch.resolve("m" + i).toString(),
                        "--listen-client-urls", url(port + i), "--advertise-client-urls", url(port + i),
                        "--listen-peer-urls", url(port + MEMBERS + i),
                        "--initial-advertise-peer-urls", url(port + MEMBERS + i),
                        "--initial-cluster", String.join(",", initial), "--initial-cluster-state", "new",
                        "--initial-cluster-token", "dlock-bench-" + port),
                        scratch.resolve("m" + i + ".log")));
            }
            for (int i = 0; i < MEMBERS; i++) {
                members.get(i).awaitListening(port + i, 60);
            }
            for (int i = 0; i < nodes; i++) {
                clients.add(new EtcdLock(Client.builder().endpoints(url(port + i % MEMBERS)).build()));
            }
            awaitQuorum(clients.get(0), members);
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** Waits until a write through {@code client} is committed (the members elected a leader), at most 60 s. */
    private static void awaitQuorum(EtcdLock client, List<ServerProcess> members) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        NodeLock probe = client.lock("dlock-bench-ready");
        while (true) {
            try {
                if (probe.tryLock(5)) {
                    probe.unlock();
                    return;
                }
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception notYet) {
                // no leader yet: try again
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the etcd cluster of " + MEMBERS + " did not take a lock within 60 s; "
                        + "member m0's output:\n" + members.get(0).tail());
            }
            Thread.sleep(200);
        }
    }

    private static String url(int port) {
        return "http://127.0.0.1:" + port;
    }
}
