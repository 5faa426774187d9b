package io.dlock.mutex.suzukikasami;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.mutex.suzukikasami.SuzukiKasamiMessage.Request;
import io.dlock.mutex.suzukikasami.SuzukiKasamiMessage.Token;
import io.dlock.mutex.testing.Cluster;
import io.dlock.mutex.testing.Cluster.Envelope;
import io.dlock.mutex.testing.VariantDefinition;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.NodeId;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Suzuki-Kasami (docs/algorithms.md A7): claims SK-1 to SK-5, duplicates and view changes. */
class SuzukiKasamiTest {

    private static final SuzukiKasamiDefinition SK = new SuzukiKasamiDefinition();

    /** SK-1: an entry by a node without the token costs N-1 REQUEST + 1 TOKEN; by the idle holder 0. */
    @Test
    void entryCostsNMessagesOrZero() {
        for (int n = 2; n <= 8; n++) {
            Cluster<SuzukiKasamiMessage> c = new Cluster<>(SK, n);
            c.request(n - 1);
            c.deliverAll();
            assertTrue(c.inCS(n - 1));
            assertEquals(n - 1, c.messagesSent(Request.class));
            assertEquals(1, c.messagesSent(Token.class));
            c.release(n - 1);
            c.request(n - 1);
            assertTrue(c.inCS(n - 1), "the idle holder enters at once");
            assertEquals(n, c.messagesSent());
            assertEquals(List.of(), c.violations());
        }
    }

    /** SK-2: N=3, token idle at 0: node 1's request costs 2 REQUEST + 1 TOKEN (rule 2 hand-off); its next request 0. */
    @Test
    void workedExampleN3() {
        Cluster<SuzukiKasamiMessage> c = new Cluster<>(SK, 3);
        c.request(1);
        c.deliver(1, 0, Request.class);
        Envelope<SuzukiKasamiMessage> token = c.peek(0, 1, Token.class);
        assertTrue(token != null, "the idle holder sends the token on receiving the request");
        c.deliverAll();
        assertTrue(c.inCS(1));
        assertEquals(3, c.messagesSent());
        c.release(1);
        c.request(1);
        assertTrue(c.inCS(1));
        assertEquals(3, c.messagesSent());
    }

    /** SK-3: a delayed duplicate REQUEST(j, sn) with sn <= LN[j] sends no TOKEN and joins no queue. */
    @Test
    void outdatedRequestIsIgnored() {
        Cluster<SuzukiKasamiMessage> c = new Cluster<>(SK, 3);
        c.request(1);
        Envelope<SuzukiKasamiMessage> toTwo = c.peek(1, 2, Request.class);
        c.deliverAll();
        c.release(1);                       // LN[1] = 1, token idle at 1
        c.request(2);
        c.deliverAll();                     // the token goes 1 -> 2
        c.release(2);                       // token idle at 2, LN[1] = 1
        int before = c.messagesSent();
        c.duplicate(toTwo);                 // REQUEST(1, 1) reaches the holder again, late
        c.deliverAll();
        assertEquals(before, c.messagesSent(), "no TOKEN for an outdated request");
        c.request(2);
        c.release(2);                       // the exit appends nobody: still no TOKEN
        assertEquals(before, c.messagesSent());
        assertEquals(List.of(), c.violations());
    }

    /** SK-4: at exit Q receives exactly the nodes with RN[j] == LN[j] + 1, ascending; the head gets the token, the rest ride in it. */
    @Test
    void exitQueuesPendingRequestsInAscendingOrder() {
        Cluster<SuzukiKasamiMessage> c = new Cluster<>(SK, 5);
        c.request(0);
        c.request(3);
        c.request(1);
        c.request(4);
        for (long j : new long[] {3, 1, 4}) {
            c.deliver(j, 0, Request.class);
        }
        c.release(0);
        Envelope<SuzukiKasamiMessage> e = c.peek(0, 1, Token.class);
        Token t = (Token) e.message();
        assertEquals(List.of(NodeId.of(3), NodeId.of(4)), t.queue());
        assertEquals(1, t.hop());
        c.deliverAll();
        for (long j : new long[] {1, 3, 4}) {
            assertTrue(c.inCS(j), "node " + j + " next, in queue order");
            c.release(j);
            c.deliverAll();
        }
        assertEquals(List.of(NodeId.of(0), NodeId.of(1), NodeId.of(3), NodeId.of(4)), c.entries());
        assertEquals(List.of(), c.violations());
    }

