package io.dlock.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.NodeId;
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

    /** Without an announcement, the last node of a 2-node cluster holds no majority; with one, it does. */
    @Test
    void announcedLeave_isNotCountedAgainstTheMajority() {
        PrimaryComponent silent = new PrimaryComponent();
        silent.accept(view(1, 1, 2));
        assertFalse(silent.accept(view(2, 1)), "a vanished member counts as a failure");

        PrimaryComponent told = new PrimaryComponent();
        told.accept(view(1, 1, 2, 3));
        told.departing(NodeId.of(3));
        assertTrue(told.accept(view(2, 1, 2)));
        told.departing(NodeId.of(2));
        assertTrue(told.accept(view(3, 1)), "shut down one by one, down to the last node");
        assertEquals(List.of(NodeId.of(1)), told.lastPrimary().members());
    }

    /** An announced member still in the view counts; a departure counts only once a view drops it. */
    @Test
    void announcedLeave_countsOnlyOnceTheViewDropsTheMember() {
        PrimaryComponent pc = new PrimaryComponent();
        pc.accept(view(1, 1, 2, 3, 4));
        pc.departing(NodeId.of(4));
        // 3 and 4 vanish, only 4 announced: {1,2} of the reference {1,2,3} is a majority
        assertTrue(pc.accept(view(2, 1, 2)));
        pc.departing(NodeId.of(1));
        // 1 announced but is still in the view; 2 vanished without a word: {1} of {1,2} is no majority
        assertFalse(pc.accept(view(3, 1)));
    }

    /**
     * Two sides of a split cannot both be primary even if they heard of different clean leaves: the
     * departed members are in neither side.
     */
    @Test
    void announcedLeaves_neverMakeBothSidesPrimary() {
        PrimaryComponent a = new PrimaryComponent();
        PrimaryComponent b = new PrimaryComponent();
        View all = view(1, 1, 2, 3, 4, 5);
        a.accept(all);
        b.accept(all);
        a.departing(NodeId.of(5)); // only side a heard that 5 left
        boolean aPrimary = a.accept(view(2, 1, 2));
        boolean bPrimary = b.accept(view(2, 3, 4));
        assertFalse(aPrimary && bPrimary);
        assertFalse(aPrimary, "{1,2} of {1,2,3,4} is a tie");
        assertFalse(bPrimary, "{3,4} of {1,2,3,4,5} is no majority");
    }

    /**
     * With a configured size, two groups that started together and did not find each other are never
     * both primary: a singleton or a pair of five is not, the three are; the merge is primary everywhere.
     */
    @Test
    void configuredSize_nodesThatStartApartAreNotPrimaryUntilAMajorityOfNHasJoined() {
        PrimaryComponent alone = new PrimaryComponent(5);
        PrimaryComponent pair = new PrimaryComponent(5);
        PrimaryComponent three = new PrimaryComponent(5);
        assertFalse(alone.accept(view(0, 9)));
        assertFalse(pair.accept(view(1, 1, 2)));
        assertTrue(three.accept(view(1, 3, 4, 5)));
        assertEquals("1 member(s), 3 of dlock.cluster.size=5 needed", alone.whyNotPrimary());
        assertEquals("", three.whyNotPrimary());
        for (PrimaryComponent pc : List.of(alone, pair, three)) {
            assertTrue(pc.accept(view(4, 1, 2, 3, 4, 5, 9)), pc.toString());
        }
    }

    /** Without a size, the same start gives two primary components: the risk docs/operations.md names. */
    @Test
    void noConfiguredSize_twoNodesThatStartApartAreBothPrimary() {
        assertTrue(new PrimaryComponent().accept(view(0, 1)));
        assertTrue(new PrimaryComponent().accept(view(0, 2)));
    }

    /**
     * With a configured size the node's history is not consulted: a node that lost its lineage (its last
     * primary view's members crashed and came back with new ids) is primary again as soon as a majority
     * of n is there; the history rule would keep it out for good.
     */
    @Test
    void configuredSize_restartedMembersWithNewIdsCountLikeTheOnesTheyReplace() {
        PrimaryComponent sized = new PrimaryComponent(3);
        PrimaryComponent history = new PrimaryComponent();
        for (PrimaryComponent pc : List.of(sized, history)) {
            pc.accept(view(1, 1, 2, 3));
            pc.accept(view(2, 1, 2));
            assertFalse(pc.accept(view(3, 1)));
        }
        assertTrue(sized.accept(view(4, 1, 20, 30)));
        assertFalse(history.accept(view(4, 1, 20, 30)));
    }

    /** With a configured size, a 2|1 split of 3 and a tie of 4 behave as majorities of n. */
    @Test
    void configuredSize_splitsCountAgainstN() {
        PrimaryComponent pc = new PrimaryComponent(3);
        assertTrue(pc.accept(view(1, 1, 2, 3)));
        assertTrue(pc.accept(view(2, 1, 2)));
        assertFalse(pc.accept(view(3, 1)));
        PrimaryComponent four = new PrimaryComponent(4);
        assertFalse(four.accept(view(1, 1, 2)));
        assertEquals(3, four.quorum());
        assertTrue(four.accept(view(2, 1, 2, 3)));
    }

    /** A size below 1 is refused with the value. */
    @Test
    void configuredSize_belowOneIsRefused() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new PrimaryComponent(0));
        assertTrue(e.getMessage().contains("got 0"), e.getMessage());
    }
}
