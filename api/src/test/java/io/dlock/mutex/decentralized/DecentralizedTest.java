package io.dlock.mutex.decentralized;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.mutex.decentralized.DecentralizedMessage.Deny;
import io.dlock.mutex.decentralized.DecentralizedMessage.Grant;
import io.dlock.mutex.decentralized.DecentralizedMessage.Release;
import io.dlock.mutex.decentralized.DecentralizedMessage.Request;
import io.dlock.mutex.testing.Cluster;
import io.dlock.mutex.testing.RecordingEffects;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Decentralized majority voting (docs/algorithms.md A2, claims DEC-1..DEC-6). */
class DecentralizedTest {

    private static final DecentralizedDefinition DEFINITION = new DecentralizedDefinition();

    /** DEC-1: one uncontended request: N-1 REQUEST, N-1 GRANT, N-1 RELEASE = 3(N-1) (docs/algorithms.md's 3N with the own replica local), one attempt. */
    @Test
    void uncontendedEntryCosts3NMinus1() {
        for (int n = 1; n <= 9; n++) {
            Cluster<DecentralizedMessage> c = new Cluster<>(DEFINITION, n);
            c.request(n - 1);
            c.deliverAll();
            assertTrue(c.inCS(n - 1));
            c.release(n - 1);
            c.deliverAll();
            assertEquals(3L * (n - 1), c.messagesSent());
            assertEquals(n - 1L, c.messagesSent(Request.class));
            assertEquals(n - 1L, c.messagesSent(Grant.class));
            assertEquals(n - 1L, c.messagesSent(Release.class));
        }
    }

    /**
     * DEC-2 and DEC-3: random contended runs: ME1, every request granted, sum(2(N-1) + g_a), one
     * RELEASE per GRANT. (This driver has no time, so the back-off does not separate contenders; larger
     * quorums, which livelock more, are run in the simulator.)
     */
    @Test
    void contendedRunsAreSafeAndFollowTheIdentity() {
        for (int n = 2; n <= 6; n++) {
            for (String quorum : List.of("majority")) {
                for (long seed = 0; seed < 40; seed++) {
                    Cluster<DecentralizedMessage> c = new Cluster<>(DEFINITION, n,
                            ProtocolOptions.NONE.with(DecentralizedDefinition.QUORUM, quorum));
                    c.runWorkload(new Random(seed), c.members(), 3, false, 0);
                    String where = "n=" + n + " quorum=" + quorum + " seed=" + seed;
                    assertEquals(List.of(), c.violations(), where);
                    assertEquals(3 * n, c.entries().size(), where);
                    long requests = c.messagesSent(Request.class);
                    assertEquals(requests, c.messagesSent(Grant.class) + c.messagesSent(Deny.class), where);
                    assertEquals(c.messagesSent(Grant.class), c.messagesSent(Release.class), where);
                    assertEquals(0, requests % Math.max(1, n - 1), where);
                }
            }
        }
    }

    /** DEC-4: N = 3, m = 2: A holds with votes of c0 and c1; c1 forgets its vote (amnesia); B gets c1 and c2 and enters too. */
    @Test
    void amnesiaViolatesMutualExclusion() {
        View view = View.ofRange(1, 3);
        NodeId a = NodeId.of(0);
        NodeId c1 = NodeId.of(1);
        NodeId b = NodeId.of(2);
        RecordingEffects<DecentralizedMessage> fxA = new RecordingEffects<>(a, view);
        RecordingEffects<DecentralizedMessage> fxB = new RecordingEffects<>(b, view);
        MutexProtocol<DecentralizedMessage> pa = create(a, view, fxA);
        MutexProtocol<DecentralizedMessage> pc1 = create(c1, view, new RecordingEffects<>(c1, view));
        MutexProtocol<DecentralizedMessage> pb = create(b, view, fxB);
        pa.onRequest(); // A votes for itself (replica c0)
        pb.onRequest(); // B votes for itself (replica c2)
        fxA.drainSent();
        fxB.drainSent();
        pc1.onMessage(a, new Request(1, 1));          // c1 votes for A
        pa.onMessage(c1, new Grant(1, 0));
        pb.onMessage(a, new Deny(1, false));                 // c0 refuses B
        pa.onMessage(b, new Deny(1, false));                 // c2 refuses A
        assertEquals(1, fxA.drainGrants().size(), "A holds with 2 of 3 votes");
        pc1 = create(c1, view, new RecordingEffects<>(c1, view)); // c1 restarts and forgets its vote
        pc1.onMessage(b, new Request(1, 1));          // and votes for B
        pb.onMessage(c1, new Grant(1, 0));
        assertEquals(1, fxB.drainGrants().size(), "B holds too: ME1 violated, as docs/algorithms.md DEC-4 constructs");
    }

