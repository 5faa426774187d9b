package io.dlock.mutex.common;

import io.dlock.NodeId;
import java.util.Arrays;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * A map from node ids to longs, iterated in ascending id order: ids below {@link NodeSet#DENSE} in an array
 * indexed by id with a {@link NodeSet} of the ids present (O(1), a few bytes per node, so that N protocol
 * instances of N nodes each stay in the caches where N hash maps did not), larger ids in a sorted tree. Iteration
 * visits the array's ids then the tree's, which is ascending: the order of a {@code TreeMap<NodeId, Long>}.
 *
 * <p>Not thread-safe: owned by one protocol instance and used only from its event loop.
 */
public final class NodeLongMap {

    /** Receives one entry. */
    @FunctionalInterface
    public interface EntryConsumer {
        /** One entry of the map. */
        void accept(NodeId id, long value);
    }

    private final NodeSet keys = new NodeSet();
    /** Shared by every map that holds no dense id yet (most of a protocol's maps, most of the time). */
    private static final long[] NO_VALUES = new long[0];

    /** Indexed by dense id, grown at the first put of a higher id; {@link #NO_VALUES} until the first put. */
    private long[] values = NO_VALUES;
    private TreeMap<NodeId, Long> sparse;

    /** Whether {@code id} has a value. */
    public boolean containsKey(NodeId id) {
        return keys.contains(id);
    }

    /** The value of {@code id}, or {@code otherwise} if it has none. */
    public long getOrDefault(NodeId id, long otherwise) {
        if (!keys.contains(id)) {
            return otherwise;
        }
        long v = id.value();
        return v < NodeSet.DENSE ? values[(int) v] : sparse.get(id);
    }

    /** Sets the value of {@code id}. */
    public void put(NodeId id, long value) {
        long v = id.value();
        keys.add(id);
        if (v < NodeSet.DENSE) {
            if (v >= values.length) {
                values = Arrays.copyOf(values, Math.max((int) v + 1, values.length * 2));
            }
            values[(int) v] = value;
        } else {
            if (sparse == null) {
                sparse = new TreeMap<>();
            }
            sparse.put(id, value);
        }
    }

    /** {@code put(id, max(old, value))}, or {@code put(id, value)} if {@code id} has no value. */
    public void mergeMax(NodeId id, long value) {
        put(id, keys.contains(id) ? Math.max(getOrDefault(id, value), value) : value);
    }

    /** Removes the entry of {@code id}, if any. */
    public void remove(NodeId id) {
        if (keys.remove(id) && sparse != null) {
            sparse.remove(id);
        }
    }

    /** Removes the entry of every id that {@code filter} accepts. */
    public void removeKeysIf(Predicate<NodeId> filter) {
        keys.removeIf(filter);
        if (sparse != null) {
            sparse.keySet().removeIf(filter);
        }
    }

    /** Removes every entry. */
    public void clear() {
        keys.clear();
        if (sparse != null) {
            sparse.clear();
        }
    }

    public boolean isEmpty() {
        return keys.isEmpty();
    }

    public int size() {
        return keys.size();
    }

    /** Calls {@code action} for each entry, in ascending id order. */
    public void forEach(EntryConsumer action) {
        for (NodeId id : keys) {
            action.accept(id, getOrDefault(id, 0));
        }
    }

    /** A sorted copy. */
    public TreeMap<NodeId, Long> toSortedMap() {
        TreeMap<NodeId, Long> copy = new TreeMap<>();
        forEach(copy::put);
        return copy;
    }

    @Override
    public String toString() {
        return toSortedMap().toString();
    }
}
