package io.dlock.mutex.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.NodeId;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@link NodeSet} and {@link NodeLongMap} behave as a {@code TreeSet<NodeId>} and a {@code TreeMap<NodeId, Long>}. */
class NodeSetTest {

    /** Random operations on ids around the inline word's bound (64) and above 4 096, checked against the trees. */
    @Test
    void matchTheTreeCollections() {
        SplittableRandom random = new SplittableRandom(7);
        matchTheTreeCollections(random, () -> random.nextInt(4) == 0 ? 4_096 - 50 + random.nextInt(100)
                : random.nextInt(4) == 0 ? NodeSet.INLINE - 8 + random.nextInt(16) : random.nextInt(300));
    }

    /** Ids 1..3, as in a three-node test cluster: everything inline. */
    @Test
    void smallIdsMatchTheTreeCollections() {
        SplittableRandom random = new SplittableRandom(11);
        matchTheTreeCollections(random, () -> 1 + random.nextInt(3));
    }

    /** Random 32-bit ids (JGroups' default), a few tens of them, some small ones mixed in. */
    @Test
    void random32BitIdsMatchTheTreeCollections() {
        SplittableRandom random = new SplittableRandom(13);
        long[] members = new long[40];
        for (int i = 0; i < members.length; i++) {
            members[i] = i < 3 ? i : random.nextLong(1L << 32);
        }
        matchTheTreeCollections(random, () -> members[random.nextInt(members.length)]);
    }

    /** The largest ids there are. */
    @Test
    void hugeIdsMatchTheTreeCollections() {
        SplittableRandom random = new SplittableRandom(17);
        matchTheTreeCollections(random, () -> random.nextInt(2) == 0 ? Long.MAX_VALUE - random.nextInt(20)
                : random.nextLong(Long.MAX_VALUE));
    }

    private static void matchTheTreeCollections(SplittableRandom random, java.util.function.LongSupplier ids) {
        NodeSet set = new NodeSet();
        TreeSet<NodeId> treeSet = new TreeSet<>();
        NodeLongMap map = new NodeLongMap();
        TreeMap<NodeId, Long> treeMap = new TreeMap<>();
        for (int step = 0; step < 20_000; step++) {
            NodeId id = NodeId.of(ids.getAsLong());
            long value = random.nextLong(1, 1_000);
            switch (random.nextInt(6)) {
                case 0, 1 -> {
                    assertEquals(treeSet.add(id), set.add(id));
                    map.mergeMax(id, value);
                    treeMap.merge(id, value, Math::max);
                }
                case 2 -> {
                    assertEquals(treeSet.remove(id), set.remove(id));
                    map.remove(id);
                    treeMap.remove(id);
                }
                case 3 -> {
                    map.put(id, value);
                    treeMap.put(id, value);
                }
                case 4 -> {
                    long cut = ids.getAsLong();
                    set.removeIf(n -> n.value() % 3 == cut % 3 && n.value() > cut);
                    treeSet.removeIf(n -> n.value() % 3 == cut % 3 && n.value() > cut);
                    map.removeKeysIf(n -> n.value() % 5 == cut % 5);
                    treeMap.keySet().removeIf(n -> n.value() % 5 == cut % 5);
                }
                default -> {
                    if (random.nextInt(50) == 0) {
                        set.clear();
                        treeSet.clear();
                        map.clear();
                        treeMap.clear();
                    }
                }
            }
            assertEquals(treeSet.contains(id), set.contains(id));
            assertEquals(treeMap.containsKey(id), map.containsKey(id));
            assertEquals(treeMap.getOrDefault(id, -1L), map.getOrDefault(id, -1L));
            assertEquals(treeSet.size(), set.size());
            assertEquals(treeMap.size(), map.size());
            assertEquals(treeSet.isEmpty(), set.isEmpty());
            assertEquals(treeMap.isEmpty(), map.isEmpty());
            if (!treeSet.isEmpty()) {
                assertEquals(treeSet.first(), set.first());
            }
            if (step % 100 == 0) {
                List<NodeId> order = new ArrayList<>();
                set.forEach(order::add);
                assertEquals(new ArrayList<>(treeSet), order);
                assertEquals(treeSet.toString(), set.toString());
                TreeMap<NodeId, Long> visited = new TreeMap<>();
                List<NodeId> keys = new ArrayList<>();
                map.forEach((k, v) -> {
                    keys.add(k);
                    visited.put(k, v);
                });
                assertEquals(new ArrayList<>(treeMap.keySet()), keys);
                assertEquals(treeMap, visited);
                assertEquals(treeMap.toString(), map.toString());
                assertEquals(treeMap, map.toSortedMap());
                assertEquals(treeSet, set.toSortedSet());
            }
        }
        assertFalse(set.isEmpty() && !treeSet.isEmpty());
        assertTrue(set.size() == treeSet.size());
    }

    /** An empty set has no first id, its iterator nothing; an emptied one is like a new one. */
    @Test
    void emptySets() {
        NodeSet set = new NodeSet();
        assertThrows(NoSuchElementException.class, set::first);
        set.add(NodeId.of(5_000_000_000L));
        set.add(NodeId.of(3));
        Iterator<NodeId> it = set.iterator();
        assertEquals(NodeId.of(3), it.next());
        assertEquals(NodeId.of(5_000_000_000L), it.next());
        assertFalse(it.hasNext());
        assertThrows(NoSuchElementException.class, it::next);
        set.remove(NodeId.of(5_000_000_000L));
        set.remove(NodeId.of(3));
        assertTrue(set.isEmpty());
        assertEquals(0, set.size());
        assertFalse(set.iterator().hasNext());
        assertEquals("[]", set.toString());
        NodeLongMap map = new NodeLongMap();
        map.put(NodeId.of(70_000), 9);
        map.remove(NodeId.of(70_000));
        assertTrue(map.isEmpty());
        assertEquals("{}", map.toString());
    }

    /** {@code raise} is {@code mergeMax} for a value above 0, and stores nothing otherwise. */
    @Test
    void raiseKeepsNoEntryForZero() {
        NodeLongMap map = new NodeLongMap();
        map.raise(NodeId.of(1), 0);
        map.raise(NodeId.of(5_000_000_000L), 0);
        assertTrue(map.isEmpty());
        map.raise(NodeId.of(5_000_000_000L), 7);
        map.raise(NodeId.of(5_000_000_000L), 3);
        map.raise(NodeId.of(5_000_000_000L), 0);
        assertEquals(7, map.getOrDefault(NodeId.of(5_000_000_000L), 0));
        assertEquals(0, map.getOrDefault(NodeId.of(1), 0));
        assertEquals(1, map.size());
    }
}
