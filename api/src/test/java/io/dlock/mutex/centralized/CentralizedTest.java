package io.dlock.mutex.centralized;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.mutex.centralized.CentralizedMessage.ClientState;
import io.dlock.mutex.centralized.CentralizedMessage.Denied;
import io.dlock.mutex.centralized.CentralizedMessage.Grant;
import io.dlock.mutex.centralized.CentralizedMessage.Release;
import io.dlock.mutex.centralized.CentralizedMessage.Request;
import io.dlock.mutex.centralized.CentralizedMessage.Sync;
import io.dlock.mutex.centralized.CentralizedMessage.SyncQuery;
import io.dlock.mutex.common.RendezvousHash;
import io.dlock.mutex.testing.Cluster;
import io.dlock.mutex.testing.Cluster.Envelope;
import io.dlock.mutex.testing.RecordingEffects;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The centralized coordinator (docs/algorithms.md A1, claims CEN-1..CEN-5) and its view-change recovery.
 *
 * <p>The {@link Cluster} tests run the default per-name choice for the lock {@code ProtocolContext.DEFAULT_LOCK_NAME}
 * ("lock"), whose rendezvous weights happen to rise with the id over n0..n4 ({@link #theDefaultNameIsOwnedByTheHighestId}):
 * there the coordinator is the highest id of each view, as in these tests' comments. The {@code onLeader} tests
 * use {@code coordinator=leader}, the choice that follows the election. {@link CentralizedPerNameTest} covers
 * names owned by other members.
 */
class CentralizedTest {

    private static final CentralizedDefinition DEFINITION = new CentralizedDefinition();
    private static final ProtocolOptions LEADER = ProtocolOptions.NONE.with(CentralizedDefinition.COORDINATOR, "leader");

    private static Cluster<CentralizedMessage> cluster(int n) {
        return new Cluster<>(DEFINITION, n);
    }

    private static Cluster<CentralizedMessage> clusterWithDenied(int n) {
        return new Cluster<>(DEFINITION, n, ProtocolOptions.NONE.with(CentralizedDefinition.SEND_DENIED, "true"));
    }

    /** One node's protocol over recording effects, coordinated by the election's leader. */
    private static MutexProtocol<CentralizedMessage> create(NodeId self, View view, RecordingEffects<CentralizedMessage> fx) {
        return DEFINITION.create(new ProtocolContext<>(self, view, fx, LEADER));
    }

    /** The premise of the class comment: over n0..n4 the default lock name is owned by the highest id of each view. */
    @Test
    void theDefaultNameIsOwnedByTheHighestId() {
        for (long[] members : new long[][] {{0, 1}, {0, 1, 2}, {0, 1, 2, 3}, {0, 1, 2, 3, 4}, {1, 2, 3}, {0, 2}}) {
            View v = new View(1, Arrays.stream(members).mapToObj(NodeId::of).toList());
            assertEquals(v.highest(), RendezvousHash.owner(ProtocolContext.DEFAULT_LOCK_NAME, v), v.toString());
        }
    }

    private static Set<NodeId> ids(long... values) {
        return Arrays.stream(values).mapToObj(NodeId::of).collect(Collectors.toSet());
    }

    /** CEN-1: M entries by non-coordinator nodes cost exactly 3M messages on any schedule. */
    @Test
    void cen1_threeMessagesPerEntryByOtherNodes() {
        for (long seed = 0; seed < 30; seed++) {
            Cluster<CentralizedMessage> c = cluster(5);
            c.runWorkload(new Random(seed), ids(0, 1, 2, 3), 3, false, 0);
            assertEquals(List.of(), c.violations(), "seed " + seed);
            int m = c.entries().size();
            assertEquals(12, m);
            assertEquals(3 * m, c.messagesSent(), "seed " + seed);
            assertEquals(m, c.messagesSent(Request.class));
            assertEquals(m, c.messagesSent(Grant.class));
            assertEquals(m, c.messagesSent(Release.class));
        }
    }

    /** CEN-2: with send-denied, each REQUEST that arrives while the lock is held costs one DENIED more. */
    @Test
    void cen2_sendDeniedAddsOneMessagePerRequestThatWaits() {
        Cluster<CentralizedMessage> c = clusterWithDenied(4); // coordinator 3
        c.request(0);
        c.deliver(0, 3, Request.class);          // free: GRANT, no DENIED
        c.request(1);
        c.deliver(1, 3, Request.class);          // held by 0 (GRANT in flight): DENIED
        c.request(2);
        c.deliver(2, 3, Request.class);          // DENIED
        c.deliverAll();
        assertTrue(c.inCS(0));
        assertTrue(c.waiting(1) && c.waiting(2));
        for (long holder = 0; holder < 3; holder++) {
            assertTrue(c.inCS(holder));
            c.release(holder);
            c.deliverAll();
        }
        assertEquals(List.of(NodeId.of(0), NodeId.of(1), NodeId.of(2)), c.entries());
        assertEquals(2, c.messagesSent(Denied.class));
        assertEquals(3 * 3 + 2, c.messagesSent());
        assertEquals(List.of(), c.violations());
    }

    /** CEN-2 on random schedules: messages = 3M + number of DENIED, and never more DENIED than entries. */
    @Test
    void cen2_countsOnRandomSchedules() {
        for (long seed = 0; seed < 30; seed++) {
            Cluster<CentralizedMessage> c = clusterWithDenied(4);
            c.runWorkload(new Random(seed), ids(0, 1, 2), 3, false, 0);
            assertEquals(List.of(), c.violations());
            long denied = c.messagesSent(Denied.class);
            assertEquals(3 * 9 + denied, c.messagesSent(), "seed " + seed);
            assertTrue(denied <= 9);
        }
    }

    /** CEN-3: grants follow the order in which REQUESTs arrive at the coordinator. */
    @Test
    void cen3_grantsInArrivalOrder() {
        Cluster<CentralizedMessage> c = cluster(4);
        c.request(3);                            // the coordinator holds the lock
        c.request(0);
        c.request(1);
        c.request(2);
        c.deliver(2, 3, Request.class);
        c.deliver(0, 3, Request.class);
        c.deliver(1, 3, Request.class);
        for (long next : new long[] {3, 2, 0, 1}) {
            assertTrue(c.inCS(next), "expected " + next + " in the critical section");
            c.release(next);
            c.deliverAll();
        }
        assertEquals(List.of(NodeId.of(3), NodeId.of(2), NodeId.of(0), NodeId.of(1)), c.entries());
    }

    /** CEN-5: the coordinator's own request and release cost no message. */
    @Test
    void cen5_coordinatorsOwnRequestCostsNothing() {
        Cluster<CentralizedMessage> c = cluster(3);
        c.request(2);
        assertTrue(c.inCS(2));
        c.release(2);
        c.request(2);
        c.release(2);
        assertEquals(0, c.messagesSent());
        assertEquals(List.of(1L, 2L), c.fences());
    }

    /** The coordinator's own request waits in the FIFO queue like anybody's, still without messages of its own. */
    @Test
    void coordinatorsOwnRequestQueuesBehindOthers() {
        Cluster<CentralizedMessage> c = cluster(3);
        c.request(0);
        c.deliverAll();
        c.request(2);
        assertFalse(c.inCS(2));
        c.release(0);
        c.deliverAll();
        assertTrue(c.inCS(2));
        assertEquals(3, c.messagesSent());
    }

    /** A duplicated REQUEST, before or after its grant was released, yields no second grant. */
    @Test
    void duplicateRequestIsIgnored() {
        Cluster<CentralizedMessage> c = cluster(3);
        c.request(0);
        Envelope<CentralizedMessage> request = c.peek(0, 2, Request.class);
        Envelope<CentralizedMessage> early = c.duplicate(request);
        Envelope<CentralizedMessage> late = c.duplicate(request);
        c.deliver(request);
        c.deliver(early);
        c.deliver(2, 0, Grant.class);
        c.release(0);
        c.deliver(0, 2, Release.class);
        c.deliver(late);
        assertEquals(1, c.messagesSent(Grant.class));
        assertTrue(c.inFlight().isEmpty());
        c.request(1);
        c.deliverAll();
        assertTrue(c.inCS(1));
        assertEquals(List.of(), c.violations());
    }

    /** A duplicated RELEASE does not free the lock held by the next client. */
    @Test
    void duplicateReleaseIsIgnored() {
        Cluster<CentralizedMessage> c = cluster(3);
        c.request(0);
        c.deliverAll();
        c.request(1);
        c.deliverAll();
        c.release(0);
        Envelope<CentralizedMessage> release = c.peek(0, 2, Release.class);
        Envelope<CentralizedMessage> copy = c.duplicate(release);
        c.deliver(release);
        c.deliver(2, 1, Grant.class);
        assertTrue(c.inCS(1));
        c.deliver(copy);
        c.request(0);
        c.deliverAll();
        assertFalse(c.inCS(0), "a duplicate RELEASE of 0 freed the lock held by 1");
        c.release(1);
        c.deliverAll();
        assertTrue(c.inCS(0));
        assertEquals(List.of(), c.violations());
    }

    /** A duplicated GRANT is ignored, also when it arrives while the client waits for a later request. */
    @Test
    void duplicateGrantIsIgnored() {
        Cluster<CentralizedMessage> c = cluster(3);
        c.request(0);
        c.deliver(0, 2, Request.class);
        Envelope<CentralizedMessage> grant = c.peek(2, 0, Grant.class);
        Envelope<CentralizedMessage> copy = c.duplicate(grant);
        Envelope<CentralizedMessage> late = c.duplicate(grant);
        c.deliver(grant);
        c.deliver(copy);
        c.request(1);
        c.deliver(1, 2, Request.class);           // 1 queued behind 0
        c.release(0);
        c.request(0);                             // 0 asks again before its RELEASE arrives
        c.deliver(late);                          // the stale GRANT of 0's first request
        assertFalse(c.inCS(0));
        c.deliverAll();
        assertTrue(c.inCS(1));
        assertFalse(c.inCS(0));
        assertEquals(List.of(), c.violations());
    }

    /** A DENIED leaves the client waiting; it does not ask again and is granted later. */
    @Test
    void deniedClientKeepsWaiting() {
        Cluster<CentralizedMessage> c = clusterWithDenied(3);
        c.request(0);
        c.deliverAll();
        c.request(1);
        c.deliverAll();
        assertTrue(c.waiting(1));
        assertEquals(1, c.messagesSent(Denied.class));
        assertEquals(2, c.messagesSent(Request.class));
        c.release(0);
        c.deliverAll();
        assertTrue(c.inCS(1));
    }

    /** View change: when the holder leaves, the lock is free and the next waiting client is granted. */
    @Test
    void when_holderLeaves_then_nextWaiterIsGranted() {
        Cluster<CentralizedMessage> c = cluster(4);
        c.request(0);
        c.deliverAll();
        c.request(1);
        c.deliverAll();
        assertTrue(c.inCS(0) && c.waiting(1));
        c.changeView(c.nextView(1, 2, 3));
        c.deliverAll();
        assertTrue(c.inCS(1));
        assertEquals(List.of(), c.violations());
    }

    /**
     * View change: a node with a higher id joins and becomes coordinator. On its first event it
     * queries every member, learns the current holder from the SYNCs and grants nobody else until
     * that holder releases.
     */
    @Test
    void when_higherNodeJoins_then_holderKeepsTheLock() {
        Cluster<CentralizedMessage> c = cluster(3);
        c.request(0);
        c.deliverAll();
        c.request(1);
        c.deliverAll();
        long grantsBefore = c.messagesSent(Grant.class);
        c.changeView(c.nextView(0, 1, 2, 3));     // 3 is the new coordinator
        c.request(2);                             // its REQUEST is 3's first event
        c.deliverAll();
        assertEquals(3, c.messagesSent(SyncQuery.class));
        assertEquals(4, c.messagesSent(Sync.class), "the three answers, and waiting 1's SYNC unasked to its new coordinator");
        assertTrue(c.inCS(0));
        assertTrue(c.waiting(1) && c.waiting(2));
        assertEquals(grantsBefore, c.messagesSent(Grant.class), "no second grant while 0 holds");
        c.release(0);
        assertNotNull(c.peek(0, 3, Release.class), "the RELEASE goes to the new coordinator");
        c.deliverAll();
        assertEquals(grantsBefore + 1, c.messagesSent(Grant.class));
        drainAll(c, 4);
        assertEquals(3, c.entries().size());
        assertEquals(List.of(), c.violations());
    }

    /** A new coordinator whose first event is the holder's RELEASE learns the queue and grants the waiter. */
    @Test
    void when_higherNodeJoins_then_releaseTriggersTheSync() {
        Cluster<CentralizedMessage> c = cluster(3);
        c.request(0);
        c.deliverAll();
        c.request(1);
        c.deliverAll();
        c.changeView(c.nextView(0, 1, 2, 3));
        c.release(0);
        c.deliverAll();
        assertTrue(c.inCS(1));
        assertEquals(List.of(), c.violations());
    }

    /** Releases whoever holds the lock, delivering everything, until nobody waits. */
    private static void drainAll(Cluster<CentralizedMessage> c, int n) {
        for (int round = 0; round < 100; round++) {
            c.deliverAll();
            boolean released = false;
            for (long i = 0; i < n; i++) {
                if (c.inCS(i)) {
                    c.release(i);
                    released = true;
                }
            }
            if (!released) {
                return;
            }
        }
    }

    /** View change: the coordinator leaves; the next highest takes over, keeps the holder and queues the waiter. */
    @Test
    void when_coordinatorLeaves_then_nextHighestRebuildsTheQueue() {
        Cluster<CentralizedMessage> c = cluster(4);
        c.request(0);
        c.deliverAll();
        c.request(1);
        c.deliverAll();
        c.changeView(c.nextView(0, 1, 2));
        c.deliverAll();
        assertTrue(c.inCS(0) && c.waiting(1));
        c.release(0);
        c.deliverAll();
        assertTrue(c.inCS(1));
        assertTrue(c.fences().get(1) > c.fences().get(0));
        assertEquals(List.of(), c.violations());
    }

    /** View change: a GRANT lost with the old epoch is sent again, with the same fencing token. */
    @Test
    void when_grantIsLostInViewChange_then_itIsResent() {
        Cluster<CentralizedMessage> c = cluster(3);
        c.request(0);
        c.deliver(0, 2, Request.class);
        Grant lost = (Grant) c.peek(2, 0, Grant.class).message();
        c.changeView(c.nextView(0, 1, 2));
        c.deliverAll();
        assertTrue(c.inCS(0));
        assertEquals(List.of(lost.fence()), c.fences());
    }

    /** View change: a REQUEST lost with the old epoch is recovered from the client's SYNC. */
    @Test
    void when_requestIsLostInViewChange_then_syncQueuesIt() {
        Cluster<CentralizedMessage> c = cluster(3);
        c.request(0);
        c.changeView(c.nextView(0, 1, 2));
        c.deliverAll();
        assertTrue(c.inCS(0));
    }

    /** View change: a RELEASE lost with the old epoch is implied by the client's idle SYNC, freeing the lock. */
    @Test
    void when_releaseIsLostInViewChange_then_idleSyncFreesTheLock() {
        Cluster<CentralizedMessage> c = cluster(3);
        c.request(0);
        c.deliverAll();
        c.request(1);
        c.deliverAll();
        c.release(0);
        c.changeView(c.nextView(0, 1, 2));
        c.deliverAll();
        assertTrue(c.inCS(1));
        assertEquals(List.of(), c.violations());
    }

    /** After a view change the coordinator grants nothing until every member's SYNC has arrived. */
    @Test
    void noGrantBeforeEverySyncArrived() {
        Cluster<CentralizedMessage> c = cluster(3);
        c.request(0);
        c.changeView(c.nextView(0, 1, 2));
        c.deliver(2, 0, SyncQuery.class);
        c.deliver(2, 1, SyncQuery.class);
        c.deliver(0, 2, Sync.class);
        assertNull(c.peek(2, 0, Grant.class));
        c.deliver(1, 2, Sync.class);
        assertNotNull(c.peek(2, 0, Grant.class));
    }

    /** A SYNC reporting a request that a RELEASE overtook (no FIFO) does not resurrect it as holder. */
    @Test
    void staleHoldingSyncAfterReleaseIsIgnored() {
        Cluster<CentralizedMessage> c = cluster(3);
        c.request(0);
        c.deliverAll();
        c.changeView(c.nextView(0, 1, 2));
        c.deliver(2, 0, SyncQuery.class);         // 0 holds: SYNC(holding) to 2
        assertEquals(new Sync((1L << 32) + 1, ClientState.HOLDING, 1), c.peek(0, 2, Sync.class).message(),
                "its first request in epoch 1");
        c.release(0);
        c.deliver(0, 2, Release.class);           // overtakes the SYNC
        c.deliver(0, 2, Sync.class);
        c.request(1);
        c.deliverAll();
        assertTrue(c.inCS(1));
        assertEquals(List.of(), c.violations());
    }

    /** One member of a view, with its protocol over recording effects ({@code coordinator=leader}). */
    private record Member(NodeId id, RecordingEffects<CentralizedMessage> fx, MutexProtocol<CentralizedMessage> p) {

        static Member of(View view, int index) {
            NodeId id = view.member(index);
            RecordingEffects<CentralizedMessage> fx = new RecordingEffects<>(id, view);
            return new Member(id, fx, create(id, view, fx));
        }

        /** The GRANTs among the messages sent since the last drain (the others are drained too). */
        List<RecordingEffects.Sent<CentralizedMessage>> drainGrantsSent() {
            return fx.drainSent().stream().filter(x -> x.message() instanceof Grant).toList();
        }
    }

    /** The elected leader is the coordinator: after onLeader names node 1, a request goes to 1, which grants it. */
    @Test
    void onLeader_electedNodeBecomesCoordinator() {
        View view = View.ofRange(3, 3);
        Member m0 = Member.of(view, 0);
        Member m1 = Member.of(view, 1);
        m0.p().onLeader(m1.id(), view.epoch());
        m1.p().onLeader(m1.id(), view.epoch());
        // node 1 takes over as after a view change: it asks the others for their state
        assertEquals(1, m1.fx().broadcasts());
        m1.p().onMessage(m0.id(), new Sync(0, ClientState.IDLE, 0));
        m1.p().onMessage(view.member(2), new Sync(0, ClientState.IDLE, 0));
        m0.p().onRequest();
        List<RecordingEffects.Sent<CentralizedMessage>> sent = m0.fx().drainSent();
        assertEquals(1, sent.size());
        assertEquals(m1.id(), sent.get(0).to());
        m1.p().onMessage(m0.id(), sent.get(0).message());
        List<RecordingEffects.Sent<CentralizedMessage>> grants = m1.drainGrantsSent();
        assertEquals(1, grants.size());
        m0.p().onMessage(m1.id(), grants.get(0).message());
        assertEquals(1, m0.fx().drainGrants().size());
        // an older epoch's leader changes nothing
        m0.p().onLeader(view.member(2), view.epoch() - 1);
        m0.p().onRelease();
        assertEquals(m1.id(), m0.fx().drainSent().get(0).to());
    }

    /**
     * The election's result changes within an epoch: a member whose messages are late elects itself, then learns of
     * the higher coordinator it had been the client of all along. The GRANT that coordinator sent meanwhile was
     * dropped (it did not come from the coordinator of the moment), so on the way back the client tells the
     * coordinator its state, which grants it again. Without that, the coordinator counted the client as the holder
     * and the client waited for a grant: the lock stalled for every node until the next view (found on real
     * links, a node restarted into a running cluster with its messages late by seconds).
     */
    @Test
    void onLeader_aClientThatTookItselfForTheCoordinatorAndBack_isGrantedAgain() {
        View view = View.ofRange(3, 3);
        Member m0 = Member.of(view, 0);
        Member m2 = Member.of(view, 2);
        // node 0 asks the highest node, the coordinator, which grants at once
        m0.p().onRequest();
        m2.p().onMessage(m0.id(), m0.fx().drainSent().get(0).message());
        List<RecordingEffects.Sent<CentralizedMessage>> grant = m2.drainGrantsSent();
        assertEquals(1, grant.size());
        // node 0's election names node 0 itself before the GRANT arrives: it drops the GRANT
        m0.p().onLeader(m0.id(), view.epoch());
        m0.fx().drainSent();
        m0.p().onMessage(m2.id(), grant.get(0).message());
        assertEquals(0, m0.fx().drainGrants().size());
        // then the election settles on node 2: node 0 tells it its state, and node 2 grants it again
        m0.p().onLeader(m2.id(), view.epoch());
        List<RecordingEffects.Sent<CentralizedMessage>> sync = m0.fx().drainSent();
        assertEquals(1, sync.size());
        assertEquals(m2.id(), sync.get(0).to());
        assertTrue(sync.get(0).message() instanceof Sync s && s.state() == ClientState.WAITING, sync.toString());
        m2.p().onMessage(m0.id(), sync.get(0).message());
        List<RecordingEffects.Sent<CentralizedMessage>> again = m2.drainGrantsSent();
        assertEquals(1, again.size());
        m0.p().onMessage(m2.id(), again.get(0).message());
        assertEquals(1, m0.fx().drainGrants().size());
    }

    /**
     * The election's result reaches members at different times: a member that gets the new coordinator's
     * SYNC_QUERY before it knows that coordinator answers it once it does, so the coordinator grants.
     */
    @Test
    void onLeader_aQueryFromTheCoordinatorToBe_isAnsweredOnceItIsKnown() {
        View view = View.ofRange(3, 3);
        Member m0 = Member.of(view, 0);
        Member m1 = Member.of(view, 1);
        Member m2 = Member.of(view, 2);
        // node 1 learns first that it was elected and asks everyone for their state
        m1.p().onLeader(m1.id(), view.epoch());
        assertEquals(1, m1.fx().broadcasts());
        m2.p().onLeader(m1.id(), view.epoch());
        m2.p().onMessage(m1.id(), new SyncQuery());
        m1.p().onMessage(m2.id(), m2.fx().drainSent().get(0).message());
        // node 0 still takes the highest id for the coordinator: it cannot answer yet
        m0.p().onRequest();
        m0.fx().drainSent();
        m0.p().onMessage(m1.id(), new SyncQuery());
        assertEquals(List.of(), m0.fx().drainSent());
        // once it knows, it answers with its waiting request, and node 1 grants it
        m0.p().onLeader(m1.id(), view.epoch());
        List<RecordingEffects.Sent<CentralizedMessage>> sync = m0.fx().drainSent();
        assertEquals(1, sync.size());
        assertEquals(m1.id(), sync.get(0).to());
        m1.p().onMessage(m0.id(), sync.get(0).message());
        List<RecordingEffects.Sent<CentralizedMessage>> grants = m1.drainGrantsSent();
        assertEquals(1, grants.size());
        m0.p().onMessage(m1.id(), grants.get(0).message());
        assertEquals(1, m0.fx().drainGrants().size());
    }
}
