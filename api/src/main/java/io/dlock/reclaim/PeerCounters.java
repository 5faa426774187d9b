package io.dlock.runtime;

import io.dlock.spi.NodeId;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One lock's messages sent to and received from each other member in the current epoch: what a reclamation
 * vote carries so that the steward can tell whether a message of the lock is still in flight
 * ({@link io.dlock.reclaim.LockVote}). Confined to the lock's event loop.
 */
final class PeerCounters {

    private static final int SENT = 0;
    private static final int RECEIVED = 1;

    private final Map<NodeId, long[]> counts = new HashMap<>();

    void sent(NodeId to) {
        counts.computeIfAbsent(to, k -> new long[2])[SENT]++;
    }

    void received(NodeId from) {
        counts.computeIfAbsent(from, k -> new long[2])[RECEIVED]++;
    }

    Map<NodeId, Long> sent() {
        return column(SENT);
    }

    Map<NodeId, Long> received() {
        return column(RECEIVED);
    }

    /** A new epoch (or a new incarnation of the lock): counting starts again. */
    void clear() {
        counts.clear();
    }

    private Map<NodeId, Long> column(int column) {
        Map<NodeId, Long> out = new TreeMap<>();
        counts.forEach((member, c) -> {
            if (c[column] != 0) {
                out.put(member, c[column]);
            }
        });
        return out;
    }
}
