package io.dlock.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.membership.EpochInbox.Verdict;
import io.dlock.NodeId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The epoch rule: older epochs dropped, newer ones held up to the bound and replayed in arrival order
 * on install, the current one delivered from admitted senders only, and the first unreadable message
 * the only one to log. The owner here is a list of what it was given and what it did with it.
 */
class EpochInboxTest {

    private static final NodeId A = NodeId.of(1);
    private static final NodeId B = NodeId.of(2);
    private static final NodeId C = NodeId.of(3);

    /** What the owner's receive path saw, as "message:verdict", in order. */
    private final List<String> seen = new ArrayList<>();
    private EpochInbox<String> inbox;

    /** The owner's entry point: offers the message and records the verdict (the replay comes back here too). */
    private void receive(NodeId from, long epoch, String message) {
        seen.add(message + ":" + inbox.offer(from, epoch, message));
    }

    private EpochInbox<String> inbox(int bound, long epoch, Set<NodeId> members) {
        inbox = new EpochInbox<>(bound, this::receive);
        inbox.install(epoch, members::contains);
        return inbox;
    }

    /** A message of an older epoch is dropped as stale, whoever sent it. */
    @Test
    void dropsOlderEpoch() {
        inbox(10, 5, Set.of(A, B));
        assertEquals(Verdict.STALE, inbox.offer(A, 4, "old"));
        assertEquals(Verdict.STALE, inbox.offer(C, 0, "older"));
        assertEquals(0, inbox.held());
    }

    /** In the current epoch, members are delivered and a non-member (the other side of a split) is stale. */
    @Test
    void deliversCurrentEpochFromMembersOnly() {
        inbox(10, 5, Set.of(A, B));
        assertEquals(Verdict.DELIVER, inbox.offer(A, 5, "m"));
        assertEquals(Verdict.STALE, inbox.offer(C, 5, "split"));
    }

    /** A view that admits nobody (not primary) delivers nothing of its epoch, but still holds newer ones. */
    @Test
    void viewAdmittingNobodyDropsItsEpoch() {
        inbox(10, 5, Set.of());
        assertEquals(Verdict.STALE, inbox.offer(A, 5, "m"));
        assertEquals(Verdict.HELD, inbox.offer(A, 6, "next"));
    }

    /** Newer epochs are held up to the bound; beyond it they are dropped as full, and nothing is held twice. */
    @Test
    void holdsNewerUpToTheBound() {
        inbox(2, 5, Set.of(A, B));
        assertEquals(Verdict.HELD, inbox.offer(A, 6, "a"));
        assertEquals(Verdict.HELD, inbox.offer(B, 7, "b"));
        assertEquals(Verdict.FULL, inbox.offer(A, 6, "c"));
        assertEquals(2, inbox.held());
        assertEquals(Verdict.DELIVER, inbox.offer(A, 5, "now"), "a full inbox still delivers the current epoch");
    }

    /** Bound 0 holds nothing: every newer message is dropped as full (the simulator's nodes). */
    @Test
    void boundZeroHoldsNothing() {
        inbox(0, 5, Set.of(A));
        assertEquals(Verdict.FULL, inbox.offer(A, 6, "a"));
        assertEquals(0, inbox.held());
        inbox.install(6, Set.of(A)::contains);
        assertEquals(List.of(), seen);
    }

    /**
     * On install, the held messages up to the new epoch come back in arrival order (across senders
     * and epochs) and are judged by the new view; newer ones stay held.
     */
    @Test
    void replaysInArrivalOrderOnInstall() {
        inbox(10, 5, Set.of(A, B));
        inbox.offer(B, 7, "b7");
        inbox.offer(A, 7, "a7");
        inbox.offer(C, 7, "c7");
        inbox.offer(A, 8, "a8");
        inbox.offer(B, 6, "b6");
        inbox.install(7, Set.of(A, B)::contains);
        assertEquals(List.of("b7:DELIVER", "a7:DELIVER", "c7:STALE", "b6:STALE"), seen);
        assertEquals(1, inbox.held());
        assertEquals(7, inbox.epoch());
        seen.clear();
        inbox.install(8, Set.of(A)::contains);
        assertEquals(List.of("a8:DELIVER"), seen);
        assertEquals(0, inbox.held());
    }

    /** Replayed messages leave the inbox, so room for newer ones frees up and nothing is replayed twice. */
    @Test
    void installFreesTheBound() {
        inbox(1, 5, Set.of(A));
        assertEquals(Verdict.HELD, inbox.offer(A, 6, "a"));
        assertEquals(Verdict.FULL, inbox.offer(A, 7, "b"));
        inbox.install(6, Set.of(A)::contains);
        assertEquals(Verdict.HELD, inbox.offer(A, 7, "c"));
        inbox.install(7, Set.of(A)::contains);
        assertEquals(List.of("a:DELIVER", "c:DELIVER"), seen);
    }

    /** Before the first install every message is newer, so it is held. */
    @Test
    void holdsEverythingBeforeTheFirstInstall() {
        inbox = new EpochInbox<>(10, this::receive);
        assertEquals(Verdict.HELD, inbox.offer(A, 1, "early"));
        inbox.install(1, Set.of(A)::contains);
        assertEquals(List.of("early:DELIVER"), seen);
    }

    /** Only the first unreadable message is the one to log; the others are only counted by the owner. */
    @Test
    void firstUnreadableOnlyOnce() {
        inbox(10, 5, Set.of(A));
        assertTrue(inbox.firstUnreadable());
        assertFalse(inbox.firstUnreadable());
        inbox.install(6, Set.of(A)::contains);
        assertFalse(inbox.firstUnreadable(), "a new epoch does not log again");
    }

    /** A negative bound, or an epoch that is not newer than the installed one, is refused with the values. */
    @Test
    void rejectsBadArguments() {
        IllegalArgumentException bound = assertThrows(IllegalArgumentException.class,
                () -> new EpochInbox<String>(-1, (f, e, m) -> { }));
        assertTrue(bound.getMessage().contains("-1"), bound.getMessage());
        inbox(10, 5, Set.of(A));
        IllegalArgumentException epoch = assertThrows(IllegalArgumentException.class,
                () -> inbox.install(5, Set.of(A)::contains));
        assertTrue(epoch.getMessage().contains("not newer than the installed epoch 5"), epoch.getMessage());
        assertEquals(5, inbox.epoch(), "a refused install changes nothing");
    }
}
