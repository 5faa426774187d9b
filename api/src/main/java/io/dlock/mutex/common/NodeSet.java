package io.dlock.mutex.common;

import io.dlock.NodeId;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * A set of node ids, iterated in ascending order: ids below {@value #INLINE} are the bits of one {@code long}
 * field (no array at all for a small cluster whose ids are 0, 1, 2, ...), any larger id (on JGroups ids are random
 * 32-bit numbers unless configured) in a sorted array searched by bisection ({@link SortedLongRecords}, one
 * {@code long} per id, null while there is none). Every inline id is smaller than every id of the array, so
 * iterating the bits and then the array is ascending order: the same order, and so the same behaviour, as a
 * {@code TreeSet<NodeId>}. A set is 24 bytes, plus {@code 16 + 8 (1 + capacity)} for the array once it holds a
 * large id; {@link #clear()} and the last removal drop the array.
 *
 * <p>Not thread-safe: owned by one protocol instance and used only from its event loop. Not to be changed while
 * it is being iterated.
 */
public final class NodeSet implements Iterable<NodeId> {

    /** Ids below this are bits of {@link #low}. */
    static final int INLINE = Long.SIZE;

    /** Bit {@code i} is set iff id {@code i < INLINE} is in the set. */
    private long low;
    /** The ids from {@link #INLINE} up, in {@link SortedLongRecords} of width 1; null if none. */
    private long[] high;

    /** Adds {@code id}; false if it was there. */
    public boolean add(NodeId id) {
        long v = id.value();
        if (v < INLINE) {
            long before = low;
            low |= 1L << v;
            return low != before;
        }
        int at = SortedLongRecords.find(high, 1, v);
        if (at >= 0) {
            return false;
        }
        high = SortedLongRecords.insert(high, 1, -at - 1, v);
        return true;
    }

    /** Whether {@code id} is in the set. */
    public boolean contains(NodeId id) {
        long v = id.value();
        if (v < INLINE) {
            return (low & (1L << v)) != 0;
        }
        return SortedLongRecords.find(high, 1, v) >= 0;
    }

    /** Removes {@code id}; false if it was not there. */
    public boolean remove(NodeId id) {
        long v = id.value();
        if (v < INLINE) {
            long before = low;
            low &= ~(1L << v);
            return low != before;
        }
        int at = SortedLongRecords.find(high, 1, v);
        if (at < 0) {
            return false;
        }
        high = SortedLongRecords.delete(high, 1, at);
        return true;
    }

    /** Removes every id that {@code filter} accepts. */
    public void removeIf(Predicate<NodeId> filter) {
        long word = low;
        while (word != 0) {
            int b = Long.numberOfTrailingZeros(word);
            word &= word - 1;
            if (filter.test(NodeId.of(b))) {
                low &= ~(1L << b);
            }
        }
        if (high != null) {
            high = SortedLongRecords.removeIf(high, 1, v -> filter.test(NodeId.of(v)));
        }
    }

    /** Empties the set. */
    public void clear() {
        low = 0;
        high = null;
    }

    public int size() {
        return Long.bitCount(low) + SortedLongRecords.count(high);
    }

    public boolean isEmpty() {
        return low == 0 && high == null;
    }

    /**
     * The lowest id.
     *
     * @throws NoSuchElementException if the set is empty
     */
    public NodeId first() {
        return iterator().next();
    }

    /** The ids in ascending order. */
    @Override
    public Iterator<NodeId> iterator() {
        return new Iterator<>() {
            /** The inline ids not yet returned. */
            private long pending = low;
            /** The index of the next large id. */
            private int next;

            @Override
            public boolean hasNext() {
                return pending != 0 || next < SortedLongRecords.count(high);
            }

            @Override
            public NodeId next() {
                if (pending != 0) {
                    int b = Long.numberOfTrailingZeros(pending);
                    pending &= pending - 1;
                    return NodeId.of(b);
                }
                if (next >= SortedLongRecords.count(high)) {
                    throw new NoSuchElementException();
                }
                return NodeId.of(SortedLongRecords.key(high, 1, next++));
            }
        };
    }

    /** A sorted copy. */
    public TreeSet<NodeId> toSortedSet() {
        TreeSet<NodeId> copy = new TreeSet<>();
        for (NodeId id : this) {
            copy.add(id);
        }
        return copy;
    }

    @Override
    public String toString() {
        return toSortedSet().toString();
    }
}
