package io.dlock.mutex.common;

import io.dlock.NodeId;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * A set of node ids, iterated in ascending order: ids below {@value #DENSE} in a bitmap (O(1) add and lookup,
 * one bit per id, so a thousand protocol instances of a thousand nodes each keep their sets in the caches), any
 * larger id in a sorted tree. Every id in the bitmap is smaller than every id in the tree, so iterating the
 * bitmap and then the tree is ascending order: the same order, and so the same behaviour, as a
 * {@code TreeSet<NodeId>}.
 *
 * <p>Not thread-safe: owned by one protocol instance and used only from its event loop.
 */
public final class NodeSet implements Iterable<NodeId> {

    /** Ids below this go to the bitmap. */
    static final int DENSE = 1 << 12;

    /** Shared by every empty set: a protocol instance keeps many sets, most of them empty most of the time. */
    private static final long[] NO_BITS = new long[0];

    /** Grown at the first add of a higher id; {@link #NO_BITS} until the first add. */
    private long[] bits = NO_BITS;
    private TreeSet<NodeId> sparse;
    private int size;

    /** Adds {@code id}; false if it was there. */
    public boolean add(NodeId id) {
        long v = id.value();
        if (v < DENSE) {
            int w = (int) v >>> 6;
            if (w >= bits.length) {
                bits = Arrays.copyOf(bits, Math.max(w + 1, bits.length * 2));
            }
            long mask = 1L << v;
            if ((bits[w] & mask) != 0) {
                return false;
            }
            bits[w] |= mask;
            size++;
            return true;
        }
        if (sparse == null) {
            sparse = new TreeSet<>();
        }
        if (sparse.add(id)) {
            size++;
            return true;
        }
        return false;
    }

    /** Whether {@code id} is in the set. */
    public boolean contains(NodeId id) {
        long v = id.value();
        if (v < DENSE) {
            int w = (int) v >>> 6;
            return w < bits.length && (bits[w] & (1L << v)) != 0;
        }
        return sparse != null && sparse.contains(id);
    }

    /** Removes {@code id}; false if it was not there. */
    public boolean remove(NodeId id) {
        long v = id.value();
        if (v < DENSE) {
            int w = (int) v >>> 6;
            long mask = 1L << v;
            if (w >= bits.length || (bits[w] & mask) == 0) {
                return false;
            }
            bits[w] &= ~mask;
            size--;
            return true;
        }
        if (sparse != null && sparse.remove(id)) {
            size--;
            return true;
        }
        return false;
    }

    /** Removes every id that {@code filter} accepts. */
    public void removeIf(Predicate<NodeId> filter) {
        for (int w = 0; w < bits.length; w++) {
            long word = bits[w];
            while (word != 0) {
                int b = Long.numberOfTrailingZeros(word);
                word &= word - 1;
                if (filter.test(NodeId.of(((long) w << 6) + b))) {
                    bits[w] &= ~(1L << b);
                    size--;
                }
            }
        }
        if (sparse != null) {
            int before = sparse.size();
            sparse.removeIf(filter);
            size -= before - sparse.size();
        }
    }

    /** Empties the set (keeping its bitmap's capacity). */
    public void clear() {
        if (size > 0) {
            Arrays.fill(bits, 0L);
            if (sparse != null) {
                sparse.clear();
            }
            size = 0;
        }
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
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
            private int word = -1;
            private long pending;
            private Iterator<NodeId> tail;

            @Override
            public boolean hasNext() {
                while (pending == 0) {
                    if (++word >= bits.length) {
                        if (tail == null) {
                            tail = sparse == null ? java.util.Collections.emptyIterator() : sparse.iterator();
                        }
                        word = bits.length;
                        return tail.hasNext();
                    }
                    pending = bits[word];
                }
                return true;
            }

            @Override
            public NodeId next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                if (pending == 0) {
                    return tail.next();
                }
                int b = Long.numberOfTrailingZeros(pending);
                pending &= pending - 1;
                return NodeId.of(((long) word << 6) + b);
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