    private static final View TWO = View.ofRange(1, 2);
    private static final NodeId A = NodeId.of(0);
    private static final NodeId B = NodeId.of(1);

    /** A (node 0 of two, default options) requests and holds with B's vote. */
    private static MutexProtocol<DecentralizedMessage> holdingWithBsVote(RecordingEffects<DecentralizedMessage> fxA) {
        MutexProtocol<DecentralizedMessage> pa = DEFINITION.create(new ProtocolContext<>(A, TWO, fxA, ProtocolOptions.NONE));
        pa.onRequest();
        pa.onMessage(B, new Grant(1, 0));
        return pa;
    }

    /**
     * The courtesy rule: A holds and its replica refuses B's third attempt, so A's next request first waits a
     * short back-off (1 .. B, 10 ms with the default base) while B, told that A's replica keeps its vote for it,
     * retries as soon; once A's replica has voted for B, A owes nothing and asks at once again.
     */
    @Test
    void aHolderThatRefusedOthersWaitsBeforeItsNextRequest() {
        RecordingEffects<DecentralizedMessage> fxA = new RecordingEffects<>(A, TWO);
        MutexProtocol<DecentralizedMessage> pa = holdingWithBsVote(fxA);
        assertEquals(1, fxA.drainGrants().size(), "A holds");
        fxA.drainSent();
        pa.onMessage(B, new Request(5, 3)); // B's third attempt is refused by A's replica
        assertEquals(List.of(new RecordingEffects.Sent<DecentralizedMessage>(B, new Deny(5, true))), fxA.drainSent());
        pa.onRelease();
        fxA.drainSent();
        pa.onRequest();
        assertEquals(List.of(), fxA.drainSent(), "A does not ask at once");
        long wait = fxA.timers().get(Decentralized.BACKOFF);
        assertTrue(wait >= 1 && wait <= 10, "a wait of 1..B, got " + wait);
        pa.onTimer(Decentralized.BACKOFF);
        assertEquals(1, fxA.drainSent().size(), "then A asks B's replica");
    }

    /** The courtesy is paid once A's replica has voted for the client it refused: A then asks at once. */
    @Test
    void aHolderWhoseReplicaVotedForTheRefusedClientAsksAtOnce() {
        RecordingEffects<DecentralizedMessage> fxA = new RecordingEffects<>(A, TWO);
        MutexProtocol<DecentralizedMessage> pa = holdingWithBsVote(fxA);
        pa.onMessage(B, new Request(5, 3)); // refused while A holds
        pa.onRelease();
        pa.onMessage(B, new Request(6, 4)); // A's replica is free again: it votes for B
        fxA.drainSent();
        pa.onMessage(B, new Release(6, 0));
        pa.onRequest();
        assertEquals(List.of(new RecordingEffects.Sent<DecentralizedMessage>(B, new Request(2, 1))), fxA.drainSent());
    }

    /** Without contention a holder owes no courtesy: its next request asks at once. */
    @Test
    void anUncontendedHolderAsksAtOnce() {
        RecordingEffects<DecentralizedMessage> fxA = new RecordingEffects<>(A, TWO);
        MutexProtocol<DecentralizedMessage> pa = holdingWithBsVote(fxA);
        pa.onRelease();
        fxA.drainSent();
        pa.onRequest();
        assertEquals(List.of(new RecordingEffects.Sent<DecentralizedMessage>(B, new Request(2, 1))), fxA.drainSent());
    }

    private static final View THREE = View.ofRange(1, 3);
    private static final NodeId C = NodeId.of(2);

    /** A's replica in a view of three, its vote given to B's first attempt. */
    private static MutexProtocol<DecentralizedMessage> replicaVotingForB(RecordingEffects<DecentralizedMessage> fxA) {
        MutexProtocol<DecentralizedMessage> pa = DEFINITION.create(new ProtocolContext<>(A, THREE, fxA, ProtocolOptions.NONE));
        pa.onMessage(B, new Request(1, 1));
        assertEquals(List.of(new RecordingEffects.Sent<DecentralizedMessage>(B, new Grant(1, 0))), fxA.drainSent());
        return pa;
    }

