package io.dlock.mutex.naimitrehel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.mutex.common.CensusMessage;
import io.dlock.mutex.common.CensusOutcome;
import io.dlock.mutex.common.CensusReport;
import io.dlock.mutex.naimitrehel.NaimiTrehel.Ft;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.CandidateElected;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Census;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Consult;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.ConsultReply;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Election;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Query;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Request;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Token;
import io.dlock.mutex.testing.Cluster;
import io.dlock.mutex.testing.TimedRandomRun;
import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.spi.MalformedMessageException;
import io.dlock.NodeId;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Naimi-Trehel, docs/algorithms.md Part G NT-1..NT-7, duplicates and token loss. docs/algorithms.md's node {@code k} is
 * the node with id {@code k-1} here (rank order); node 1 (id 0) is the initial root and holder.
 */
class NaimiTrehelTest {

    private static final NaimiTrehelDefinition DEF = new NaimiTrehelDefinition();

    private static NaimiTrehel nt(Cluster<NaimiTrehelMessage> c, long node) {
        return (NaimiTrehel) c.protocol(node);
    }

    /**
     * The recovery state of {@code node} (docs/algorithms.md A9 rules 5-17) as its effects show it: its running
     * timer (TWAIT: WAITING, TOBS: OBSERVER, none: NORMAL) and, under TELEC, what it broadcast last
     * (CONSULT: CONSULTING, QUERY: QUERY, ELECTION: CANDIDATE).
     */
    private static Ft recoveryState(Cluster<NaimiTrehelMessage> c, long node) {
        Set<String> timers = c.timers(node).keySet();
        if (timers.isEmpty()) {
            return Ft.NORMAL;
        } else if (timers.equals(Set.of(NaimiTrehel.TWAIT))) {
            return Ft.WAITING;
        } else if (timers.equals(Set.of(NaimiTrehel.TOBS))) {
            return Ft.OBSERVER;
        } else if (timers.equals(Set.of(NaimiTrehel.TELEC))) {
            List<Cluster.Envelope<NaimiTrehelMessage>> sent = c.sent();
            for (int i = sent.size() - 1; i >= 0; i--) {
                NaimiTrehelMessage m = sent.get(i).message();
                if (sent.get(i).from().equals(id(node))) {
                    if (m instanceof Consult) {
                        return Ft.CONSULTING;
                    } else if (m instanceof Query) {
                        return Ft.QUERY;
                    } else if (m instanceof Election) {
                        return Ft.CANDIDATE;
                    }
                }
            }
        }
        throw new AssertionError("node " + node + " runs timers " + timers + ", which match no recovery state");
    }

    private static NodeId id(long v) {
        return NodeId.of(v);
    }

    /** Delivers everything in flight, dropping (as a crash would) every message to {@code crashed}. */
    private static void deliverAllExcept(Cluster<NaimiTrehelMessage> c, long crashed) {
        while (!c.inFlight().isEmpty()) {
            Cluster.Envelope<NaimiTrehelMessage> e = c.inFlight().get(0);
            if (e.to().value() == crashed) {
                c.drop(e);
            } else {
                c.deliver(e);
            }
        }
    }

    private static int tokens(Cluster<NaimiTrehelMessage> c, long... except) {
        int count = 0;
        outer:
        for (NodeId m : c.members()) {
            for (long x : except) {
                if (m.value() == x) {
                    continue outer;
                }
            }
            count += nt(c, m.value()).hasToken() ? 1 : 0;
        }
        return count;
    }

