package io.dlock;

import io.dlock.runtime.NodeRuntime;
import io.dlock.spi.Transport;

/**
 * One node of a dlock cluster: the entry point of the library. Start it from a configuration, take
 * locks and elections from it by name, close it when done.
 *
 * <pre>{@code
 * try (LockService dlock = LockService.start(DlockConfig.fromSystemProperties())) {
 *     Lock lock = dlock.lock("orders");
 *     lock.lock();
 *     try { ... } finally { lock.unlock(); }
 * }
 * }</pre>
 *
 * <p>Thread-safe. {@link #close()} leaves the cluster: threads waiting for a lock get an
 * {@link IllegalStateException}, held locks are dropped (the other nodes see this node leave and
 * go on without it).
 */
public interface LockService extends AutoCloseable {

    /**
     * The election group whose leader is the coordinator of every lock of {@code centralized} with option
     * {@code coordinator=leader}; started with the node when that option and a message-passing election are
     * configured. With the default {@code coordinator=per-name} each lock's coordinator follows from its name
     * and the view, and the node does not start this group. Applications may observe it like any other group:
     * {@code election(COORDINATOR_GROUP)}.
     */
    String COORDINATOR_GROUP = "dlock.mutex-coordinator";

    /**
     * Starts a node with the transport named by {@code dlock.transport}, found on the class path, and
     * returns once the node is in a <em>primary</em> view, one that may grant locks and elect leaders.
     * With {@code dlock.cluster.size} = n that means a view of more than n/2 members: a node started
     * before enough others waits for them (nodes of one deployment should be started together), up to
     * {@code dlock.jgroups.join-timeout-ms} on JGroups (30 s by default). Without it, the node's first
     * view is primary and the call returns as soon as the transport has joined.
     *
     * @throws DlockConfigException if no such transport exists, or the algorithm needs FIFO channels
     *                              that the transport does not declare
     * @throws io.dlock.spi.TransportException if the cluster cannot be joined, or no primary view came
     *                              within the bound (the message names the last view and what it lacked)
     */
    static LockService start(DlockConfig config) {
        return NodeRuntime.start(config);
    }

    /**
     * Starts a node over a transport the caller made (tests, custom networks). The service owns the
     * transport from now on and closes it on {@link #close()}.
     */
    static LockService start(DlockConfig config, Transport transport) {
        return NodeRuntime.start(config, transport);
    }

    /** This node's id. */
    NodeId nodeId();

    /** The configuration this node was started with. */
    DlockConfig config();

    /**
     * The current membership view as this node sees it: its epoch, members, whether it is primary (this node may
     * grant locks and elect leaders in it), and this node's id; read together, so they describe one moment.
     */
    ClusterView view();

    /**
     * The lock named {@code name}: mutually exclusive with the lock of that name on every other node; the same
     * instance for the same name on this node while the lock's state is kept here. Once the lock has been
     * idle everywhere for {@code dlock.lock.idle-expiry-ms} its state is reclaimed and a later call returns a
     * new instance; an instance obtained before keeps working (it finds the lock by name on every call).
     *
     * @throws IllegalArgumentException if the name is empty or longer than 200 characters
     * @throws IllegalStateException    if the service is closed
     */
    DistributedLock lock(String name);

    /**
     * The leader election of {@code group}: the same instance for the same group on this node.
     *
     * @throws IllegalArgumentException if the name is empty or longer than 200 characters
     * @throws IllegalStateException    if the service is closed
     */
    LeaderElection election(String group);

    /** The sum of the metrics of every lock on this node. */
    LockMetrics metrics();

    /**
     * This node's membership metrics: its current epoch and verdict, the views it installed, and the time
     * it spent in views that are not primary for it. For monitoring, see also {@link io.dlock.metrics}.
     */
    NodeMetrics nodeMetrics();

    /**
     * Whether this node has left its cluster: {@link #close()} has run (or is finishing), and {@link #lock} and
     * {@link #election} throw {@link IllegalStateException}. For health checks, which must not create lock state to
     * find out.
     */
    boolean isClosed();

    /**
     * Leaves the cluster; idempotent. The node first announces its leave to the other members and waits
     * until they have acknowledged it, at most 2 seconds: members that heard it do not count the departure
     * against the majority rule, so a cluster shut down one node at a time stays available down to its
     * last node (a crash, by contrast, counts as a failure).
     */
    @Override
    void close();
}
