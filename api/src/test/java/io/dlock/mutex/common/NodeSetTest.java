package io.dlock.mutex.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.NodeId;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@link NodeSet} and {@link NodeLongMap} behave as a {@code TreeSet<NodeId>} and a {@code TreeMap<NodeId, Long>}. */
class NodeSetTest {

    /** Random operations on ids below and above the bitmap's range, checked against the tree collections. */
    @Test
    void matchTheTreeCollections() {
        SplittableRandom random = new SplittableRandom(7);
        NodeSet set = new NodeSet();
        TreeSet<NodeId> treeSet = new TreeSet<>();
        NodeLongMap map = new NodeLongMap();
        TreeMap<NodeId, Long> treeMap = new TreeMap<>();
        for (int step = 0; step < 20_000; step++) {
            NodeId id = NodeId.of(random.nextInt(4) == 0 ? NodeSet.DENSE - 50 + random.nextInt(100) : random.nextInt(300));
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
                    long cut = random.nextInt(NodeSet.DENSE + 60);
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
            }
        }
        assertFalse(set.isEmpty() && !treeSet.isEmpty());
        assertTrue(set.size() == treeSet.size());
    }
}