    /**
     * NT-1, the source notes' worked example with the root relabelled (our initial root is node 1, the
     * source notes' is node 5: swap the names 1 and 5): node 5's entry costs 2 messages, node 3's 3, and the
     * LAST pointers end as the source notes', relabelled.
     */
    @Test
    void seedExample() {
        Cluster<NaimiTrehelMessage> c = new Cluster<>(DEF, 5);
        c.request(4); // the source notes' node 1
        c.deliverAll();
        assertTrue(c.inCS(4));
        assertEquals(2, c.messagesSent());
        c.request(2); // node 3: REQUEST 3 -> root, root forwards to the holder
        c.deliverAll();
        assertEquals(id(2), nt(c, 4).next());
        c.release(4);
        c.deliverAll();
        assertTrue(c.inCS(2));
        assertEquals(5, c.messagesSent());
        assertEquals(2, c.messagesSent(Request.class) - 1); // REQUEST 3->1 and 1->5
        // source notes: LAST = {1:3, 2:5, 3:3, 4:5, 5:3}; relabelled (1<->5): {5:3, 2:1, 3:3, 4:1, 1:3}
        long[] expectedLast = {2, 0, 2, 0, 2};
        for (int k = 0; k < 5; k++) {
            assertEquals(id(expectedLast[k]), nt(c, k).last(), "LAST of node " + (k + 1));
            assertNull(nt(c, k).next());
        }
        assertTrue(nt(c, 2).hasToken());
        assertEquals(List.of(), c.violations());
    }

    /** NT-2: the idle root enters with no message. */
    @Test
    void idleRootEntersWithoutMessages() {
        Cluster<NaimiTrehelMessage> c = new Cluster<>(DEF, 4);
        c.request(0);
        assertTrue(c.inCS(0));
        c.release(0);
        c.request(0);
        assertTrue(c.inCS(0));
        assertEquals(0, c.messagesSent());
    }

    /**
     * NT-3: with all LAST = 1, nodes N, N-1, ..., 1 enter in turn; then node N's request costs exactly
     * N messages (N-1 REQUEST hops and the TOKEN).
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
    void worstCaseIsNMessages(int n) {
        Cluster<NaimiTrehelMessage> c = new Cluster<>(DEF, n);
        for (int k = n - 1; k >= 0; k--) {
            c.request(k);
            c.deliverAll();
            c.release(k);
            c.deliverAll();
        }
        int before = c.messagesSent();
        c.request(n - 1);
        c.deliverAll();
        assertTrue(c.inCS(n - 1));
        assertEquals(n, c.messagesSent() - before);
        assertEquals(List.of(), c.violations());
    }

    /** NT-4: random non-FIFO schedules (with duplicates): ME1, increasing fences, every request granted, the token is never lost. */
    @Test
    void randomSchedulesAreSafeAndLive() {
        for (int seed = 0; seed < 300; seed++) {
            int n = 2 + seed % 7;
            Cluster<NaimiTrehelMessage> c = new Cluster<>(DEF, n);
            c.runWorkload(new Random(seed), c.members(), 4, false, seed % 2 == 0 ? 0 : 0.1);
            assertEquals(List.of(), c.violations(), "seed " + seed);
            assertEquals(4 * n, c.entries().size(), "seed " + seed);
            assertEquals(1, tokens(c), "seed " + seed);
            assertEquals(0, c.messagesSent(Consult.class), "no recovery without a fault, seed " + seed);
        }
    }

    /** NT-4: the token visits the waiting nodes in the order of the NEXT chain. */
    @Test
    void tokenFollowsNextChain() {
        Cluster<NaimiTrehelMessage> c = new Cluster<>(DEF, 5);
        c.request(0);
        for (long k : new long[] {3, 1, 4, 2}) {
            c.request(k);
            c.deliverAll();
        }
        assertEquals(id(3), nt(c, 0).next());
        assertEquals(id(1), nt(c, 3).next());
        assertEquals(id(4), nt(c, 1).next());
        assertEquals(id(2), nt(c, 4).next());
        for (long k : new long[] {0, 3, 1, 4, 2}) {
            assertTrue(c.inCS(k));
            c.release(k);
            c.deliverAll();
        }
        assertEquals(List.of(id(0), id(3), id(1), id(4), id(2)), c.entries());
    }

    /** Puts the idle token at node 5 (id 4): node 5 requests and enters from the initial root, then leaves. */
    private static Cluster<NaimiTrehelMessage> tokenIdleAtNode5() {
        Cluster<NaimiTrehelMessage> c = new Cluster<>(DEF, 5);
        c.request(4);
        c.deliverAll();
        c.release(4);
        assertTrue(nt(c, 4).hasToken());
        return c;
    }

