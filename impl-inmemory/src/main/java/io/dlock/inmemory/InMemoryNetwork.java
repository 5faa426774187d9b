package io.dlock.inmemory;

import io.dlock.spi.NodeId;
import io.dlock.spi.TransportException;
import io.dlock.spi.View;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-process network of one JVM: a set of named clusters, each a set of
 * {@link InMemoryTransport endpoints}. Joining or leaving a cluster installs a new view (the next
 * epoch) at every member. Each endpoint delivers what it receives on its own single thread, in
 * arrival order, so every (sender, receiver) channel is FIFO.
 *
 * <p>Thread-safe. Membership changes of one cluster are serialized.
 */
public final class InMemoryNetwork {

    private static final InMemoryNetwork DEFAULT = new InMemoryNetwork();

    private final Map<String, Cluster> clusters = new ConcurrentHashMap<>();

    /** The JVM-wide network that {@code dlock.transport=inmemory} uses. */
    public static InMemoryNetwork shared() {
        return DEFAULT;
    }

    /**
     * A new endpoint for {@code cluster}, not yet joined.
     *
     * @param requestedId the node id to use, or {@code null} to take the next free one
     * @param delay       delay of every message sent from this endpoint
     */
    public InMemoryTransport endpoint(String cluster, Long requestedId, Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("in-memory message delay must be >= 0, got " + delay);
        }
        return new InMemoryTransport(this, cluster, requestedId, delay);
    }

    /** The members of {@code cluster} now, ascending; empty if nobody joined. */
    public List<NodeId> members(String cluster) {
        Cluster c = clusters.get(cluster);
        if (c == null) {
            return List.of();
        }
        synchronized (c) {
            return List.copyOf(c.members.keySet());
        }
    }

    NodeId join(String cluster, Long requestedId, InMemoryTransport endpoint) {
        Cluster c = clusters.computeIfAbsent(cluster, k -> new Cluster());
        synchronized (c) {
            long id;
            if (requestedId != null) {
                if (c.members.containsKey(NodeId.of(requestedId))) {
                    throw new TransportException("node id " + requestedId + " is already in use in in-memory cluster '"
                            + cluster + "'; members: " + c.members.keySet());
                }
                id = requestedId;
            } else {
                id = c.nextId;
                while (c.members.containsKey(NodeId.of(id))) {
                    id++;
                }
            }
            c.nextId = Math.max(c.nextId, id + 1);
            NodeId node = NodeId.of(id);
            c.members.put(node, endpoint);
            endpoint.attach(node);
            installView(c, endpoint);
            return node;
        }
    }

    void leave(String cluster, NodeId node) {
        Cluster c = clusters.get(cluster);
        if (c == null) {
            return;
        }
        synchronized (c) {
            if (c.members.remove(node) == null) {
                return;
            }
            if (c.members.isEmpty()) {
                clusters.remove(cluster, c);
                return;
            }
            installView(c, null);
        }
    }

    InMemoryTransport endpointOf(String cluster, NodeId node) {
        Cluster c = clusters.get(cluster);
        if (c == null) {
            return null;
        }
        synchronized (c) {
            return c.members.get(node);
        }
    }

    /** Queues the next view at every member, the joiner first so that it sees its view before any message. */
    private static void installView(Cluster c, InMemoryTransport joiner) {
        View view = new View(++c.epoch, new ArrayList<>(c.members.keySet()));
        if (joiner != null) {
            joiner.queueView(view);
        }
        for (InMemoryTransport member : c.members.values()) {
            if (member != joiner) {
                member.queueView(view);
            }
        }
    }

    /** One cluster's members and epoch counter; guarded by its own monitor. */
    private static final class Cluster {
        private final TreeMap<NodeId, InMemoryTransport> members = new TreeMap<>();
        private long epoch;
        private long nextId;
    }
}
