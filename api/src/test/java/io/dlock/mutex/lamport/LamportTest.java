package io.dlock.mutex.lamport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.mutex.lamport.LamportMessage.Ack;
import io.dlock.mutex.lamport.LamportMessage.Release;
import io.dlock.mutex.lamport.LamportMessage.Request;
import io.dlock.mutex.testing.Cluster;
import io.dlock.mutex.testing.Cluster.Envelope;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Lamport's algorithm (docs/algorithms.md A3, claims LAM-1..LAM-3) with both ack rules, duplicates and view changes. */
class LamportTest {

    private static final LamportDefinition DEFINITION = new LamportDefinition();

    private static Cluster<LamportMessage> cluster(int n, boolean immediateAck) {
        return new Cluster<>(DEFINITION, n,
                ProtocolOptions.NONE.with(LamportDefinition.IMMEDIATE_ACK, String.valueOf(immediateAck)));
    }

    /** Delivers everything (FIFO); whoever is in the critical section leaves, until nobody waits. */
    private static void drain(Cluster<LamportMessage> c) {
        c.deliverAll();
        for (int round = 0; round < 100; round++) {
            boolean released = false;
            for (NodeId node : c.view().members()) {
                if (c.inCS(node.value())) {
                    c.release(node.value());
                    c.deliverAll();
                    released = true;
                }
            }
            if (!released) {
                return;
            }
        }
    }

    /** LAM-1: exactly 3(N-1) messages per entry for N = 2..6 on random FIFO schedules, for both ack rules. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void lam1_threeTimesNMinusOneMessagesPerEntry(boolean immediateAck) {
        for (int n = 2; n <= 6; n++) {
            for (long seed = 0; seed < 15; seed++) {
                Cluster<LamportMessage> c = cluster(n, immediateAck);
                c.runWorkload(new Random(seed), Set.copyOf(View.ofRange(0, n).members()), 3, true, 0);
                String where = "n=" + n + " seed=" + seed;
                assertEquals(List.of(), c.violations(), where);
                assertEquals(3 * n, c.entries().size(), where);
                assertEquals(3 * (n - 1) * c.entries().size(), c.messagesSent(), where);
                assertEquals(c.messagesSent(Request.class), c.messagesSent(Ack.class), where);
                assertEquals(c.messagesSent(Request.class), c.messagesSent(Release.class), where);
            }
        }
    }

    /** LAM-2: concurrent requests enter in increasing (timestamp, id) order, on random FIFO schedules. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void lam2_entriesInTimestampIdOrder(boolean immediateAck) {
        for (long seed = 0; seed < 20; seed++) {
            Cluster<LamportMessage> c = cluster(4, immediateAck);
            c.request(2);                         // ts 1
            for (long to : new long[] {0, 1, 3}) {
                c.deliver(2, to, Request.class);  // the others' clocks pass 1
            }
            c.request(3);
            c.request(0);
            c.request(1);                         // three requests with equal timestamps
            Random random = new Random(seed);
            while (!c.inFlight().isEmpty() || anyInCS(c)) {
                if (c.inFlight().isEmpty()) {
                    releaseAll(c);
                } else {
                    c.deliverRandom(random, true, 0);
                }
            }
            assertEquals(List.of(NodeId.of(2), NodeId.of(0), NodeId.of(1), NodeId.of(3)), c.entries(), "seed " + seed);
            assertEquals(List.of(), c.violations());
        }
    }

    private static boolean anyInCS(Cluster<LamportMessage> c) {
        return c.view().members().stream().anyMatch(n -> c.inCS(n.value()));
    }

    private static void releaseAll(Cluster<LamportMessage> c) {
        for (NodeId n : c.view().members()) {
            if (c.inCS(n.value())) {
                c.release(n.value());
            }
        }
    }

    /**
     * LAM-3: without FIFO channels mutual exclusion fails. docs/algorithms.md's schedule for N = 2 with
     * immediate-ack: 0's ACK overtakes 0's own REQUEST to 1, and both nodes enter.
     */
    @Test
    void lam3_nonFifoScheduleBreaksMutualExclusion() {
        Cluster<LamportMessage> c = cluster(2, true);
        c.request(0);                             // (1, n0)
        c.request(1);                             // (1, n1)
        c.deliver(1, 0, Request.class);           // 0 acks 1
        c.deliver(0, 1, Ack.class);               // ... and the ack overtakes 0's REQUEST: 1 enters
        assertTrue(c.inCS(1));
        c.deliver(0, 1, Request.class);           // 1 acks at once (immediate-ack)
        c.deliver(1, 0, Ack.class);               // 0 heads its queue and has every ack: 0 enters
        assertTrue(c.inCS(0));
        assertEquals(1, c.violations().size());
        assertTrue(c.violations().get(0).startsWith("ME1"), c.violations().toString());
    }

