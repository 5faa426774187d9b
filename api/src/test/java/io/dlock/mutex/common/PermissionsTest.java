package io.dlock.mutex.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The set of members that answered the current request. */
class PermissionsTest {

    private static final NodeId SELF = NodeId.of(1);

    /** Complete exactly when every other member of the view has answered; the node itself never needs to. */
    @Test
    void completeWhenEveryOtherMemberAnswered() {
        Permissions p = new Permissions(SELF);
        View view = View.ofRange(0, 3);
        assertFalse(p.isCompleteFor(view));
        assertTrue(p.add(NodeId.of(0)));
        assertFalse(p.isCompleteFor(view));
        assertTrue(p.add(NodeId.of(2)));
        assertTrue(p.isCompleteFor(view));
        assertTrue(new Permissions(SELF).isCompleteFor(new View(0, List.of(SELF))));
    }

    /** A second answer from the same member, or one from the node itself, is not counted. */
    @Test
    void duplicatesAndSelfAreNotCounted() {
        Permissions p = new Permissions(SELF);
        assertTrue(p.add(NodeId.of(0)));
        assertFalse(p.add(NodeId.of(0)));
        assertFalse(p.add(SELF));
        assertEquals(1, p.size());
    }

    /** Missing members are listed ascending; answers of members that left are dropped. */
    @Test
    void missingAndRetain() {
        Permissions p = new Permissions(SELF);
        p.add(NodeId.of(4));
        p.add(NodeId.of(0));
        View view = new View(2, List.of(NodeId.of(0), SELF, NodeId.of(2), NodeId.of(3), NodeId.of(4)));
        assertEquals(List.of(NodeId.of(2), NodeId.of(3)), p.missingIn(view));
        p.retainMembersOf(new View(3, List.of(NodeId.of(0), SELF)));
        assertEquals(Set.of(NodeId.of(0)), p.members());
        p.clear();
        assertEquals(0, p.size());
    }
}