    /**
     * NT-5: the idle holder 5 crashes and node 1 requests: REQUEST (lost), CONSULT x4, QUERY x4,
     * ELECTION x4 (2, 3, 4 become observers), CANDIDATE_ELECTED x4: 17 messages; node 1 regenerates
     * the token and enters; nodes 2-4 end with LAST = 1 and NEXT = nil.
     */
    @Test
    void crashedHolderIsReplacedBySeventeenMessages() {
        Cluster<NaimiTrehelMessage> c = tokenIdleAtNode5();
        int before = c.messagesSent();
        c.request(0);
        assertEquals(Ft.WAITING, recoveryState(c, 0));
        deliverAllExcept(c, 4); // the REQUEST to the crashed holder is lost
        c.fireTimer(0, NaimiTrehel.TWAIT);
        assertEquals(Ft.CONSULTING, recoveryState(c, 0));
        deliverAllExcept(c, 4);
        c.fireTimer(0, NaimiTrehel.TELEC);
        assertEquals(Ft.QUERY, recoveryState(c, 0));
        deliverAllExcept(c, 4);
        c.fireTimer(0, NaimiTrehel.TELEC);
        assertEquals(Ft.CANDIDATE, recoveryState(c, 0));
        deliverAllExcept(c, 4);
        for (long k = 1; k <= 3; k++) {
            assertEquals(Ft.OBSERVER, recoveryState(c, k), "node " + (k + 1));
        }
        c.fireTimer(0, NaimiTrehel.TELEC);
        assertTrue(c.inCS(0));
        deliverAllExcept(c, 4);
        assertEquals(17, c.messagesSent() - before);
        assertEquals(4, c.messagesSent(Consult.class));
        assertEquals(4, c.messagesSent(Query.class));
        assertEquals(4, c.messagesSent(Election.class));
        assertEquals(4, c.messagesSent(CandidateElected.class));
        for (long k = 1; k <= 3; k++) {
            assertEquals(id(0), nt(c, k).last());
            assertNull(nt(c, k).next());
            assertEquals(Ft.NORMAL, recoveryState(c, k));
            assertTrue(c.timers(k).isEmpty());
        }
        assertEquals(1, tokens(c, 4), "exactly one token among the live nodes");
        assertEquals(List.of(), c.violations());
    }

    /**
     * NT-6: nodes 1 and 3 both lose their requests and time out together: node 1 (smallest) wins,
     * node 3 becomes an observer, re-requests from node 1 and enters after node 1 leaves.
     */
    @Test
    void smallestCandidateWins() {
        Cluster<NaimiTrehelMessage> c = tokenIdleAtNode5();
        c.request(0);
        c.request(2);
        // both REQUESTs are lost (the source notes' setting: both went to the crashed node 5)
        c.drop(c.peek(0, 4, Request.class));
        c.drop(c.peek(2, 0, Request.class));
        for (String timer : new String[] {NaimiTrehel.TWAIT, NaimiTrehel.TELEC, NaimiTrehel.TELEC}) {
            c.fireTimer(0, timer);
            c.fireTimer(2, timer);
            deliverAllExcept(c, 4);
        }
        assertEquals(Ft.CANDIDATE, recoveryState(c, 0));
        assertEquals(Ft.OBSERVER, recoveryState(c, 2));
        c.fireTimer(0, NaimiTrehel.TELEC);
        assertTrue(c.inCS(0));
        deliverAllExcept(c, 4);
        assertEquals(id(2), nt(c, 0).next(), "node 3 re-requested from node 1");
        c.release(0);
        deliverAllExcept(c, 4);
        assertTrue(c.inCS(2));
        assertEquals(1, tokens(c, 4));
        assertEquals(List.of(), c.violations());
    }

