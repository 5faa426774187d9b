package io.dlock.jgroups;

import static org.awaitility.Awaitility.await;

import io.dlock.DlockConfig;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/** N lock services in one JVM on a fresh JGroups cluster (unique name, own ports); closes them all. Test fixture. */
final class JGroupsCluster implements AutoCloseable {

    /** Ports for TCP stacks in this JVM: each cluster gets its own block, away from the shipped default 7800. */
    private static final AtomicInteger NEXT_PORT = new AtomicInteger(20_000 + (int) (ProcessHandle.current().pid() % 200) * 100);

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

    /** A block of ports (TCP uses port..port+range, FD_SOCK2 100 above). */
    static int freshPorts(int n) {
        return NEXT_PORT.getAndAdd(n + 4);
    }

    JGroupsCluster(int n, DlockConfig.Builder template) {
        this(n, template, true);
    }

    JGroupsCluster(int n, DlockConfig.Builder template, boolean dontBundle) {
        try {
            for (int i = 1; i <= n; i++) {
                add(template.cluster(name).nodeId(i).build(), dontBundle);
            }
            awaitViewSize(n);
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    LockService add(DlockConfig config, boolean dontBundle) {
        JGroupsTransport t = JGroupsTransportFactory.create(config, dontBundle);
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

    LockService node(int i) {
        return nodes.get(i);
    }

    @Override
    public void close() {
        nodes.forEach(LockService::close);
    }
}
