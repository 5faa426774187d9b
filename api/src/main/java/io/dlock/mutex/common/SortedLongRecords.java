package io.dlock.mutex.common;

import java.util.Arrays;
import java.util.function.LongPredicate;

/**
 * The storage of {@link NodeSet}'s large ids and of {@link NodeLongMap}'s entries: one {@code long[]} that holds a
 * count {@code n} in slot 0, then {@code n} records of {@code width} longs each, sorted by their first long (the
 * key, a node id, unique); slots past the last record are spare capacity. {@code null} is the empty array.
 *
 * <p>A cluster has tens of members, so a binary search and an {@link System#arraycopy} per insertion beat a tree
 * (one 40-byte entry per id) or a hash table in space, and stay fast enough for the simulator's thousand-node
 * runs. The count lives in the array so that its owner needs no field for it.
 *
 * <p>Static functions over such arrays; no instance.
 */
final class SortedLongRecords {

    /** Records of a new array; it doubles when full (many sets and maps hold one id). */
    private static final int INITIAL_RECORDS = 1;

    private SortedLongRecords() {
    }

    /** The number of records in {@code a}. */
    static int count(long[] a) {
        return a == null ? 0 : (int) a[0];
    }

    /** The key of record {@code i}. */
    static long key(long[] a, int width, int i) {
        return a[1 + i * width];
    }

    /** Slot {@code field} (0 = the key) of record {@code i}. */
    static long field(long[] a, int width, int i, int field) {
        return a[1 + i * width + field];
    }

    /** Sets slot {@code field} (not the key) of record {@code i}. */
    static void setField(long[] a, int width, int i, int field, long value) {
        a[1 + i * width + field] = value;
    }

    /**
     * The index of the record whose key is {@code key}, or {@code -(insertion index) - 1} if there is none (the
     * convention of {@link Arrays#binarySearch(long[], long)}).
     */
    static int find(long[] a, int width, long key) {
        int low = 0;
        int high = count(a) - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            long k = key(a, width, mid);
            if (k < key) {
                low = mid + 1;
            } else if (k > key) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -(low + 1);
    }

    /**
     * Inserts a record with {@code key} at index {@code at} (an insertion index from {@link #find}); its other
     * slots are 0.
     *
     * @return the array holding the records now ({@code a}, or a larger copy)
     */
    static long[] insert(long[] a, int width, int at, long key) {
        int n = count(a);
        long[] out = a;
        int needed = 1 + (n + 1) * width;
        if (a == null) {
            out = new long[1 + INITIAL_RECORDS * width];
        } else if (needed > a.length) {
            out = Arrays.copyOf(a, 1 + 2 * n * width);
        }
        int from = 1 + at * width;
        System.arraycopy(out, from, out, from + width, (n - at) * width);
        Arrays.fill(out, from + 1, from + width, 0L);
        out[from] = key;
        out[0] = n + 1;
        return out;
    }

    /**
     * Removes record {@code at}.
     *
     * @return the array holding the records now: {@code a}, or null if none is left
     */
    static long[] delete(long[] a, int width, int at) {
        int n = count(a);
        int from = 1 + at * width;
        System.arraycopy(a, from + width, a, from, (n - at - 1) * width);
        a[0] = n - 1;
        return n == 1 ? null : a;
    }

    /**
     * Removes every record whose key {@code remove} accepts, keeping the others in order.
     *
     * @return the array holding the records now: {@code a}, or null if none is left
     */
    static long[] removeIf(long[] a, int width, LongPredicate remove) {
        int n = count(a);
        int kept = 0;
        for (int i = 0; i < n; i++) {
            if (!remove.test(key(a, width, i))) {
                if (kept != i) {
                    System.arraycopy(a, 1 + i * width, a, 1 + kept * width, width);
                }
                kept++;
            }
        }
        if (kept == 0) {
            return null;
        }
        a[0] = kept;
        return a;
    }
}