    /**
     * Rule 11, ageing: a replica whose vote is taken keeps its next free vote for the refused client that has
     * tried most (and says so in its DENY); a fresher request is refused until that client comes back.
     */
    @Test
    void aReplicaKeepsItsFreedVoteForTheClientThatWaitedLongest() {
        RecordingEffects<DecentralizedMessage> fxA = new RecordingEffects<>(A, THREE);
        MutexProtocol<DecentralizedMessage> pa = replicaVotingForB(fxA);
        pa.onMessage(C, new Request(1, 3)); // C's third attempt: refused, and reserved
        assertEquals(List.of(new RecordingEffects.Sent<DecentralizedMessage>(C, new Deny(1, true))), fxA.drainSent());
        assertTrue(fxA.timers().containsKey(Decentralized.RESERVE), "the reservation lapses on a timer");
        pa.onMessage(B, new Release(1, 0)); // the vote is free again
        pa.onMessage(B, new Request(2, 1)); // B's fresh request has tried less than C
        assertEquals(List.of(new RecordingEffects.Sent<DecentralizedMessage>(B, new Deny(2, false))), fxA.drainSent());
        pa.onMessage(C, new Request(2, 4)); // C comes back: it gets the vote
        assertEquals(List.of(new RecordingEffects.Sent<DecentralizedMessage>(C, new Grant(2, 0))), fxA.drainSent());
        assertFalse(fxA.timers().containsKey(Decentralized.RESERVE), "served: the reservation is over");
    }

    /**
     * Rule 11's exception: a newer attempt of the client holding the vote keeps the vote (its RELEASE, with its
     * token, may still be on the way), and the reservation of the client that waited longest stands.
     */
    @Test
    void aHoldersNewerAttemptKeepsTheVoteAndTheReservationStands() {
        RecordingEffects<DecentralizedMessage> fxA = new RecordingEffects<>(A, THREE);
        MutexProtocol<DecentralizedMessage> pa = replicaVotingForB(fxA);
        pa.onMessage(C, new Request(1, 3)); // reserved for C
        pa.onMessage(B, new Request(2, 1)); // B's newer attempt, before its RELEASE of attempt 1
        assertEquals(List.of(new RecordingEffects.Sent<DecentralizedMessage>(C, new Deny(1, true)),
                new RecordingEffects.Sent<DecentralizedMessage>(B, new Grant(2, 0))), fxA.drainSent());
        pa.onMessage(B, new Release(2, 0));
        pa.onMessage(B, new Request(3, 1)); // C still goes first
        assertEquals(List.of(new RecordingEffects.Sent<DecentralizedMessage>(B, new Deny(3, false))), fxA.drainSent());
        pa.onMessage(C, new Request(2, 4));
        assertEquals(List.of(new RecordingEffects.Sent<DecentralizedMessage>(C, new Grant(2, 0))), fxA.drainSent());
    }

    /** Rule 11: a request that has tried more than the reserved client takes the reservation. */
    @Test
    void aClientThatTriedMoreTakesTheReservation() {
        RecordingEffects<DecentralizedMessage> fxA = new RecordingEffects<>(A, THREE);
        MutexProtocol<DecentralizedMessage> pa = DEFINITION.create(new ProtocolContext<>(A, THREE, fxA, ProtocolOptions.NONE));
        pa.onRequest(); // A's own client takes A's vote
        pa.onMessage(B, new Request(1, 2));
        pa.onMessage(C, new Request(1, 5)); // C has tried more than B: the reservation is C's
        List<RecordingEffects.Sent<DecentralizedMessage>> sent = fxA.drainSent();
        assertTrue(sent.contains(new RecordingEffects.Sent<DecentralizedMessage>(B, new Deny(1, true))), sent.toString());
        assertTrue(sent.contains(new RecordingEffects.Sent<DecentralizedMessage>(C, new Deny(1, true))), sent.toString());
        pa.onMessage(B, new Deny(1, false));
        pa.onMessage(C, new Deny(1, false)); // A's attempt fails: its own vote is free again
        fxA.drainSent();
        pa.onMessage(B, new Request(2, 3)); // B has tried less than C
        assertEquals(List.of(new RecordingEffects.Sent<DecentralizedMessage>(B, new Deny(2, false))), fxA.drainSent());
        pa.onMessage(C, new Request(2, 6));
        assertEquals(List.of(new RecordingEffects.Sent<DecentralizedMessage>(C, new Grant(2, 0))), fxA.drainSent());
    }

