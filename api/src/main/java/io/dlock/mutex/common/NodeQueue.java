package io.dlock.mutex.common;

import io.dlock.NodeId;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A first-in first-out queue of node ids: the request queues of the token algorithms (Raymond's
 * {@code REQUEST_Q}, Suzuki-Kasami's {@code Q}), which hold a few ids at a time and none at all while a lock
 * is at rest. The ids sit in an array of exactly their number, shared by every empty queue, so an empty
 * queue is one small object (an {@code ArrayDeque} allocates its array up front, 17 slots by default). Each change copies
 * the array: linear in the queue's length, like the {@link #contains} that precedes most adds.
 *
 * <p>Not thread-safe: owned by one protocol instance and used only from its event loop.
 */
public final class NodeQueue {

    private static final NodeId[] EMPTY = new NodeId[0];

    /** The queue, head first; {@link #EMPTY} while empty. */
    private NodeId[] ids = EMPTY;

    /** Whether the queue holds no id. */
    public boolean isEmpty() {
        return ids.length == 0;
    }

    /** The number of ids queued. */
    public int size() {
        return ids.length;
    }

    /** Whether {@code id} is queued. */
    public boolean contains(NodeId id) {
        return indexOf(id) >= 0;
    }

    /** Appends {@code id} at the tail. */
    public void addLast(NodeId id) {
        Objects.requireNonNull(id, "id");
        NodeId[] grown = Arrays.copyOf(ids, ids.length + 1);
        grown[ids.length] = id;
        ids = grown;
    }

    /** Appends every id of {@code more} at the tail, in its iteration order. */
    public void addAll(Collection<NodeId> more) {
        if (!more.isEmpty()) {
            NodeId[] grown = Arrays.copyOf(ids, ids.length + more.size());
            int k = ids.length;
            for (NodeId id : more) {
                grown[k++] = Objects.requireNonNull(id, "id");
            }
            ids = grown;
        }
    }

    /** Removes and returns the head, or returns null if the queue is empty. */
    public NodeId pollFirst() {
        if (ids.length == 0) {
            return null;
        }
        NodeId head = ids[0];
        ids = ids.length == 1 ? EMPTY : Arrays.copyOfRange(ids, 1, ids.length);
        return head;
    }

    /** Removes the first occurrence of {@code id}; false if it was not queued. */
    public boolean remove(NodeId id) {
        int k = indexOf(id);
        if (k < 0) {
            return false;
        }
        NodeId[] shrunk = ids.length == 1 ? EMPTY : new NodeId[ids.length - 1];
        System.arraycopy(ids, 0, shrunk, 0, k);
        System.arraycopy(ids, k + 1, shrunk, k, ids.length - k - 1);
        ids = shrunk;
        return true;
    }

    /** Removes every id that {@code filter} accepts, keeping the order of the others. */
    public void removeIf(Predicate<NodeId> filter) {
        NodeId[] kept = new NodeId[ids.length];
        int n = 0;
        for (NodeId id : ids) {
            if (!filter.test(id)) {
                kept[n++] = id;
            }
        }
        if (n < ids.length) {
            ids = n == 0 ? EMPTY : Arrays.copyOf(kept, n);
        }
    }

    /** Empties the queue. */
    public void clear() {
        ids = EMPTY;
    }

    /** The ids, head first (an unmodifiable copy). */
    public List<NodeId> toList() {
        return List.of(ids);
    }

    private int indexOf(NodeId id) {
        for (int k = 0; k < ids.length; k++) {
            if (ids[k].equals(id)) {
                return k;
            }
        }
        return -1;
    }

    /** The ids head first, as {@code [n1, n2]}. */
    @Override
    public String toString() {
        return Arrays.toString(ids);
    }
}
