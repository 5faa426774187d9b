package io.dlock.mutex.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Rendezvous hashing of lock names over a view: fixed values, spread over the members, minimal movement. */
class RendezvousHashTest {

    private static final int NAMES = 10_000;

    private static View view(long... ids) {
        List<NodeId> members = new ArrayList<>();
        for (long id : ids) {
            members.add(NodeId.of(id));
        }
        return new View(1, members);
    }

    /**
     * The hash is defined by the class comment alone, not by the JVM: these values were computed by an
     * independent implementation of that definition (FNV-1a over UTF-8, MurmurHash3's fmix64), so a change of
     * the function, or of a JVM's string or byte handling, fails here before members disagree on an owner.
     */
    @Test
    void valuesAreFixedByTheDefinition() {
        assertEquals(4303134797358362513L, RendezvousHash.nameHash("lock"));
        assertEquals(1655705618346446831L, RendezvousHash.nameHash("orders/42"));
        assertEquals(3452012281446919422L, RendezvousHash.nameHash("schlüssel-é"), "UTF-8 bytes, not chars");
        long lock = RendezvousHash.nameHash("lock");
        assertEquals(384157994977863753L, RendezvousHash.weight(lock, NodeId.of(0)));
        assertEquals(8626719235863269899L, RendezvousHash.weight(lock, NodeId.of(1)));
        assertEquals(-8505729949516665772L, RendezvousHash.weight(lock, NodeId.of(2)), "compared unsigned: the highest");
        assertEquals(-6647723588359587423L, RendezvousHash.weight(RendezvousHash.nameHash("orders/42"), NodeId.of(7)));
        assertEquals(NodeId.of(2), RendezvousHash.owner("lock", View.ofRange(1, 3)));
    }

    /** The owner depends only on the name and the members: the same on every call, whatever the epoch. */
    @Test
    void ownerIsStable() {
        View a = view(3, 8, 21);
        View b = new View(99, List.of(NodeId.of(21), NodeId.of(3), NodeId.of(8)));
        for (int i = 0; i < 1000; i++) {
            String name = "key-" + i;
            NodeId owner = RendezvousHash.owner(name, a);
            assertEquals(owner, RendezvousHash.owner(name, a));
            assertEquals(owner, RendezvousHash.owner(name, b));
            assertEquals(owner, RendezvousHash.owner(new String(name.toCharArray()), a));
        }
    }

    /** 10 000 names over 3 and 5 members: each member owns its 1/N within 5 % of 1/N, also for sparse ids. */
    @Test
    void namesSpreadEvenlyOverTheMembers() {
        for (View v : List.of(View.ofRange(1, 3), View.ofRange(1, 5), view(17, 42, 99, 1000, 123456), view(1, 2, 3))) {
            Map<NodeId, Integer> owned = owners(v);
            assertEquals(v.size(), owned.size(), "every member owns names: " + owned);
            double fair = (double) NAMES / v.size();
            for (Map.Entry<NodeId, Integer> e : owned.entrySet()) {
                assertTrue(Math.abs(e.getValue() - fair) <= 0.05 * fair,
                        v.members() + ": " + e.getKey() + " owns " + e.getValue() + " of " + NAMES + " " + owned);
            }
        }
    }

    /**
     * When a member leaves, only the names it owned move; when one joins, names move only to it (about 1/N of
     * them).
     */
    @Test
    void onlyTheNamesOfTheMemberThatLeavesOrJoinsMove() {
        View five = View.ofRange(1, 5);
        for (long leaver = 0; leaver < 5; leaver++) {
            List<NodeId> rest = new ArrayList<>(five.members());
            rest.remove(NodeId.of(leaver));
            View four = new View(2, rest);
            int moved = 0;
            for (int i = 0; i < NAMES; i++) {
                String name = "key-" + i;
                NodeId before = RendezvousHash.owner(name, five);
                NodeId after = RendezvousHash.owner(name, four);
                if (!before.equals(after)) {
                    assertEquals(NodeId.of(leaver), before, name + " moved though its owner stayed");
                    moved++;
                }
            }
            assertEquals(owners(five).get(NodeId.of(leaver)), moved);
        }
        View six = View.ofRange(2, 6);
        int joined = 0;
        for (int i = 0; i < NAMES; i++) {
            String name = "key-" + i;
            NodeId after = RendezvousHash.owner(name, six);
            if (!after.equals(RendezvousHash.owner(name, five))) {
                assertEquals(NodeId.of(5), after, name + " moved to a member that did not join");
                joined++;
            }
        }
        assertTrue(Math.abs(joined - NAMES / 6.0) <= 0.05 * NAMES / 6.0, joined + " names moved to the joiner");
    }

    private static Map<NodeId, Integer> owners(View v) {
        Map<NodeId, Integer> owned = new TreeMap<>();
        for (int i = 0; i < NAMES; i++) {
            owned.merge(RendezvousHash.owner("key-" + i, v), 1, Integer::sum);
        }
        return owned;
    }
}
