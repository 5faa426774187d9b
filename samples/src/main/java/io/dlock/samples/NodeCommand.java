package io.dlock.samples;

import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.DlockConfigException;
import io.dlock.LeaderElection;
import io.dlock.LockService;
import io.dlock.MutexVariant;
import io.dlock.jgroups.JGroupsTransportFactory;
import io.dlock.spi.TransportException;
import java.io.PrintWriter;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code dlock node}: starts one JGroups node that takes a lock in a loop and prints when it holds it,
 * with its fencing token, the view and the leader of the view election. Start three in three terminals
 * with the same {@code --cluster} to watch them take turns; stop one with Ctrl-C (or kill it) and watch
 * the others go on.
 */
@Command(name = "node", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Start a JGroups node that takes a lock in a loop and prints when it holds it and who leads.")
final class NodeCommand extends DlockCommand {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    @Option(names = "--cluster", defaultValue = "dlock-demo", description = "cluster name (default ${DEFAULT-VALUE})")
    String cluster;

    @Option(names = "--lock", defaultValue = "demo", description = "lock name (default ${DEFAULT-VALUE})")
    String lockName;

    @Option(names = "--algorithm", paramLabel = "NAME", defaultValue = "centralized", converter = MutexVariantConverter.class,
            description = "mutual-exclusion algorithm or variant (default ${DEFAULT-VALUE}); `dlock compare` lists them all")
    MutexVariant algorithm;

    @Option(names = "--cluster-size", paramLabel = "N",
            description = "how many nodes the cluster has (dlock.cluster.size): grants need more than N/2 of them, and"
                    + " the node starts only once that many have joined (default: not set)")
    Integer clusterSize;

    @Option(names = "--node-id", description = "this node's id (default: derived from its JGroups address)")
    Long nodeId;

    @Option(names = "--stack", defaultValue = "default",
            description = "JGroups stack: default, tcp, secure, loopback or a stack file (default ${DEFAULT-VALUE})")
    String stack;

    @Option(names = "--bind-addr", description = "address to bind to (default 127.0.0.1)")
    String bindAddr;

    @Option(names = "--port", description = "first TCP port to try (default 7800)")
    Integer port;

    @Option(names = "--initial-hosts", description = "members to contact, host[port],... (default: bind-addr[port])")
    String initialHosts;

    @Option(names = "--keystore", description = "keystore with the cluster's AES key (secure stack)")
    String keystore;

    @Option(names = "--keystore-password", description = "password of the keystore and key (secure stack)")
    String keystorePassword;

    @Option(names = "--hold-ms", defaultValue = "500", description = "how long to hold the lock (default ${DEFAULT-VALUE})")
    long holdMs;

    @Option(names = "--pause-ms", defaultValue = "500",
            description = "pause between release and the next request (default ${DEFAULT-VALUE})")
    long pauseMs;

    @Option(names = "--count", defaultValue = "0", description = "stop after this many entries (default 0: forever)")
    long count;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = out();
        if (System.getProperty("org.slf4j.simpleLogger.log.org.jgroups") == null) {
            // JGroups' INFO lines (addresses, ports) would drown the demo's output; -D... overrides this
            System.setProperty("org.slf4j.simpleLogger.log.org.jgroups", "warn");
        }
        DlockConfig config;
        try {
            DlockConfig.Builder b = DlockConfig.builder().transport("jgroups").cluster(cluster)
                    .set(DlockConfig.MUTEX, algorithm.name()).set(JGroupsTransportFactory.STACK, stack);
            if (nodeId != null) {
                b.nodeId(nodeId);
            }
            setIf(b, DlockConfig.CLUSTER_SIZE, clusterSize == null ? null : clusterSize.toString());
            setIf(b, JGroupsTransportFactory.BIND_ADDR, bindAddr);
            setIf(b, JGroupsTransportFactory.PORT, port == null ? null : port.toString());
            setIf(b, JGroupsTransportFactory.INITIAL_HOSTS, initialHosts);
            setIf(b, JGroupsTransportFactory.KEYSTORE, keystore);
            setIf(b, JGroupsTransportFactory.KEYSTORE_PASSWORD, keystorePassword);
            config = b.build();
        } catch (DlockConfigException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        LockService service;
        try {
            service = LockService.start(config);
        } catch (DlockConfigException | TransportException e) {
            spec.commandLine().getErr().println(e.getMessage());
            spec.commandLine().getErr().flush();
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            service.close();
            stopped.countDown();
        }, "dlock-node-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        LeaderElection election = service.election("demo");
        election.addListener(c -> out.printf("%s leader of '%s' is now %s%s (epoch %d)%n", now(), c.group(),
                c.leader(), c.isSelf() ? " (me)" : "", c.epoch()));
        out.printf("%s node %s joined cluster '%s' (%s, stack %s), view %s%n", now(), service.nodeId(), cluster,
                config.mutex().configName(), stack, service.view().members());
        DistributedLock lock = service.lock(lockName);
        try {
            for (long i = 1; count == 0 || i <= count; i++) {
                lock.lock();
                try {
                    out.printf("%s %s HOLDS '%s' (entry %d, fence %d), view %s, leader %s%n", now(),
                            service.nodeId(), lockName, i, lock.fencingToken(), service.view().members(),
                            election.leader().map(Object::toString).orElse("?"));
                    Thread.sleep(holdMs);
                } finally {
                    lock.unlock();
                }
                out.printf("%s %s released '%s'%n", now(), service.nodeId(), lockName);
                Thread.sleep(pauseMs);
            }
        } catch (IllegalStateException e) {
            // the service was closed by the shutdown hook
            stopped.await();
            return 0;
        }
        Runtime.getRuntime().removeShutdownHook(hook);
        service.close();
        out.flush();
        return 0;
    }

    private static void setIf(DlockConfig.Builder b, String key, String value) {
        if (value != null) {
            b.set(key, value);
        }
    }

    private static String now() {
        return LocalTime.now().format(TIME);
    }
}
