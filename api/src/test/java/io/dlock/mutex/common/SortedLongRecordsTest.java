package io.dlock.mutex.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link SortedLongRecords}: records stay sorted by key with their fields, grow, and vanish when emptied. */
class SortedLongRecordsTest {

    @Test
    void insertFindDeleteKeepRecordsSortedWithTheirFields() {
        long[] a = null;
        long[] keys = {4_294_967_295L, 70, 1L << 40, 4_096, 65, Long.MAX_VALUE, 100_000};
        for (long key : keys) {
            int at = SortedLongRecords.find(a, 2, key);
            assertTrue(at < 0);
            a = SortedLongRecords.insert(a, 2, -at - 1, key);
            SortedLongRecords.setField(a, 2, -at - 1, 1, key + 1);
        }
        assertEquals(keys.length, SortedLongRecords.count(a));
        long previous = -1;
        for (int i = 0; i < keys.length; i++) {
            long key = SortedLongRecords.key(a, 2, i);
            assertTrue(key > previous);
            assertEquals(key + 1, SortedLongRecords.field(a, 2, i, 1));
            assertEquals(i, SortedLongRecords.find(a, 2, key));
            previous = key;
        }
        assertEquals(-1, SortedLongRecords.find(a, 2, 64));
        assertEquals(-(keys.length - 1) - 1, SortedLongRecords.find(a, 2, Long.MAX_VALUE - 1)); // before the last
        a = SortedLongRecords.removeIf(a, 2, k -> k % 2 == 1);
        assertEquals(4, SortedLongRecords.count(a));
        assertEquals(4_096, SortedLongRecords.key(a, 2, 1));
        assertEquals(4_097, SortedLongRecords.field(a, 2, 1, 1));
        while (a != null) {
            a = SortedLongRecords.delete(a, 2, 0);
        }
        assertEquals(0, SortedLongRecords.count(null));
        assertNull(SortedLongRecords.removeIf(SortedLongRecords.insert(null, 1, 0, 5), 1, k -> true));
    }
}
