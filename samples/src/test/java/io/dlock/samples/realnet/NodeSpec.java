package io.dlock.samples.realnet;

import io.dlock.DlockConfig;
import io.dlock.jgroups.JGroupsTransportFactory;
import java.util.Arrays;
import java.util.List;

/**
 * What every child JVM of the real-network tests ({@link RealNetNode}, {@link NemesisNode}) is told first on its
 * command line: which node it is, where it runs and how its dlock node is configured. {@link RealNetCluster}
 * writes it with {@link #args}, the child reads it back with {@link #parse}, and the program's own arguments
 * follow.
 *
 * @param id           the node id ({@code dlock.node.id}), 1-based
 * @param incarnation  how many times this node has been started, this start included (1 for the first)
 * @param bind         the address to bind
 * @param initialHosts the {@code tcp} stack's initial hosts, {@code addr[port],...}
 * @param cluster      the JGroups cluster name
 * @param algorithm    the mutual-exclusion algorithm's configuration name
 * @param clusterSize  {@code dlock.cluster.size}, or 0 to leave it unset
 * @param stack        the JGroups stack
 * @param port         the first port to bind
 * @param store        the shared fenced store's file
 */
record NodeSpec(long id, int incarnation, String bind, String initialHosts, String cluster, String algorithm,
                int clusterSize, String stack, int port, String store) {

    /** How many command-line arguments a spec takes. */
    static final int ARGS = 10;

    /** The command-line arguments, in {@link #parse}'s order. */
    List<String> args() {
        return List.of(Long.toString(id), Integer.toString(incarnation), bind, initialHosts, cluster, algorithm,
                Integer.toString(clusterSize), stack, Integer.toString(port), store);
    }

    /** The spec in the first {@link #ARGS} arguments. */
    static NodeSpec parse(String[] args) {
        if (args.length < ARGS) {
            throw new IllegalArgumentException("expected at least " + ARGS + " arguments (id incarnation bind"
                    + " initialHosts cluster algorithm clusterSize stack port store), got " + Arrays.toString(args));
        }
        return new NodeSpec(Long.parseLong(args[0]), Integer.parseInt(args[1]), args[2], args[3], args[4], args[5],
                Integer.parseInt(args[6]), args[7], Integer.parseInt(args[8]), args[9]);
    }

    /** The program's own arguments, after the spec's. */
    static String[] rest(String[] args) {
        return Arrays.copyOfRange(args, ARGS, args.length);
    }

    /** The node's configuration on JGroups, for the caller to complete and build. */
    DlockConfig.Builder config() {
        DlockConfig.Builder b = DlockConfig.builder().transport("jgroups").cluster(cluster).nodeId(id)
                .set(DlockConfig.MUTEX, algorithm)
                .set(JGroupsTransportFactory.STACK, stack)
                .set(JGroupsTransportFactory.BIND_ADDR, bind)
                .set(JGroupsTransportFactory.PORT, Integer.toString(port))
                .set(JGroupsTransportFactory.INITIAL_HOSTS, initialHosts);
        if (clusterSize > 0) {
            b.clusterSize(clusterSize);
        }
        return b;
    }
}
