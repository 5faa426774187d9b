package io.dlock.mutex.centralized;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.NodeId;
import io.dlock.mutex.MutexAlgorithmContractTest;
import io.dlock.mutex.centralized.CentralizedMessage.Grant;
import io.dlock.mutex.centralized.CentralizedMessage.Release;
import io.dlock.mutex.centralized.CentralizedMessage.Request;
import io.dlock.mutex.centralized.CentralizedMessage.Sync;
import io.dlock.mutex.centralized.CentralizedMessage.SyncQuery;
import io.dlock.mutex.common.RendezvousHash;
import io.dlock.mutex.testing.Cluster;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The per-name coordinator (option {@code coordinator=per-name}, the default; docs/algorithms.md A1 rule 7):
 * each lock name is coordinated by the member that owns it by rendezvous hashing, and a view change that moves
 * a name hands it over through the sync as a leader change does.
 */
class CentralizedPerNameTest {

    private static final CentralizedDefinition DEFINITION = new CentralizedDefinition();
    private static final ProtocolOptions LEADER = ProtocolOptions.NONE.with(CentralizedDefinition.COORDINATOR, "leader");

    /** The first of name-0, name-1, ... that {@code owner} owns in {@code view}. */
    private static String nameOwnedBy(View view, long owner) {
        for (int i = 0; ; i++) {
            String name = "name-" + i;
            if (RendezvousHash.owner(name, view).equals(NodeId.of(owner))) {
                return name;
            }
        }
    }

    /** The first name {@code owner} owns in {@code view} and {@code successor} owns once {@code owner} left. */
    private static String nameOwnedBy(View view, long owner, long successor) {
        List<NodeId> rest = new ArrayList<>(view.members());
        rest.remove(NodeId.of(owner));
        View without = new View(view.epoch() + 1, rest);
        for (int i = 0; ; i++) {
            String name = "name-" + i;
            if (RendezvousHash.owner(name, view).equals(NodeId.of(owner))
                    && RendezvousHash.owner(name, without).equals(NodeId.of(successor))) {
                return name;
            }
        }
    }

    /**
     * Two names with different owners: each name's coordinator is its owner, which enters its own name with no
     * message and grants it to another node with REQUEST, GRANT, RELEASE (CEN-1, CEN-5 per name).
     */
    @Test
    void twoNamesHaveDifferentCoordinators_eachGrantsItsOwnName() {
        View view = View.ofRange(1, 3);
        String a = nameOwnedBy(view, 0);
        String b = nameOwnedBy(view, 1);
        assertNotEquals(RendezvousHash.owner(a, view), RendezvousHash.owner(b, view));
        for (long owner : new long[] {0, 1}) {
            String name = owner == 0 ? a : b;
            long other = 2;
            Cluster<CentralizedMessage> c = new Cluster<>(DEFINITION, 3, ProtocolOptions.NONE, name);
            c.request(owner);
            assertTrue(c.inCS(owner), name + ": its coordinator enters at once");
            assertEquals(0, c.messagesSent(), name);
            c.request(other);
            assertNotNull(c.peek(other, owner, Request.class), name + ": the REQUEST goes to the name's owner");
            c.deliverAll();
            assertTrue(c.waiting(other));
            c.release(owner);
            c.deliverAll();
            assertTrue(c.inCS(other), name);
            c.release(other);
            c.deliverAll();
            assertEquals(3, c.messagesSent(), name + ": REQUEST, GRANT, RELEASE");
            assertEquals(1, c.messagesSent(Grant.class));
            assertEquals(List.of(1L, 2L), c.fences());
            assertEquals(List.of(), c.violations());
        }
    }

    /** With {@code coordinator=leader} the same name is coordinated by the highest id, as before per-name existed. */
    @Test
    void leaderChoice_coordinatesEveryNameFromTheHighestId() {
        String name = nameOwnedBy(View.ofRange(1, 3), 0);
        Cluster<CentralizedMessage> c = new Cluster<>(DEFINITION, 3, LEADER, name);
        c.request(2);
        assertTrue(c.inCS(2));
        c.request(0);
        assertNotNull(c.peek(0, 2, Request.class));
        c.release(2);
        c.deliverAll();
        assertTrue(c.inCS(0));
        assertEquals(List.of(), c.violations());
    }