    /** NT-7: a CONSULT_REPLY returns a consulting node to WAITING with no further broadcast. */
    @Test
    void consultReplyResumesWaiting() {
        Cluster<NaimiTrehelMessage> c = new Cluster<>(DEF, 4);
        c.request(0);
        c.request(1);
        c.deliverAll();
        assertEquals(id(1), nt(c, 0).next());
        int before = c.messagesSent();
        c.fireTimer(1, NaimiTrehel.TWAIT);
        c.deliverAll();
        assertEquals(Ft.WAITING, recoveryState(c, 1));
        assertTrue(c.timers(1).containsKey(NaimiTrehel.TWAIT));
        assertFalse(c.timers(1).containsKey(NaimiTrehel.TELEC));
        assertEquals(3 + 1, c.messagesSent() - before); // CONSULT x3, CONSULT_REPLY x1
        assertEquals(1, c.messagesSent(ConsultReply.class));
        c.release(0);
        c.deliverAll();
        assertTrue(c.inCS(1));
    }

    /**
     * Token loss: the TOKEN is dropped in flight; the requester's recovery regenerates exactly one
     * token; the lost token, when it reappears, is discarded (at the regenerating node, whose newer
     * token's (fence, hop) already refuses it; {@link #staleTokenIsRefusedByItsGenerationAlone} reaches
     * the generation rule); every later request is granted.
     */
    @Test
    void lostTokenIsRegeneratedAndTheStaleOneDiscarded() {
        Cluster<NaimiTrehelMessage> c = new Cluster<>(DEF, 5);
        c.request(0);
        c.request(3);
        c.deliverAll();
        c.release(0);
        Cluster.Envelope<NaimiTrehelMessage> lost = c.peek(0, 3, Token.class);
        c.drop(lost);
        assertEquals(0, tokens(c));
        c.fireTimer(3, NaimiTrehel.TWAIT);
        c.deliverAll(); // nobody has NEXT = 4 any more
        c.fireTimer(3, NaimiTrehel.TELEC);
        c.deliverAll(); // nobody has the token
        c.fireTimer(3, NaimiTrehel.TELEC);
        c.deliverAll(); // nobody else is a candidate
        c.fireTimer(3, NaimiTrehel.TELEC);
        assertTrue(c.inCS(3));
        c.deliverAll();
        assertEquals(1, tokens(c));
        c.duplicate(lost); // the lost token reappears
        c.deliverAll();
        assertEquals(1, tokens(c));
        assertTrue(c.inCS(3));
        c.release(3);
        for (long k = 0; k < 5; k++) {
            c.request(k);
            c.deliverAll();
            c.release(k);
            c.deliverAll();
        }
        assertEquals(1, tokens(c));
        assertEquals(7, c.entries().size());
        assertEquals(List.of(), c.violations());
    }

    /**
     * A stale token refused by the generation rule alone. Node 3's token and node 1's
     * REQUEST are both lost; both recover, node 1 (the smaller candidate) regenerates generation 1 and
     * enters, and node 3 learns of it (CANDIDATE_ELECTED). The lost token then reaches node 3, which
     * has never accepted a token (so the duplicate check on (fence, hop) lets it through): only
     * {@code generation 0 < 1} refuses it. Node 3 is served later by the regenerated token.
     */
    @Test
    void staleTokenIsRefusedByItsGenerationAlone() {
        Cluster<NaimiTrehelMessage> c = new Cluster<>(DEF, 5);
        c.request(0); // the root enters with the idle token
        c.request(3);
        c.deliverAll(); // NEXT(0) = 3
        c.release(0);
        Cluster.Envelope<NaimiTrehelMessage> lost = c.peek(0, 3, Token.class);
        c.drop(lost);
        c.request(1);
        c.drop(c.peek(1, 0, Request.class)); // node 1's request is lost too: nobody records it
        for (String phase : List.of(NaimiTrehel.TWAIT, NaimiTrehel.TELEC, NaimiTrehel.TELEC)) {
            c.fireTimer(1, phase); // CONSULT, QUERY, ELECTION: nobody answers either
            c.fireTimer(3, phase);
            c.deliverAll();
        }
        assertEquals(Ft.CANDIDATE, recoveryState(c, 1));
        assertEquals(Ft.OBSERVER, recoveryState(c, 3), "the smaller candidate wins");
        c.fireTimer(1, NaimiTrehel.TELEC); // rule 15: node 1 regenerates generation 1 and enters
        assertTrue(c.inCS(1));
        c.deliver(1, 3, CandidateElected.class); // node 3 learns of generation 1 and asks node 1 again
        assertFalse(nt(c, 3).hasToken());
        c.deliver(c.duplicate(lost)); // the token of generation 0 reaches node 3 at last
        assertFalse(c.inCS(3), "a token of an older generation must not be used");
        assertFalse(nt(c, 3).hasToken());
        assertEquals(1, tokens(c));
        c.deliverAll();
        c.release(1);
        c.deliverAll();
        assertTrue(c.inCS(3), "node 3 is served by the regenerated token");
        c.release(3);
        assertEquals(List.of(id(0), id(1), id(3)), c.entries());
        assertEquals(List.of(), c.violations());
    }

