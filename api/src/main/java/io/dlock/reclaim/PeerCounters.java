package io.dlock.reclaim;

import io.dlock.NodeId;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One lock's messages sent to and received from each other member in the current epoch: what a reclamation
 * vote carries so that the steward can tell whether a message of the lock is still in flight
 * ({@link LockVote}). Shared by the runtime's lock drivers and the simulator's keyed locks, so both count the
 * same way. Not thread-safe: confined to the lock's event loop.
 */
public final class PeerCounters {

    private static final int SENT = 0;
    private static final int RECEIVED = 1;

    private final Map<NodeId, long[]> counts = new HashMap<>();

    /** Counts one message of the lock sent to {@code to}. */
    public void sent(NodeId to) {
        counts.computeIfAbsent(to, k -> new long[2])[SENT]++;
    }

    /** Counts one message of the lock received from {@code from}. */
    public void received(NodeId from) {
        counts.computeIfAbsent(from, k -> new long[2])[RECEIVED]++;
    }

    /** Messages sent, per member with at least one, ascending. */
    public Map<NodeId, Long> sent() {
        return column(SENT);
    }

    /** Messages received, per member with at least one, ascending. */
    public Map<NodeId, Long> received() {
        return column(RECEIVED);
    }

    /** A new epoch (or a new incarnation of the lock): counting starts again. */
    public void clear() {
        counts.clear();
    }

    /** This member's vote on the lock, at rest, with the given highest fence and these counters. */
    public LockVote atRestVote(String name, long fence) {
        return new LockVote(name, true, fence, sent(), received());
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