    /**
     * The name's coordinator leaves while another node holds the lock and a third waits: the next owner (the member
     * with the next highest weight) queries everyone, keeps the holder, grants nobody else until it releases, and
     * then grants the waiter a token above the old one and above the new epoch's floor.
     */
    @Test
    void when_coordinatorLeaves_then_nextOwnerSyncsAndKeepsTheHolder() {
        View view = View.ofRange(1, 4);
        String name = nameOwnedBy(view, 1, 3);
        Cluster<CentralizedMessage> c = new Cluster<>(DEFINITION, 4, ProtocolOptions.NONE, name);
        c.request(0);
        c.deliverAll();
        c.request(2);
        c.deliverAll();
        assertTrue(c.inCS(0) && c.waiting(2));
        long oldToken = c.fences().get(0);
        long grantsBefore = c.messagesSent(Grant.class);
        c.changeView(c.nextView(0, 2, 3));
        c.deliverAll();
        assertEquals(2, c.messagesSent(SyncQuery.class), "node 3 asks the two other members");
        assertEquals(3, c.messagesSent(Sync.class), "two answers, and waiting 2's SYNC unasked to its new coordinator");
        assertTrue(c.inCS(0), "the holder keeps the lock");
        assertTrue(c.waiting(2));
        assertEquals(grantsBefore, c.messagesSent(Grant.class), "no second grant while 0 holds");
        c.release(0);
        assertNotNull(c.peek(0, 3, Release.class), "the RELEASE goes to the new owner");
        c.deliverAll();
        assertTrue(c.inCS(2));
        long newToken = c.fences().get(1);
        assertTrue(newToken > oldToken && newToken > (2L << 32), "token " + newToken + " after " + oldToken);
        assertEquals(List.of(), c.violations());
    }

    /** The coordinator holds its own name and leaves: the lock is free, and the next owner grants the waiter. */
    @Test
    void when_coordinatorHoldsAndLeaves_then_nextOwnerGrantsTheWaiterAHigherToken() {
        View view = View.ofRange(1, 3);
        String name = nameOwnedBy(view, 0, 1);
        Cluster<CentralizedMessage> c = new Cluster<>(DEFINITION, 3, ProtocolOptions.NONE, name);
        c.request(0);
        assertTrue(c.inCS(0));
        c.request(2);
        c.deliverAll();
        assertTrue(c.waiting(2));
        long oldToken = c.fences().get(0);
        c.changeView(c.nextView(1, 2));
        c.deliverAll();
        assertTrue(c.inCS(2));
        assertFalse(c.inCS(1));
        assertTrue(c.fences().get(1) > oldToken);
        assertEquals(List.of(), c.violations());
    }

    /** A name that stays with its owner across a view change keeps its coordinator: its holder is not disturbed. */
    @Test
    void when_anotherMemberLeaves_then_theCoordinatorStays() {
        View view = View.ofRange(1, 4);
        String name = nameOwnedBy(view, 2);
        Cluster<CentralizedMessage> c = new Cluster<>(DEFINITION, 4, ProtocolOptions.NONE, name);
        c.request(0);
        c.deliverAll();
        c.request(1);
        c.deliverAll();
        c.changeView(c.nextView(0, 1, 2));
        c.deliverAll();
        assertTrue(c.inCS(0) && c.waiting(1));
        c.release(0);
        assertNotNull(c.peek(0, 2, Release.class), "still node 2");
        c.deliverAll();
        assertTrue(c.inCS(1));
        assertEquals(List.of(), c.violations());
    }

    /**
     * A name moves to a member that joins and has no instance for it, while a client's REQUEST is lost with the old
     * epoch and nobody holds the lock: the client's SYNC, sent unasked because its coordinator changed, creates the
     * new coordinator's instance, which queries everyone and grants the client. Without it the client waited until
     * another node used the lock. In both choices (the joiner is the name's new owner and the highest id).
     */
    @Test
    void when_aNameMovesToAJoinerWithoutState_then_theWaitingClientIsGranted() {
        String name = null;
        for (int i = 0; name == null; i++) {
            String candidate = "name-" + i;
            if (RendezvousHash.owner(candidate, View.ofRange(1, 3)).equals(NodeId.of(2))
                    && RendezvousHash.owner(candidate, View.ofRange(1, 4)).equals(NodeId.of(3))) {
                name = candidate;
            }
        }
        for (ProtocolOptions options : List.of(ProtocolOptions.NONE, LEADER)) {
            Cluster<CentralizedMessage> c = Cluster.lazy(DEFINITION, 3, options, name);
            c.request(0);
            c.deliverAll();
            c.release(0);
            c.deliverAll();
            c.request(0);                                  // its REQUEST to 2 is lost with the epoch
            c.changeView(c.nextView(0, 1, 2, 3));          // 3 joins with no instance for the lock
            assertNotNull(c.peek(0, 3, Sync.class), options + ": the waiting client tells its new coordinator");
            c.deliverAll();
            assertTrue(c.created(3), options.toString());
            assertTrue(c.inCS(0), options + ": granted by the joiner");
            assertEquals(List.of(), c.violations());
        }
    }

