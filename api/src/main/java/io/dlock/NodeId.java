package io.dlock;

/**
 * The identity of one node of a cluster, with the total order that every member agrees on.
 *
 * <p>Elections pick the member with the highest id; algorithms that need the ids {@code 0..N-1}
 * of the specification use a member's index in the {@link View} (its rank in this order), never the
 * raw value. On JGroups the value comes from {@code dlock.node.id} when it is set, else it is derived
 * from the member's address; on the in-memory network it is given by the test or the configuration.
 *
 * @param value a non-negative number, unique within the cluster
 */
public record NodeId(long value) implements Comparable<NodeId> {

    /** @throws IllegalArgumentException if {@code value} is negative */
    public NodeId {
        if (value < 0) {
            throw new IllegalArgumentException("node id must be >= 0, got " + value);
        }
    }

    /** Shorthand for {@code new NodeId(value)}. */
    public static NodeId of(long value) {
        return new NodeId(value);
    }

    @Override
    public int compareTo(NodeId other) {
        return Long.compare(value, other.value);
    }

    @Override
    public String toString() {
        return "n" + value;
    }
}
