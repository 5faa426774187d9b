package io.dlock.baselines;

import java.util.Optional;

/**
 * A lock users would pick instead of dlock (a peer of {@code dlock bench --baselines}): what it is called in the
 * rows, whether it can run on this machine, and how to start a cluster of it on 127.0.0.1.
 */
interface Peer {

    /** The row's {@code system}, and the name {@code dlock bench --peers} and the jar's first argument take. */
    String name();

    /** The row's {@code transport}: what the lock runs on, with the pinned version (e.g. {@code hazelcast-5.4.0}). */
    String transport();

    /** The row's {@code algorithm}: the lock type users would call (e.g. {@code FencedLock}). */
    String algorithm();

    /**
     * Why this peer cannot run here, with how to make it run (e.g. the server binary to install); empty if it can.
     * Checked before anything starts, so a missing server is a one-line message, not a failure.
     */
    default Optional<String> unavailable() {
        return Optional.empty();
    }

    /**
     * Starts this peer's servers and one client per application node, all on 127.0.0.1.
     *
     * @param nodes application nodes (2..16), each with its own client, session or member
     * @param port  first of the TCP ports reserved for this peer's servers (at least {@link #PORTS} of them)
     * @return the running cluster; closing it stops its clients and servers
     * @throws Exception if it did not start (servers already started are stopped)
     */
    PeerCluster start(int nodes, int port) throws Exception;

    /** The TCP ports from {@code port} on that {@link #start} may use. */
    int PORTS = 20;
}
