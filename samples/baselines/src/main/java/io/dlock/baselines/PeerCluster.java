package io.dlock.baselines;

import io.dlock.bench.CpuClock;
import io.dlock.bench.NodeLock;

/**
 * A running cluster of a {@link Peer}: N application nodes on 127.0.0.1, each with its own client (or embedded member),
 * and the peer's servers. Closing it stops them all.
 */
interface PeerCluster extends AutoCloseable {

    /**
     * Node {@code node}'s handle on the lock named {@code name}: usable by all of that node's threads at once, each
     * owning the lock it took (the benchmark keeps one per node and name).
     *
     * @param node the node, 0 .. nodes-1
     * @param name the lock's name
     */
    NodeLock lock(int node, String name) throws Exception;

    /**
     * The CPU time of the whole system: this JVM (the clients and any embedded servers), plus the peer's server
     * processes, read from {@code /proc/<pid>/stat}, where it has some.
     */
    default CpuClock cpu() {
        return CpuClock.PROCESS;
    }

    /** Stops the clients, then the servers; bounded in time. */
    @Override
    void close() throws Exception;
}
