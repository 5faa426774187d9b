package io.dlock.mutex.common;

import io.dlock.NodeId;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * A map from node ids to longs, iterated in ascending id order: one array of (id, value) pairs sorted by id and
 * searched by bisection ({@link SortedLongRecords} of width 2), null while the map is empty. Small or large ids
 * (on JGroups ids are random 32-bit numbers unless configured) cost the same: 16 bytes for the map, plus
 * {@code 16 + 8 (1 + 2 capacity)} for the array while it holds an entry. A cluster has tens of members, so this
 * beats a {@code TreeMap<NodeId, Long>} (about 60 bytes per entry) in space and stays fast enough for the
 * simulator's thousand-node runs; it iterates in the same order.
 *
 * <p>Not thread-safe: owned by one protocol instance and used only from its event loop. Not to be changed while
 * it is being iterated.
 */
public final class NodeLongMap {

    /** Receives one entry. */
    @FunctionalInterface
    public interface EntryConsumer {
        /** One entry of the map. */
        void accept(NodeId id, long value);
    }

    /** Longs per entry: the id, then the value. */
    private static final int WIDTH = 2;
    private static final int VALUE = 1;

    /** The entries, in {@link SortedLongRecords} of width 2; null if none. */
    private long[] entries;

    /** Whether {@code id} has a value. */
    public boolean containsKey(NodeId id) {
        return SortedLongRecords.find(entries, WIDTH, id.value()) >= 0;
    }

    /** The value of {@code id}, or {@code otherwise} if it has none. */
    public long getOrDefault(NodeId id, long otherwise) {
        int at = SortedLongRecords.find(entries, WIDTH, id.value());
        return at >= 0 ? SortedLongRecords.field(entries, WIDTH, at, VALUE) : otherwise;
    }

    /** Sets the value of {@code id}. */
    public void put(NodeId id, long value) {
        int at = slotOf(id); // may replace the array
        SortedLongRecords.setField(entries, WIDTH, at, VALUE, value);
    }

    /** {@code put(id, max(old, value))}, or {@code put(id, value)} if {@code id} has no value. */
    public void mergeMax(NodeId id, long value) {
        int at = SortedLongRecords.find(entries, WIDTH, id.value());
        if (at >= 0) {
            long old = SortedLongRecords.field(entries, WIDTH, at, VALUE);
            SortedLongRecords.setField(entries, WIDTH, at, VALUE, Math.max(old, value));
        } else {
            put(id, value);
        }
    }

    /**
     * For a map of non-negative values read with a default of 0 ({@code getOrDefault(id, 0)}): {@code mergeMax(id,
     * value)} if {@code value > 0}, else nothing. An id absent from the map reads as 0 anyway, so this keeps no
     * entry for a member that only said it never asked (what {@code mergeMax} would store).
     */
    public void raise(NodeId id, long value) {
        if (value > 0) {
            mergeMax(id, value);
        }
    }

    /** The index of the entry of {@code id}, made (with value 0) if it has none. */
    private int slotOf(NodeId id) {
        long key = id.value();
        int at = SortedLongRecords.find(entries, WIDTH, key);
        if (at >= 0) {
            return at;
        }
        entries = SortedLongRecords.insert(entries, WIDTH, -at - 1, key);
        return -at - 1;
    }

    /** Removes the entry of {@code id}, if any. */
    public void remove(NodeId id) {
        int at = SortedLongRecords.find(entries, WIDTH, id.value());
        if (at >= 0) {
            entries = SortedLongRecords.delete(entries, WIDTH, at);
        }
    }

    /** Removes the entry of every id that {@code filter} accepts. */
    public void removeKeysIf(Predicate<NodeId> filter) {
        if (entries != null) {
            entries = SortedLongRecords.removeIf(entries, WIDTH, v -> filter.test(NodeId.of(v)));
        }
    }

    /** Removes every entry. */
    public void clear() {
        entries = null;
    }

    public boolean isEmpty() {
        return entries == null;
    }

    public int size() {
        return SortedLongRecords.count(entries);
    }

    /** Calls {@code action} for each entry, in ascending id order. */
    public void forEach(EntryConsumer action) {
        long[] a = entries;
        int n = SortedLongRecords.count(a);
        for (int i = 0; i < n; i++) {
            action.accept(NodeId.of(SortedLongRecords.key(a, WIDTH, i)), SortedLongRecords.field(a, WIDTH, i, VALUE));
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