    /** Rule 11: a reserved client that does not come back in time loses the reservation; a view change ends it too. */
    @Test
    void aReservationLapsesOnItsTimerAndAtAViewChange() {
        RecordingEffects<DecentralizedMessage> fxA = new RecordingEffects<>(A, THREE);
        MutexProtocol<DecentralizedMessage> pa = replicaVotingForB(fxA);
        pa.onMessage(C, new Request(1, 3));
        pa.onMessage(B, new Release(1, 0));
        fxA.drainSent();
        long lapse = fxA.timers().get(Decentralized.RESERVE);
        assertEquals(DecentralizedDefinition.DEFAULT_REPLY_TIMEOUT_MS + 4 * 10, lapse, "reply timeout + 4 B");
        pa.onTimer(Decentralized.RESERVE);
        pa.onMessage(B, new Request(2, 1));
        assertEquals(List.of(new RecordingEffects.Sent<DecentralizedMessage>(B, new Grant(2, 0))), fxA.drainSent());

        RecordingEffects<DecentralizedMessage> fxV = new RecordingEffects<>(A, THREE);
        MutexProtocol<DecentralizedMessage> pv = replicaVotingForB(fxV);
        pv.onMessage(C, new Request(1, 3));
        assertTrue(fxV.timers().containsKey(Decentralized.RESERVE));
        pv.onView(View.ofRange(2, 3));
        assertFalse(fxV.timers().containsKey(Decentralized.RESERVE), "a new view ends the reservation");
    }

    /**
     * Rule 11, the client's side: an attempt refused by a replica that keeps its vote for it retries after a short
     * back-off (1 .. B), not the exponential one of its many failures.
     */
    @Test
    void aReservedClientRetriesSoon() {
        RecordingEffects<DecentralizedMessage> fxA = new RecordingEffects<>(A, TWO);
        MutexProtocol<DecentralizedMessage> pa = DEFINITION.create(new ProtocolContext<>(A, TWO, fxA, ProtocolOptions.NONE));
        pa.onRequest(); // attempt 1: A's own vote, B's refused
        pa.onMessage(B, new Deny(1, false));
        for (long attempt = 2; attempt <= 6; attempt++) { // five more refusals: the window grows to B·2^6
            pa.onTimer(Decentralized.BACKOFF);
            pa.onMessage(B, new Deny(attempt, false));
        }
        assertTrue(fxA.timers().get(Decentralized.BACKOFF) <= 10 << 6);
        pa.onTimer(Decentralized.BACKOFF);
        pa.onMessage(B, new Deny(7, true)); // B's replica keeps its vote for A
        long wait = fxA.timers().get(Decentralized.BACKOFF);
        assertTrue(wait >= 1 && wait <= 10, "a short back-off 1..B after a reserved DENY, got " + wait);
    }

    private static MutexProtocol<DecentralizedMessage> create(NodeId self, View view, RecordingEffects<DecentralizedMessage> fx) {
        return DEFINITION.create(new ProtocolContext<>(self, view, fx, ProtocolOptions.NONE.with(DecentralizedDefinition.QUORUM, "2")));
    }

    /** DEC-5: Tanenbaum's violation probability, exactly the listed values. */
    @Test
    void violationProbability() {
        assertClose(6.93e-6, DecentralizedDefinition.violationProbability(8, 5, 3.0 / 3600));
        assertClose(7.22e-12, DecentralizedDefinition.violationProbability(8, 6, 3.0 / 3600));
        assertClose(2.13e-43, DecentralizedDefinition.violationProbability(32, 24, 10.0 / 10800));
        assertTrue(DecentralizedDefinition.violationProbability(32, 24, 10.0 / 10800) < 1e-40);
        assertClose(9.37e-5, DecentralizedDefinition.violationProbability(32, 17, 3.0 / 3600));
        assertEquals(1.0, DecentralizedDefinition.violationProbability(3, 2, 1.0), 1e-12);
        assertEquals(0.0, DecentralizedDefinition.violationProbability(3, 2, 0.0));
        assertThrows(IllegalArgumentException.class, () -> DecentralizedDefinition.violationProbability(8, 4, 0.1));
        assertThrows(IllegalArgumentException.class, () -> DecentralizedDefinition.violationProbability(8, 9, 0.1));
    }

    private static void assertClose(double expected, double actual) {
        assertTrue(Math.abs(actual - expected) <= expected * 0.005, "expected ~" + expected + ", got " + actual);
    }

