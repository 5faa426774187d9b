package io.dlock.jgroups;

import static org.awaitility.Awaitility.await;

import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.contract.LockCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** N lock services in one JVM on a fresh JGroups cluster (unique name, own ports); closes them all. Test fixture. */
final class JGroupsCluster implements LockCluster {

    /**
     * Ports for TCP stacks in this JVM: each cluster gets its own block, away from the shipped default 7800 and
     * below the kernel's ephemeral range (32768 and up on Linux), where the nodes' own outgoing connections take
     * their local ports and could take a block's port before its node binds it. When the module's tests run in
     * several JVMs at once (surefire's forks: {@code test.fork} of {@code test.forks}), each JVM takes
     * its blocks, FD_SOCK2's ports included, from its own share of that range.
     */
    private static final int LOWEST_PORT = 20_000;
    private static final int BELOW_EPHEMERAL = 32_768;
    /** FD_SOCK2 listens this far above a node's TCP port. */
    private static final int FD_SOCK2_OFFSET = 100;
    private static final int FORKS = Math.max(1, Integer.getInteger("test.forks", 1));
    private static final int SHARE = (BELOW_EPHEMERAL - LOWEST_PORT) / FORKS;
    private static final int SHARE_START = LOWEST_PORT + Math.floorMod(Integer.getInteger("test.fork", 1) - 1,
            FORKS) * SHARE;
    /** Starts at a point of the share that depends on the pid, so that the next run does not reuse the last one's. */
    private static int nextPort = SHARE_START + (int) (ProcessHandle.current().pid() % 100) * (SHARE / 200);

    final List<LockService> nodes = new ArrayList<>();
    final List<JGroupsTransport> transports = new ArrayList<>();
    final String name = "test-" + UUID.randomUUID();

    /** n nodes with ids 1..n on the loopback stack. */
    static JGroupsCluster loopback(int n, MutexAlgorithm algorithm) {
        return new JGroupsCluster(n, base(algorithm).set(JGroupsTransportFactory.STACK, "loopback"));
    }

    /** n nodes with ids 1..n on the default TCP stack bound to 127.0.0.1, on a port block of their own. */
    static JGroupsCluster tcp(int n, MutexAlgorithm algorithm) {
        return new JGroupsCluster(n, tcpTemplate(base(algorithm), n));
    }

    static DlockConfig.Builder base(MutexAlgorithm algorithm) {
        return DlockConfig.builder().transport("jgroups").mutex(algorithm);
    }

    /** Adds the default stack on 127.0.0.1 with a fresh port block for n nodes. */
    static DlockConfig.Builder tcpTemplate(DlockConfig.Builder b, int n) {
        int port = freshPorts(n);
        return b.set(JGroupsTransportFactory.STACK, "default").set(JGroupsTransportFactory.BIND_ADDR, "127.0.0.1")
                .set(JGroupsTransportFactory.PORT, Integer.toString(port))
                .set(JGroupsTransportFactory.PORT_RANGE, Integer.toString(n + 2));
    }

    /**
     * A block of ports (TCP uses port..port+range, FD_SOCK2 {@value #FD_SOCK2_OFFSET} above); after the last block
     * that fits in this JVM's share, the blocks start again from the share's first port (the clusters that had
     * those ports are long closed).
     */
    static synchronized int freshPorts(int n) {
        int size = n + 4;
        if (nextPort + size + FD_SOCK2_OFFSET > SHARE_START + SHARE) {
            nextPort = SHARE_START;
        }
        int port = nextPort;
        nextPort += size;
        return port;
    }

    JGroupsCluster(int n, DlockConfig.Builder template) {
        try {
            for (int i = 1; i <= n; i++) {
                add(template.cluster(name).nodeId(i).build());
            }
            awaitViewSize(n);
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    LockService add(DlockConfig config) {
        JGroupsTransport t = JGroupsTransportFactory.newTransport(config);
        LockService s = LockService.start(config, t);
        transports.add(t);
        nodes.add(s);
        return s;
    }

    void awaitViewSize(int n) {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> nodes.stream().allMatch(s -> s.view().size() == n)
                        && nodes.stream().map(s -> s.view().epoch()).distinct().count() == 1);
    }

    @Override
    public List<LockService> nodes() {
        return nodes;
    }

    @Override
    public void close() {
        nodes.forEach(LockService::close);
    }
}
