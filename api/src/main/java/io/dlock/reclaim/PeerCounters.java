package io.dlock.reclaim;

import io.dlock.NodeId;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * One lock's messages sent to and received from each other member in the current epoch: what a reclamation
 * vote carries so that the steward can tell whether a message of the lock is still in flight
 * ({@link LockVote}). Shared by the runtime's lock drivers and the simulator's keyed locks, so both count the
 * same way. Not thread-safe: confined to the lock's event loop.
 */
public final class PeerCounters {

    private static final int ID = 0;
    private static final int SENT = 1;
    private static final int RECEIVED = 2;
    /** Longs per member in {@link #rows}. */
    private static final int ROW = 3;
    private static final long[] NONE = new long[0];

    /**
     * One row per member with a count, ascending by id: the id's value, messages sent, messages received. Every live
     * lock keeps one of these, so a few longs per member rather than a map of boxed entries; a binary search finds a
     * member, and a member is added once per epoch at most.
     */
    private long[] rows = NONE;
    private int members;

    /** Counts one message of the lock sent to {@code to}. */
    public void sent(NodeId to) {
        int row = rowOf(to); // first: it may replace the array
        rows[row + SENT]++;
    }

    /** Counts one message of the lock received from {@code from}. */
    public void received(NodeId from) {
        int row = rowOf(from); // first: it may replace the array
        rows[row + RECEIVED]++;
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
        Arrays.fill(rows, 0, members * ROW, 0L);
        members = 0;
    }

    /** This member's vote on the lock, at rest, with the given highest fence and these counters. */
    public LockVote atRestVote(String name, long fence) {
        return new LockVote(name, true, fence, sent(), received());
    }

    /** The offset of {@code member}'s row, added (with zero counts) if it has none. */
    private int rowOf(NodeId member) {
        long id = member.value();
        int low = 0;
        int high = members - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            long at = rows[mid * ROW + ID];
            if (at < id) {
                low = mid + 1;
            } else if (at > id) {
                high = mid - 1;
            } else {
                return mid * ROW;
            }
        }
        if ((members + 1) * ROW > rows.length) {
            rows = Arrays.copyOf(rows, (members + 1) * ROW);
        }
        System.arraycopy(rows, low * ROW, rows, (low + 1) * ROW, (members - low) * ROW);
        rows[low * ROW + ID] = id;
        rows[low * ROW + SENT] = 0;
        rows[low * ROW + RECEIVED] = 0;
        members++;
        return low * ROW;
    }

    private Map<NodeId, Long> column(int column) {
        Map<NodeId, Long> out = new TreeMap<>();
        for (int m = 0; m < members; m++) {
            long count = rows[m * ROW + column];
            if (count != 0) {
                out.put(new NodeId(rows[m * ROW + ID]), count);
            }
        }
        return out;
    }
}