    /** SK-5: without rule 2's hand-off (the source notes' text), a request waits forever while the token is idle elsewhere. */
    @Test
    void withoutIdleHandOffARequesterStarves() {
        Cluster<SuzukiKasamiMessage> c = new Cluster<>(seedOnly(), 3);
        c.request(1);
        c.deliverAll();
        assertTrue(c.waiting(1));
        assertEquals(0, c.messagesSent(Token.class));
        c.checkNobodyWaits();
        assertEquals(1, c.violations().size(), "ME3 violated");
        // with the GAP-FILL the same schedule grants
        Cluster<SuzukiKasamiMessage> fixed = new Cluster<>(SK, 3);
        fixed.request(1);
        fixed.deliverAll();
        assertTrue(fixed.inCS(1));
    }

    /** A duplicated TOKEN, delivered after its receiver used it and asked again, is ignored. */
    @Test
    void duplicatedTokenIsIgnored() {
        Cluster<SuzukiKasamiMessage> c = new Cluster<>(SK, 3);
        c.request(2);
        c.deliver(2, 0, Request.class);
        Envelope<SuzukiKasamiMessage> token = c.peek(0, 2, Token.class);
        c.deliverAll();
        c.release(2);
        c.request(0);
        c.deliverAll();                 // the token goes back to 0
        assertTrue(c.inCS(0));
        c.request(2);                   // 2 waits for request 2
        c.duplicate(token);             // the old token (request 1) arrives again
        c.deliver(c.peek(0, 2, Token.class));
        assertFalse(c.inCS(2));
        c.release(0);
        c.deliverAll();
        assertTrue(c.inCS(2));
        assertEquals(List.of(), c.violations());
    }

    /** The holder in the CS leaves the view: the census regenerates one token whose LN keeps served requests served, and every waiter is granted once. */
    @Test
    void viewChangeRegeneratesTheTokenAndKeepsServedRequestsServed() {
        Cluster<SuzukiKasamiMessage> c = new Cluster<>(SK, 4);
        c.request(1);
        c.deliverAll();
        c.release(1);                   // LN[1] = 1 in the token at 1
        c.request(2);
        c.deliverAll();                 // token to 2
        c.request(3);
        c.request(1);                   // REQUEST(1, 2) and REQUEST(3, 1) in flight
        c.changeView(c.nextView(0, 1, 3)); // 2 (holder, in the CS) leaves; in-flight messages lost
        c.deliverAll();
        assertTrue(c.inCS(1) || c.inCS(3));
        long first = c.inCS(1) ? 1 : 3;
        c.release(first);
        c.deliverAll();
        long second = first == 1 ? 3 : 1;
        assertTrue(c.inCS(second));
        c.release(second);
        c.deliverAll();
        assertTrue(c.inFlight().isEmpty());
        assertEquals(List.of(), c.violations());
    }

    /** Random schedules with duplicates, joins and leaves, and creation on first use: safe and live. */
    @Test
    void randomRunsAcrossViewChangesAndLazyCreation() {
        for (long seed = 0; seed < 100; seed++) {
            Cluster<SuzukiKasamiMessage> c = seed % 2 == 0 ? Cluster.lazy(SK, 5, io.dlock.protocol.ProtocolOptions.NONE)
                    : new Cluster<>(SK, 5);
            c.runWorkload(new Random(seed), Set.copyOf(c.members()), 4, false, 0.05);
            assertEquals(List.of(), c.violations(), "seed " + seed);
            assertEquals(20, c.entries().size(), "seed " + seed);
        }
    }

    /** The source notes' rules without the GAP-FILL of rule 2 (SK-5's regression). */
    private static MutexProtocolDefinition<SuzukiKasamiMessage> seedOnly() {
        return VariantDefinition.of(SK, "suzuki-kasami-seed-only", context -> new SuzukiKasami(context, false));
    }
}