    /**
     * A node that held the lock restarts with the same id, and the view that excludes its previous run never shows
     * (the transport keeps a restarted id out of the view until its previous run is excluded: the next view lists
     * the id again). The coordinator stays; the new run's SYNC, numbered from its creation epoch, releases the
     * previous run's hold, and the new run's requests are not taken for old duplicates. Both choices.
     */
    @Test
    void when_aHolderRestartsWithTheSameId_then_itsPreviousHoldIsReleased() {
        String name = nameOwnedBy(View.ofRange(1, 3), 2);
        for (ProtocolOptions options : List.of(ProtocolOptions.NONE, LEADER)) {
            Cluster<CentralizedMessage> c = new Cluster<>(DEFINITION, 3, options, name);
            c.request(0);
            c.deliverAll();
            assertTrue(c.inCS(0));
            c.restart(0);                                  // the previous run hangs holding the lock; a new run starts
            c.changeView(c.nextView(0, 1, 2));             // the same members, a new epoch
            c.deliverAll();
            c.request(1);
            c.deliverAll();
            assertTrue(c.inCS(1), options + ": the previous run's hold is released");
            c.request(0);
            c.release(1);
            c.deliverAll();
            assertTrue(c.inCS(0), options + ": the new run's request is not an old duplicate");
            c.release(0);
            c.deliverAll();
            assertEquals(List.of(), c.violations());
        }
    }

    /** Per name, the election's leader is ignored: requests keep going to the name's owner. */
    @Test
    void leaderNotificationsDoNotMoveAPerNameCoordinator() {
        View view = View.ofRange(1, 3);
        String name = nameOwnedBy(view, 0);
        Cluster<CentralizedMessage> c = new Cluster<>(DEFINITION, 3, ProtocolOptions.NONE, name);
        for (long node = 0; node < 3; node++) {
            c.act(node, p -> p.onLeader(NodeId.of(2), view.epoch()));
        }
        assertEquals(0, c.messagesSent(), "no hand-over");
        c.request(1);
        assertNotNull(c.peek(1, 0, Request.class));
        c.deliverAll();
        assertTrue(c.inCS(1));
        assertEquals(List.of(), c.violations());
    }

    /**
     * ME1, ME3 and increasing tokens across random joins, leaves, lost and duplicated messages, for many names (so
     * that the coordinator is sometimes one that stays, leaves or joins) and lazily created instances, in both
     * choices.
     */
    @Test
    void safeAndLiveAcrossViewChangesForManyNames() {
        for (ProtocolOptions options : List.of(ProtocolOptions.NONE, LEADER)) {
            for (int i = 0; i < 12; i++) {
                String name = "name-" + i;
                for (long seed = 0; seed < 8; seed++) {
                    boolean lazy = seed % 2 == 0;
                    MutexAlgorithmContractTest.runWithViewChanges(DEFINITION, options, name, lazy, seed, seed % 3 == 0,
                            5, 0.02, options + " " + name + " lazy=" + lazy + " seed=" + seed);
                }
            }
        }
    }

    /** Option {@code coordinator}: per-name or leader (any case); anything else fails naming the value and both. */
    @Test
    void coordinatorOption_isValidated() {
        for (String ok : List.of("per-name", "leader", "LEADER", " per-name ")) {
            DEFINITION.validateOptions(ProtocolOptions.NONE.with(CentralizedDefinition.COORDINATOR, ok));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DEFINITION.validateOptions(
                ProtocolOptions.NONE.with(CentralizedDefinition.COORDINATOR, "highest")));
        assertEquals("option coordinator=highest is not allowed; allowed: per-name, leader", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Cluster<>(DEFINITION, 3,
                ProtocolOptions.NONE.with(CentralizedDefinition.COORDINATOR, "")));
        assertFalse(DEFINITION.followsLeader(ProtocolOptions.NONE), "per-name is the default");
        assertTrue(DEFINITION.followsLeader(LEADER));
    }
}