    /**
     * Random runs with token loss (2% per step) and timers that fire when nothing else can happen:
     * never two nodes in the CS, fences increase, and every request of every run is granted
     * ({@link TimedRandomRun#run} checks it and records a request left waiting as ME3).
     */
    @Test
    void randomTokenLossIsSafe() {
        for (int seed = 0; seed < 300; seed++) {
            int n = 2 + seed % 6;
            Cluster<NaimiTrehelMessage> c = new Cluster<>(DEF, n);
            boolean done = TimedRandomRun.run(c, new Random(seed), 3, 0.0, Token.class, 0.02, 200_000);
            assertEquals(List.of(), c.violations(), "seed " + seed);
            assertTrue(done, "seed " + seed + ": not every request granted: " + c.entries().size() + " of " + 3 * n);
        }
    }

    /** The wire format round-trips every message, census messages included. */
    @Test
    void codecRoundTrips() {
        MessageCodec<NaimiTrehelMessage> codec = DEF.codec();
        for (NaimiTrehelMessage m : List.of(new Request(id(3), 1), new Request(id(Long.MAX_VALUE), Long.MAX_VALUE),
                new Token(0, 0, 1, 0), new Token(7, 1L << 40, 9, 2), new Consult(4), new ConsultReply(4), new Query(5),
                new NaimiTrehelMessage.TokenPresent(5), new Election(6), new CandidateElected(1),
                new Census(new CensusMessage.Hello(3)), new Census(new CensusMessage.Query(3)),
                new Census(new CensusMessage.Report(new CensusReport(3, true, true, 9, 9, 2, false))),
                new Census(new CensusMessage.Done(new CensusOutcome(3, id(1), true, 1L << 33))))) {
            assertEquals(m, codec.fromBytes(codec.toBytes(m)));
        }
        assertThrows(MalformedMessageException.class, () -> codec.fromBytes(new byte[] {1, 3, 0}));
    }

    /** Options: the timeouts must be positive numbers, and the names are checked. */
    @Test
    void badOptionsAreRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Cluster<>(DEF, 2, ProtocolOptions.NONE.with(NaimiTrehelDefinition.TELEC, "-1")));
        assertTrue(e.getMessage().contains("telec"), e.getMessage());
        new Cluster<>(DEF, 2, ProtocolOptions.NONE.with(NaimiTrehelDefinition.TWAIT, "100")
                .with(NaimiTrehelDefinition.FAULT_TOLERANT, "false"));
    }

    /** Without the recovery (fault-tolerant=false) no timer is ever set. */
    @Test
    void noTimersWithoutRecovery() {
        Cluster<NaimiTrehelMessage> c = new Cluster<>(DEF, 3, ProtocolOptions.NONE.with(NaimiTrehelDefinition.FAULT_TOLERANT, "false"));
        c.request(0);
        c.request(2);
        c.deliverAll();
        assertTrue(c.timers(2).isEmpty());
        c.release(0);
        c.deliverAll();
        assertTrue(c.inCS(2));
    }
}
