package io.dlock.protocol;

import io.dlock.NodeId;

/**
 * A request's priority: its Lamport timestamp, ties broken by the smaller node id (docs/algorithms.md 0.3).
 * Smaller = earlier = served first.
 *
 * @param timestamp Lamport time at which the request was created
 * @param node      the requester
 */
public record RequestStamp(long timestamp, NodeId node) implements Comparable<RequestStamp> {

    @Override
    public int compareTo(RequestStamp other) {
        int byTime = Long.compare(timestamp, other.timestamp);
        return byTime != 0 ? byTime : node.compareTo(other.node);
    }

    /** Whether this request precedes {@code other}. */
    public boolean precedes(RequestStamp other) {
        return compareTo(other) < 0;
    }
}
