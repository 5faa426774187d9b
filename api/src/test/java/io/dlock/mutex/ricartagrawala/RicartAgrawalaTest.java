package io.dlock.mutex.ricartagrawala;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.mutex.ricartagrawala.RicartAgrawalaMessage.Reply;
import io.dlock.mutex.ricartagrawala.RicartAgrawalaMessage.Request;
import io.dlock.mutex.testing.Cluster;
import io.dlock.mutex.testing.Cluster.Envelope;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Ricart-Agrawala (docs/algorithms.md A4, claims RA-1..RA-5) with duplicates, late messages and view changes. */
class RicartAgrawalaTest {

    private static final RicartAgrawalaDefinition DEFINITION = new RicartAgrawalaDefinition();

    private static Cluster<RicartAgrawalaMessage> cluster(int n) {
        return new Cluster<>(DEFINITION, n);
    }

    private static Set<NodeId> all(int n) {
        return Set.copyOf(View.ofRange(0, n).members());
    }

    /** Releases whoever is in the critical section, delivering everything, until nobody waits. */
    private static void drain(Cluster<RicartAgrawalaMessage> c, int n) {
        c.deliverAll();
        for (int round = 0; round < 100; round++) {
            boolean released = false;
            for (long i = 0; i < n; i++) {
                if (c.inCS(i)) {
                    c.release(i);
                    c.deliverAll();
                    released = true;
                }
            }
            if (!released) {
                return;
            }
        }
    }

    /** RA-1: exactly 2(N-1) messages per entry for N = 2..6, on random non-FIFO schedules. */
    @Test
    void ra1_twoTimesNMinusOneMessagesPerEntry() {
        for (int n = 2; n <= 6; n++) {
            for (long seed = 0; seed < 15; seed++) {
                Cluster<RicartAgrawalaMessage> c = cluster(n);
                c.runWorkload(new Random(seed), all(n), 3, false, 0);
                String where = "n=" + n + " seed=" + seed;
                assertEquals(List.of(), c.violations(), where);
                assertEquals(3 * n, c.entries().size(), where);
                assertEquals(2 * (n - 1) * c.entries().size(), c.messagesSent(), where);
            }
        }
    }

    /** RA-2: requests made at the same time (equal timestamps) enter in id order, whatever the delivery order. */
    @Test
    void ra2_concurrentRequestsEnterInIdOrderOnTies() {
        for (long seed = 0; seed < 20; seed++) {
            Cluster<RicartAgrawalaMessage> c = cluster(4);
            for (long i = 3; i >= 0; i--) {
                c.request(i);
            }
            deliverShuffled(c, new Random(seed));
            assertEquals(List.of(NodeId.of(0), NodeId.of(1), NodeId.of(2), NodeId.of(3)), c.entries(), "seed " + seed);
        }
    }

    /** RA-2: a request with a smaller timestamp enters first, even from a higher id. */
    @Test
    void ra2_smallerTimestampEntersFirst() {
        for (long seed = 0; seed < 20; seed++) {
            Cluster<RicartAgrawalaMessage> c = cluster(4);
            c.request(3);                         // ts 1
            for (long to = 0; to < 3; to++) {
                c.deliver(3, to, Request.class);  // everybody has now seen ts 1
            }
            c.request(1);                         // ts 2
            c.request(0);                         // ts 2
            c.request(2);                         // ts 2
            deliverShuffled(c, new Random(seed));
            assertEquals(List.of(NodeId.of(3), NodeId.of(0), NodeId.of(1), NodeId.of(2)), c.entries(), "seed " + seed);
        }
    }

    /** Delivers in a random order; whoever is in the critical section leaves once nothing is in flight. */
    private static void deliverShuffled(Cluster<RicartAgrawalaMessage> c, Random random) {
        for (int guard = 0; guard < 10_000; guard++) {
            List<Envelope<RicartAgrawalaMessage>> flight = new ArrayList<>(c.inFlight());
            if (flight.isEmpty()) {
                boolean released = false;
                for (long i = 0; i < 8; i++) {
                    if (c.inCS(i)) {
                        c.release(i);
                        released = true;
                    }
                }
                if (!released) {
                    assertEquals(List.of(), c.violations());
                    return;
                }
                continue;
            }
            Collections.shuffle(flight, random);
            c.deliver(flight.get(0));
        }
    }

    /** RA-4: a node defers at most N-1 replies, sends them all on exit, and owes none afterwards. */
    @Test
    void ra4_deferredRepliesAtMostNMinusOneAndClearedOnExit() {
        int n = 4;
        Cluster<RicartAgrawalaMessage> c = cluster(n);
        c.request(0);
        c.deliverAll();
        assertTrue(c.inCS(0));
        for (long i = 1; i < n; i++) {
            c.request(i);
        }
        c.deliverAll();
        assertEquals(0, sentBy(c, 0, Reply.class), "0 is in the critical section: it defers every reply");
        int before = c.messagesSent();
        c.release(0);
        assertEquals(n - 1, c.messagesSent() - before, "RA4: exactly the N-1 deferred replies");
        drain(c, n);
        c.request(0);
        c.deliverAll();
        assertTrue(c.inCS(0));
        before = c.messagesSent();
        c.release(0);
        assertEquals(before, c.messagesSent(), "nothing left deferred after the first exit");
    }

    private static long sentBy(Cluster<RicartAgrawalaMessage> c, long from, Class<?> type) {
        return c.sent().stream().filter(e -> e.from().equals(NodeId.of(from)) && type.isInstance(e.message())).count();
    }

