package io.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ClusterView: members sorted and unmodifiable, bad views refused with the bad value named. */
class ClusterViewTest {

    /** Members are stored sorted by id, whatever order they came in, and cannot be changed afterwards. */
    @Test
    void membersAreSortedAndUnmodifiable() {
        ClusterView v = new ClusterView(3, List.of(NodeId.of(7), NodeId.of(2), NodeId.of(5)), true, NodeId.of(5));
        assertEquals(List.of(NodeId.of(2), NodeId.of(5), NodeId.of(7)), v.members());
        assertEquals(3, v.size());
        assertTrue(v.contains(NodeId.of(7)));
        assertFalse(v.contains(NodeId.of(4)));
        assertThrows(UnsupportedOperationException.class, () -> v.members().add(NodeId.of(9)));
    }

    /** The members are copied: changing the caller's list later does not change the view. */
    @Test
    void membersAreCopied() {
        List<NodeId> members = new ArrayList<>(List.of(NodeId.of(1), NodeId.of(2)));
        ClusterView v = new ClusterView(0, members, false, NodeId.of(1));
        members.add(NodeId.of(3));
        assertEquals(2, v.size());
        assertFalse(v.primary());
        assertEquals(NodeId.of(1), v.self());
    }

    /** A negative epoch, no members or a duplicate member is refused, naming the value. */
    @Test
    void badViewsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ClusterView(-1, List.of(NodeId.of(1)), true, NodeId.of(1)));
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ClusterView(0, List.of(), true, NodeId.of(1)));
        e = assertThrows(IllegalArgumentException.class,
                () -> new ClusterView(0, List.of(NodeId.of(1), NodeId.of(1)), true, NodeId.of(1)));
        assertTrue(e.getMessage().contains("duplicate"), e.getMessage());
        assertThrows(NullPointerException.class, () -> new ClusterView(0, List.of(NodeId.of(1)), true, null));
    }
}