    /** The same two requests on FIFO channels: the earlier request (1, n0) enters first, then the other. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void lam3_sameRequestsOnFifoChannelsAreSafe(boolean immediateAck) {
        Cluster<LamportMessage> c = cluster(2, immediateAck);
        c.request(0);
        c.request(1);
        c.deliver(1, 0, Request.class);
        c.deliver(0, 1, Request.class);           // FIFO: 0's REQUEST before 0's ACK
        drain(c);
        assertEquals(List.of(NodeId.of(0), NodeId.of(1)), c.entries());
        assertEquals(List.of(), c.violations());
    }

    /** With the source notes' rule a node in the critical section defers its acks; with immediate-ack it does not. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void ackRuleInCriticalSection(boolean immediateAck) {
        Cluster<LamportMessage> c = cluster(2, immediateAck);
        c.request(0);
        c.deliverAll();
        assertTrue(c.inCS(0));
        c.request(1);
        c.deliver(1, 0, Request.class);
        assertEquals(immediateAck, c.peek(0, 1, Ack.class) != null);
        c.release(0);
        c.deliverAll();
        assertTrue(c.inCS(1));
    }

    /** A duplicate REQUEST that arrives after its RELEASE is ignored: it neither blocks the queue nor earns an ack. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void duplicateRequestAfterReleaseIsIgnored(boolean immediateAck) {
        Cluster<LamportMessage> c = cluster(2, immediateAck);
        c.request(1);
        Envelope<LamportMessage> request = c.peek(1, 0, Request.class);
        drain(c);
        int before = c.messagesSent();
        c.deliver(c.duplicate(request));
        assertEquals(before, c.messagesSent(), "no ack for a released request");
        c.request(0);
        c.deliverAll();
        assertTrue(c.inCS(0), "a stale request of 1 is blocking the head of 0's queue");
    }

    /** A duplicate ACK, or the ACK of an earlier request, does not count for the current request. */
    @Test
    void duplicateOrStaleAckIsNotCounted() {
        Cluster<LamportMessage> c = cluster(3, false);
        c.request(0);
        c.deliverAll();
        Envelope<LamportMessage> oldAck = c.sent().stream()
                .filter(e -> e.from().equals(NodeId.of(2)) && e.message() instanceof Ack).findFirst().orElseThrow();
        c.release(0);
        c.deliverAll();
        c.request(0);
        c.deliver(0, 1, Request.class);
        Envelope<LamportMessage> ack = c.peek(1, 0, Ack.class);
        c.deliver(c.duplicate(ack));
        c.deliver(ack);
        c.deliver(c.duplicate(oldAck));           // 2's ack of the first request
        assertFalse(c.inCS(0));
        c.deliverAll();
        assertTrue(c.inCS(0));
    }

    /** A duplicated REQUEST of a pending request gets a fresh ACK and leaves one queue entry. */
    @Test
    void duplicatePendingRequestIsAckedAgain() {
        Cluster<LamportMessage> c = cluster(2, false);
        c.request(1);
        Envelope<LamportMessage> request = c.peek(1, 0, Request.class);
        c.duplicate(request);
        c.deliverAll();
        assertTrue(c.inCS(1));
        assertEquals(2, c.messagesSent(Ack.class));
        c.release(1);
        c.deliverAll();
        c.request(0);
        c.deliverAll();
        assertTrue(c.inCS(0));
    }

    /**
     * View change: a member that joins while a node is in the critical section does not enter before
     * the holder leaves, for both ack rules, even when its request is stamped before the holder's.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void when_memberJoinsDuringCriticalSection_then_itWaitsForTheHolder(boolean immediateAck) {
        Cluster<LamportMessage> c = cluster(2, immediateAck);
        c.request(1);
        drain(c);                                 // clocks move on: 0's next request is stamped > 1
        c.request(0);
        c.deliverAll();
        assertTrue(c.inCS(0));
        c.changeView(c.nextView(0, 1, 2));        // 0 sends its held request to the newcomer
        c.request(2);                             // stamped 1: before 0's request
        c.deliver(2, 0, Request.class);           // reaches 0 before 0's request reaches 2
        c.deliverAll();
        assertFalse(c.inCS(2), "the newcomer entered while 0 holds the lock");
        c.release(0);
        c.deliverAll();
        assertTrue(c.inCS(2));
        assertEquals(List.of(), c.violations());
    }

    /** View change: a RELEASE lost with the old epoch is sent again, so it does not block the queue. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void when_releaseIsLostInViewChange_then_itIsResent(boolean immediateAck) {
        Cluster<LamportMessage> c = cluster(2, immediateAck);
        c.request(1);
        c.deliverAll();
        c.release(1);                             // RELEASE in flight ...
        c.changeView(c.nextView(0, 1));           // ... and lost
        c.deliverAll();
        c.request(0);
        c.deliverAll();
        assertTrue(c.inCS(0));
    }

    /** View change: a lost RELEASE followed by a new REQUEST (both re-sent) replaces the old queue entry. */
    @Test
    void when_releaseAndNextRequestAreLost_then_resentRequestReplacesTheOldEntry() {
        Cluster<LamportMessage> c = cluster(3, false);
        c.request(1);
        c.request(2);
        c.deliverAll();
        assertTrue(c.inCS(1));
        c.release(1);
        c.deliver(1, 2, Release.class);           // 2 learns of the release, 0 does not
        c.request(1);
        c.changeView(c.nextView(0, 1, 2));        // 1's RELEASE and REQUEST to 0 are lost
        drain(c);
        assertEquals(List.of(NodeId.of(1), NodeId.of(2), NodeId.of(1)), c.entries());
        assertEquals(List.of(), c.violations());
    }

    /** View change: the member a waiting node still needed an ack from leaves, and the waiter enters. */
    @Test
    void when_missingMemberLeaves_then_waiterEnters() {
        Cluster<LamportMessage> c = cluster(3, false);
        c.request(0);
        c.deliver(0, 1, Request.class);
        c.deliver(1, 0, Ack.class);
        c.drop(c.peek(0, 2, Request.class));
        c.changeView(c.nextView(0, 1));
        assertTrue(c.inCS(0));
    }
}