    /** DEC-6: two clients whose requests reach the coordinators in alternating order both get fewer than m votes and back off; the back-off delays are the same in a second run. */
    @Test
    void splitVoteBacksOffReproducibly() {
        List<List<Long>> delays = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            Cluster<DecentralizedMessage> c = new Cluster<>(DEFINITION, 4); // m = 3
            c.request(0);                   // c0 votes for 0
            c.request(1);                   // c1 votes for 1
            c.deliver(0, 2, Request.class); // c2 votes for 0
            c.deliver(1, 3, Request.class); // c3 votes for 1
            c.deliverAll();                 // every other request is refused; 2 < 3 votes each
            assertFalse(c.inCS(0) || c.inCS(1));
            assertEquals(2, c.messagesSent(Grant.class));
            assertEquals(4, c.messagesSent(Deny.class));
            assertEquals(2, c.messagesSent(Release.class)); // each returns its remote vote
            assertTrue(c.timers(0).containsKey(Decentralized.BACKOFF) && c.timers(1).containsKey(Decentralized.BACKOFF));
            delays.add(List.of(c.timers(0).get(Decentralized.BACKOFF), c.timers(1).get(Decentralized.BACKOFF)));
            c.fireTimer(0, Decentralized.BACKOFF); // 0's back-off ends first: it gets every vote
            c.deliverAll();
            assertTrue(c.inCS(0));
            c.release(0);
            c.fireTimer(1, Decentralized.BACKOFF);
            c.deliverAll();
            assertTrue(c.inCS(1));
            assertEquals(List.of(), c.violations());
        }
        assertEquals(delays.get(0), delays.get(1), "seeded back-off");
    }

    /** Options: quorum accepts majority or an integer, back-off and seed integers; anything else is refused naming the value. */
    @Test
    void options() {
        DEFINITION.validateOptions(ProtocolOptions.NONE.with("quorum", "majority").with("backoff-ms", "5").with("seed", "-3"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DEFINITION.validateOptions(ProtocolOptions.NONE.with("quorum", "most")));
        assertTrue(e.getMessage().contains("quorum=most"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DEFINITION.validateOptions(ProtocolOptions.NONE.with("backoff-ms", "0")));
        View view = View.ofRange(1, 5);
        Decentralized d = (Decentralized) DEFINITION.create(new ProtocolContext<>(NodeId.of(0), view,
                new RecordingEffects<>(NodeId.of(0), view), ProtocolOptions.NONE.with("quorum", "2")));
        assertEquals(3, d.votesNeeded(view)); // raised to a strict majority
        assertEquals(3, d.votesNeeded(View.ofRange(2, 4)));
        assertEquals(2, d.votesNeeded(View.ofRange(2, 2)));
        Decentralized all = (Decentralized) DEFINITION.create(new ProtocolContext<>(NodeId.of(0), view,
                new RecordingEffects<>(NodeId.of(0), view), ProtocolOptions.NONE.with("quorum", "all")));
        assertEquals(5, all.votesNeeded(view));
        assertEquals(7, all.votesNeeded(View.ofRange(3, 7)));
    }

    /**
     * docs/algorithms.md A2 rule 9: node 2 has not answered when node 0's reply timeout fires; node 0
     * counts it as DENY, has 2 of 3 votes and enters. Node 2's GRANT then arrives late: node 0 keeps
     * it with the others and returns it at exit, so node 1 gets node 2's vote afterwards (it is not
     * stranded).
     */
    @Test
    void replyTimeoutDecidesAndALateVoteIsReturned() {
        Cluster<DecentralizedMessage> c = new Cluster<>(DEFINITION, 3);
        c.request(0);
        assertEquals(DecentralizedDefinition.DEFAULT_REPLY_TIMEOUT_MS, c.timers(0).get(Decentralized.REPLY));
        Cluster.Envelope<DecentralizedMessage> slow = c.peek(0, 2, Request.class);
        c.drop(slow);
        c.deliverAll(); // node 1 grants
        assertFalse(c.inCS(0), "waits for node 2");
        c.fireTimer(0, Decentralized.REPLY);
        assertTrue(c.inCS(0), "two of three votes once node 2 counts as DENY");
        c.deliver(c.duplicate(slow)); // node 2 grants, late
        c.deliverAll();
        c.release(0);
        c.deliverAll();
        assertEquals(2, c.messagesSent(Release.class), "both votes returned, the late one included");
        c.request(1);
        c.deliverAll();
        assertTrue(c.inCS(1));
        c.release(1);
        c.deliverAll();
        assertEquals(List.of(), c.violations());
    }
}
