package io.dlock.reclaim;

import io.dlock.NodeId;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One member's vote on reclaiming one lock, taken on the lock's event loop at the moment the member froze it
 * (or with nothing to freeze: the member has no state for the lock).
 *
 * @param name     the lock
 * @param atRest   whether this member's state for the lock may be dropped: the algorithm says it is at rest
 *                 ({@link io.dlock.protocol.MutexProtocol#atRest()}), no local thread holds, waits for or is
 *                 entering it, no condition has a waiter, and the lock has been unused here for the idle
 *                 expiry (or was evicted by the node's size bound, {@code dlock.lock.max-live}); a member
 *                 that votes yes has frozen the lock (it handles no event of it until the decision)
 * @param fence    the highest fencing token of the lock this member has issued or seen (0 if none)
 * @param sent     messages of the lock this member sent to each other member in the current epoch (members
 *                 with none are left out)
 * @param received messages of the lock this member received from each other member in the current epoch
 */
public record LockVote(String name, boolean atRest, long fence, Map<NodeId, Long> sent,
                       Map<NodeId, Long> received) {

    public LockVote {
        Objects.requireNonNull(name, "name");
        sent = Map.copyOf(sent);
        received = Map.copyOf(received);
        if (fence < 0) {
            throw new IllegalArgumentException("fence must be >= 0, got " + fence);
        }
    }

    /** The vote of a member that has no state for {@code name}: at rest, nothing sent or received. */
    public static LockVote absent(String name) {
        return new LockVote(name, true, 0, Map.of(), Map.of());
    }

    /** The vote of a member whose state for {@code name} must stay. */
    public static LockVote busy(String name) {
        return new LockVote(name, false, 0, Map.of(), Map.of());
    }

    long sentTo(NodeId member) {
        return sent.getOrDefault(member, 0L);
    }

    long receivedFrom(NodeId member) {
        return received.getOrDefault(member, 0L);
    }

    /** The counters in ascending member order (for the codec and for readable output). */
    static Map<NodeId, Long> sorted(Map<NodeId, Long> counters) {
        return new TreeMap<>(counters);
    }
}
