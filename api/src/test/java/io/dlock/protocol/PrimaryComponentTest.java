package io.dlock.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.spi.NodeId;
import io.dlock.spi.View;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The majority rule of {@link PrimaryComponent}. */
class PrimaryComponentTest {

    private static View view(long epoch, long... ids) {
        return new View(epoch, LongStream.of(ids).mapToObj(NodeId::of).toList());
    }

    /** Join views one by one ({1}, {1,2}, {1,2,3}, ...) are all primary: each contains the last primary. */
    @Test
    void joinsOneByOneArePrimary() {
        PrimaryComponent pc = new PrimaryComponent();
        assertTrue(pc.accept(view(1, 1)));
        assertTrue(pc.accept(view(2, 1, 2)));
        assertTrue(pc.accept(view(3, 1, 2, 3)));
        assertTrue(pc.accept(view(4, 1, 2, 3, 4)));
        assertTrue(pc.isPrimary());
    }

    /** A split 3|2 of 5: the 3 side is primary, the 2 side is not; the merge is primary on both. */
    @Test
    void splitAndMerge() {
        PrimaryComponent majority = new PrimaryComponent();
        PrimaryComponent minority = new PrimaryComponent();
        View all = view(5, 1, 2, 3, 4, 5);
        assertTrue(majority.accept(all));
        assertTrue(minority.accept(all));
        assertTrue(majority.accept(view(6, 1, 2, 3)));
        assertFalse(minority.accept(view(6, 4, 5))); // same epoch number, other members: as JGroups may do
        assertEquals(all, minority.lastPrimary());
        assertTrue(majority.accept(view(7, 1, 2, 3, 4, 5)));
        assertTrue(minority.accept(view(7, 1, 2, 3, 4, 5)));
    }

    /** A tie (exactly half) is not a majority: neither side of a 2|2 split is primary. */
    @Test
    void tieIsNotPrimary() {
        PrimaryComponent a = new PrimaryComponent();
        a.accept(view(1, 1, 2, 3, 4));
        assertFalse(a.accept(view(2, 1, 2)));
        assertFalse(PrimaryComponent.isMajorityOf(view(2, 3, 4), view(1, 1, 2, 3, 4)));
    }

    /** The reference stays the last primary view: losing members one at a time keeps a majority each time. */
    @Test
    void successiveCrashes() {
        PrimaryComponent pc = new PrimaryComponent();
        pc.accept(view(1, 1, 2, 3, 4, 5));
        assertTrue(pc.accept(view(2, 1, 2, 3, 4)));
        assertTrue(pc.accept(view(3, 1, 2, 3)));
        assertTrue(pc.accept(view(4, 1, 2)));
        assertFalse(pc.accept(view(5, 1))); // 1 of 2 is a tie
        assertFalse(pc.accept(view(6, 1, 9))); // a newcomer does not make a majority of {1, 2}
        assertTrue(pc.accept(view(7, 1, 2, 9)));
    }

    /** A first view is adopted as primary (documented limit: a joiner that only sees a minority). */
    @Test
    void firstViewIsPrimary() {
        PrimaryComponent joiner = new PrimaryComponent();
        assertFalse(joiner.isPrimary());
        assertTrue(joiner.accept(view(9, 4, 5, 6)));
        assertEquals(List.of(NodeId.of(4), NodeId.of(5), NodeId.of(6)), joiner.lastPrimary().members());
    }

    /** A view not newer than the current one changes nothing. */
    @Test
    void olderViewIgnored() {
        PrimaryComponent pc = new PrimaryComponent();
        pc.accept(view(3, 1, 2, 3));
        assertTrue(pc.accept(view(3, 1)));
        assertTrue(pc.accept(view(2, 1)));
        assertEquals(3, pc.current().size());
    }
}
