package io.dlock.baselines;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.TcpIpConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.dlock.bench.NodeLock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Hazelcast's CP subsystem {@code FencedLock} (Raft), on embedded members in this JVM on 127.0.0.1: one member per
 * application node (at least {@link #CP_MEMBERS}), the CP subsystem on {@link #CP_MEMBERS} of them, and each node
 * takes {@code getCPSubsystem().getLock(name)} on its own member. FencedLock is a {@link java.util.concurrent.locks.Lock}
 * owned per thread of a member's CP session, so one per node and name serves all the node's threads. Hazelcast 5.4.0
 * is pinned: the last community release whose CP subsystem runs (later ones keep it for the enterprise edition).
 */
final class HazelcastPeer implements Peer {

    /** The CP subsystem's member count (its Raft group size): the least it accepts. */
    static final int CP_MEMBERS = 3;

    @Override
    public String name() {
        return "hazelcast";
    }

    @Override
    public String transport() {
        return "hazelcast-" + PeerVersions.of("hazelcast") + "-cp";
    }

    @Override
    public String algorithm() {
        return "FencedLock";
    }

    @Override
    public PeerCluster start(int nodes, int port) throws Exception {
        int members = Math.max(nodes, CP_MEMBERS);
        List<HazelcastInstance> instances = new ArrayList<>();
        PeerCluster cluster = new PeerCluster() {
            @Override
            public NodeLock lock(int node, String name) {
                return NodeLock.of(instances.get(node).getCPSubsystem().getLock(name));
            }

            @Override
            public void close() {
                for (int i = instances.size() - 1; i >= 0; i--) {
                    instances.get(i).getLifecycleService().terminate();
                }
            }
        };
        try {
            for (int i = 0; i < members; i++) {
                instances.add(Hazelcast.newHazelcastInstance(config(port, members)));
            }
            if (!instances.get(0).getCPSubsystem().getCPSubsystemManagementService()
                    .awaitUntilDiscoveryCompleted(120, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Hazelcast's CP subsystem of " + CP_MEMBERS + " members did not form"
                        + " within 120 s");
            }
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** One member's configuration: TCP/IP join on 127.0.0.1 ports {@code port} .. {@code port + members - 1}. */
    private static Config config(int port, int members) {
        Config c = new Config();
        c.setClusterName("dlock-bench-" + port);
        c.setProperty("hazelcast.phone.home.enabled", "false");
        c.setProperty("hazelcast.logging.type", "slf4j");
        c.setProperty("hazelcast.shutdownhook.enabled", "false");
        c.setProperty("hazelcast.socket.bind.any", "false");
        c.getJetConfig().setEnabled(false);
        NetworkConfig network = c.getNetworkConfig();
        network.setPort(port).setPortAutoIncrement(true).setPortCount(members);
        network.getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        TcpIpConfig tcp = join.getTcpIpConfig().setEnabled(true);
        for (int i = 0; i < members; i++) {
            tcp.addMember("127.0.0.1:" + (port + i));
        }
        c.getCPSubsystemConfig().setCPMemberCount(CP_MEMBERS);
        return c;
    }
}