    /** A duplicated REPLY is counted once: the requester still waits for the missing member. */
    @Test
    void duplicateReplyIsNotCountedTwice() {
        Cluster<RicartAgrawalaMessage> c = cluster(3);
        c.request(0);
        c.deliver(0, 1, Request.class);
        Envelope<RicartAgrawalaMessage> reply = c.peek(1, 0, Reply.class);
        Envelope<RicartAgrawalaMessage> copy = c.duplicate(reply);
        c.deliver(reply);
        c.deliver(copy);
        assertFalse(c.inCS(0), "entered on two copies of one member's reply");
        c.deliverAll();
        assertTrue(c.inCS(0));
    }

    /**
     * A delayed duplicate REQUEST from an earlier round is answered with a REPLY naming that round,
     * which the requester ignores; it neither lets the requester in early nor blocks anybody.
     */
    @Test
    void delayedDuplicateRequestFromEarlierRoundIsHarmless() {
        Cluster<RicartAgrawalaMessage> c = cluster(3);
        c.request(1);
        Envelope<RicartAgrawalaMessage> firstRound = c.peek(1, 0, Request.class);
        c.deliverAll();
        c.release(1);
        c.request(1);                             // second round, later timestamp
        c.deliver(1, 2, Request.class);
        c.deliver(2, 1, Reply.class);
        c.deliver(c.duplicate(firstRound));       // 0 answers the first round again
        c.deliver(0, 1, Reply.class);
        assertFalse(c.inCS(1), "a reply to the first round let the second round in");
        c.request(0);                             // 0 competes: (2, n0) precedes (2, n1)
        drain(c, 3);
        assertEquals(List.of(NodeId.of(1), NodeId.of(0), NodeId.of(1)), c.entries());
        assertEquals(List.of(), c.violations());
    }

    /**
     * A stale duplicate REQUEST that reaches a node in the critical section is deferred under the
     * requester's newest timestamp: one REPLY on exit, which serves the current round.
     */
    @Test
    void staleRequestDeferredInCriticalSectionIsAnsweredOnce() {
        Cluster<RicartAgrawalaMessage> c = cluster(2);
        c.request(1);
        Envelope<RicartAgrawalaMessage> firstRound = c.peek(1, 0, Request.class);
        drain(c, 2);
        c.request(0);
        c.deliverAll();
        assertTrue(c.inCS(0));
        c.deliver(c.duplicate(firstRound));       // deferred: 0 is in the critical section
        c.request(1);
        c.deliverAll();                           // deferred too, same requester
        int before = c.messagesSent();
        c.release(0);
        assertEquals(before + 1, c.messagesSent(), "one REPLY for requester 1, not one per request seen");
        c.deliverAll();
        assertTrue(c.inCS(1));
        c.release(1);
        assertEquals(2 * 3, c.messagesSent(), "2(N-1) per entry, the stale duplicate cost nothing");
        assertEquals(List.of(), c.violations());
    }

    /** Fencing tokens strictly increase over entries by different nodes, on random schedules. */
    @Test
    void fencingTokensStrictlyIncrease() {
        for (long seed = 0; seed < 20; seed++) {
            Cluster<RicartAgrawalaMessage> c = cluster(4);
            c.runWorkload(new Random(seed), all(4), 5, false, 0.05);
            assertEquals(List.of(), c.violations(), "seed " + seed);
            List<Long> fences = c.fences();
            for (int i = 1; i < fences.size(); i++) {
                assertTrue(fences.get(i) > fences.get(i - 1), "seed " + seed + " fences " + fences);
            }
            assertTrue(Set.copyOf(c.entries()).size() > 1, "entries by different nodes");
        }
    }

    /** RA-5: a member that never answers blocks every requester, until a view change removes it. */
    @Test
    void when_silentMemberLeavesView_then_waiterEnters() {
        Cluster<RicartAgrawalaMessage> c = cluster(3);
        c.request(0);
        c.deliver(0, 1, Request.class);
        c.deliver(1, 0, Reply.class);
        c.drop(c.peek(0, 2, Request.class));      // 2 is silent
        assertFalse(c.inCS(0));
        c.changeView(c.nextView(0, 1));
        assertTrue(c.inCS(0), "the only missing reply was from the member that left");
    }

    /** View change: a waiting node asks again the members whose reply was lost with the old epoch. */
    @Test
    void when_repliesAreLostInViewChange_then_requestIsResent() {
        Cluster<RicartAgrawalaMessage> c = cluster(3);
        c.request(0);
        c.deliver(0, 1, Request.class);
        c.deliver(1, 0, Reply.class);
        c.deliver(0, 2, Request.class);           // 2's reply is in flight
        c.changeView(c.nextView(0, 1, 2));        // ... and lost
        assertEquals(1, c.inFlight().size(), "only 2 is asked again");
        c.deliverAll();
        assertTrue(c.inCS(0));
    }

    /** View change: a member that joins while a node is in the critical section does not enter before it leaves. */
    @Test
    void when_memberJoinsDuringCriticalSection_then_itWaitsForTheHolder() {
        Cluster<RicartAgrawalaMessage> c = cluster(2);
        c.request(0);
        c.deliverAll();
        assertTrue(c.inCS(0));
        c.changeView(c.nextView(0, 1, 2));
        c.request(2);
        c.deliverAll();
        assertFalse(c.inCS(2));
        c.release(0);
        c.deliverAll();
        assertTrue(c.inCS(2));
        assertEquals(List.of(), c.violations());
    }
}
