package io.dlock.mutex.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The roster shared by the census, the barrier and Centralized's sync: who still owes, the first-event step, the epoch. */
class EpochRosterTest {

    private static final NodeId N0 = NodeId.of(0);
    private static final NodeId N1 = NodeId.of(1);
    private static final NodeId N2 = NodeId.of(2);

    /** Nothing is owed until the owner expects the others; then every other member owes once. */
    @Test
    void everyOtherMemberOwesOnce() {
        EpochRoster r = new EpochRoster(N1, View.ofRange(2, 3));
        assertTrue(r.isComplete(), "nothing collected yet");
        r.expectOthers();
        assertEquals(Set.of(N0, N2), r.owed());
        assertEquals(List.of(N0, N2), List.copyOf(r.owed()), "ascending");
        assertFalse(r.record(N1), "self never owes");
        assertTrue(r.record(N2));
        assertFalse(r.record(N2), "a duplicate");
        assertFalse(r.isComplete());
        assertTrue(r.record(N0));
        assertTrue(r.isComplete());
    }

    /** A new view forgets what was owed and the first-event step, and moves the epoch. */
    @Test
    void enteringAViewResets() {
        EpochRoster r = new EpochRoster(N0, View.ofRange(1, 3));
        r.expectOthers();
        r.setFirstEventDue(true);
        assertTrue(r.isCurrent(1));
        r.enter(View.ofRange(2, 2));
        assertTrue(r.isComplete());
        assertFalse(r.firstEventDue());
        assertTrue(r.isCurrent(2));
        assertFalse(r.isCurrent(1), "a message of the old epoch");
        r.expectOthers();
        assertEquals(Set.of(N1), r.owed(), "the new view's members");
    }

    /** The first-event step is taken once. */
    @Test
    void firstEventStepIsTakenOnce() {
        EpochRoster r = new EpochRoster(N0, View.ofRange(1, 3));
        assertFalse(r.takeFirstEventDue());
        r.setFirstEventDue(true);
        assertTrue(r.firstEventDue());
        assertTrue(r.takeFirstEventDue());
        assertFalse(r.takeFirstEventDue());
        assertFalse(r.firstEventDue());
    }

    /** Clearing ends a collection; a member alone owes nothing; a collection can start again after either. */
    @Test
    void clearingAndCollectingAgain() {
        EpochRoster r = new EpochRoster(N0, View.ofRange(1, 3));
        r.expectOthers();
        r.clear();
        assertTrue(r.isComplete());
        assertEquals(Set.of(), r.owed());
        assertFalse(r.record(N1), "nothing is collected any more");
        r.expectOthers();
        assertTrue(r.record(N1));
        assertTrue(r.record(N2));
        assertTrue(r.isComplete());
        r.expectOthers();
        assertEquals(Set.of(N1, N2), r.owed(), "the next collection starts afresh");

        EpochRoster alone = new EpochRoster(N0, View.ofRange(1, 1));
        alone.expectOthers();
        assertTrue(alone.isComplete());
        assertEquals("complete", alone.toString());
    }
}
