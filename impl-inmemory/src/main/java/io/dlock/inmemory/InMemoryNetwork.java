package io.dlock.inmemory;

import io.dlock.NodeId;
import io.dlock.spi.TransportException;
import io.dlock.spi.View;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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

    /** A network of its own, with no cluster, separate from the {@link #shared()} one. */
    public InMemoryNetwork() {
    }

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

    /**
     * Partitions {@code cluster} (for fault tests): messages between nodes in different {@code sides}
     * are lost from now on, and each side gets a view of its own members, all with the same next
     * epoch (as two JGroups coordinators may number them). Members named in no side form one more side.
     *
     * @throws IllegalArgumentException if the cluster does not exist, a side names a non-member, or a
     *                                  node is in two sides
     */
    public void split(String cluster, List<? extends Collection<NodeId>> sides) {
        Cluster c = clusters.get(cluster);
        if (c == null) {
            throw new IllegalArgumentException("no in-memory cluster '" + cluster + "'");
        }
        synchronized (c) {
            Map<NodeId, Integer> sideOf = new HashMap<>();
            for (int i = 0; i < sides.size(); i++) {
                for (NodeId id : sides.get(i)) {
                    if (!c.members.containsKey(id)) {
                        throw new IllegalArgumentException("node " + id + " is not a member of '" + cluster + "': "
                                + c.members.keySet());
                    }
                    if (sideOf.put(id, i) != null) {
                        throw new IllegalArgumentException("node " + id + " is in two sides " + sides);
                    }
                }
            }
            for (NodeId id : c.members.keySet()) {
                sideOf.putIfAbsent(id, sides.size());
            }
            c.sideOf = Map.copyOf(sideOf);
            long epoch = ++c.epoch;
            for (int side = 0; side <= sides.size(); side++) {
                List<NodeId> members = new ArrayList<>();
                for (Map.Entry<NodeId, Integer> e : c.sideOf.entrySet()) {
                    if (e.getValue() == side) {
                        members.add(e.getKey());
                    }
                }
                if (!members.isEmpty()) {
                    View view = new View(epoch, members);
                    for (NodeId id : members) {
                        c.members.get(id).queueView(view);
                    }
                }
            }
        }
    }

    /**
     * Ends a {@link #split}: every link works again and every member gets the merge view, whose epoch
     * is above both sides'. Does nothing if the cluster is not split.
     */
    public void heal(String cluster) {
        Cluster c = clusters.get(cluster);
        if (c == null) {
            return;
        }
        synchronized (c) {
            if (c.sideOf == null) {
                return;
            }
            c.sideOf = null;
            installView(c, null);
        }
    }

    /**
     * Pauses {@code node} of {@code cluster} as {@code SIGSTOP} pauses a process (see
     * {@link InMemoryTransport#pause}); combine with {@link #split} to have the others exclude it meanwhile.
     *
     * @throws IllegalArgumentException if the node is not a member
     */
    public void pause(String cluster, NodeId node) {
        member(cluster, node).pause();
    }

    /**
     * Resumes {@code node} (see {@link InMemoryTransport#resume}): what reached it while paused is delivered
     * after {@code lateBy}.
     *
     * @throws IllegalArgumentException if the node is not a member
     */
    public void resume(String cluster, NodeId node, Duration lateBy) {
        member(cluster, node).resume(lateBy);
    }

    private InMemoryTransport member(String cluster, NodeId node) {
        InMemoryTransport endpoint = endpointOf(cluster, node);
        if (endpoint == null) {
            throw new IllegalArgumentException("node " + node + " is not a member of in-memory cluster '" + cluster
                    + "': " + members(cluster));
        }
        return endpoint;
    }

    InMemoryTransport endpointOf(String cluster, NodeId node) {
        return endpointOf(cluster, null, node);
    }

    /** The endpoint of {@code node}, or null if it left or a split cuts it off from {@code from}. */
    InMemoryTransport endpointOf(String cluster, NodeId from, NodeId node) {
        Cluster c = clusters.get(cluster);
        if (c == null) {
            return null;
        }
        synchronized (c) {
            Map<NodeId, Integer> sides = c.sideOf;
            if (from != null && sides != null && !Objects.equals(sides.get(from), sides.get(node))) {
                return null;
            }
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
        /** The side of each member while split, else null. */
        private Map<NodeId, Integer> sideOf;
    }
}
