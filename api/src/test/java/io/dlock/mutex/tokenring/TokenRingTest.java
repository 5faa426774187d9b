package io.dlock.mutex.tokenring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.DlockConfig;
import io.dlock.DlockConfigException;
import io.dlock.MutexAlgorithm;
import io.dlock.mutex.common.CensusMessage;
import io.dlock.mutex.testing.Cluster;
import io.dlock.mutex.testing.Cluster.Envelope;
import io.dlock.mutex.tokenring.TokenRingMessage.Token;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The token ring (docs/algorithms.md A5): claims TR-1 to TR-4, the idle pause, duplicates and view changes. */
class TokenRingTest {

    private static final TokenRingDefinition RING = new TokenRingDefinition();
    private static final ProtocolOptions NO_PAUSE = ProtocolOptions.NONE.with(TokenRingDefinition.IDLE_PAUSE_MS, "0");

    /** Ring[0] of a simulation starts the token by entering and leaving once (rule 5 at its first event). */
    private static Cluster<TokenRingMessage> startedRing(int n) {
        Cluster<TokenRingMessage> c = new Cluster<>(RING, n, NO_PAUSE);
        c.request(0);
        c.release(0);
        return c;
    }

    /** Delivers the one token in flight and returns its envelope. */
    private static Envelope<TokenRingMessage> hop(Cluster<TokenRingMessage> c) {
        List<Envelope<TokenRingMessage>> inFlight = c.inFlight();
        assertEquals(1, inFlight.size(), "exactly one message (the token) in flight: " + inFlight);
        c.deliver(inFlight.get(0));
        return inFlight.get(0);
    }

    /**
     * TR-1 and rule 7: one full circulation with no requester is exactly N TOKEN messages, in ring order; then the
     * token parks where the round ended (N-1 PARKED, once) and nothing more is sent.
     */
    @Test
    void oneIdleCirculationIsNMessagesThenTheTokenParks() {
        for (int n = 2; n <= 8; n++) {
            Cluster<TokenRingMessage> c = startedRing(n);
            int before = c.messagesSent() - 1; // the token 0 -> 1 just sent starts the circulation
            List<Long> visited = new ArrayList<>();
            Envelope<TokenRingMessage> e;
            do {
                e = hop(c);
                visited.add(e.to().value());
            } while (!e.to().equals(NodeId.of(0)));
            assertEquals(n, visited.size());
            for (int k = 0; k < n; k++) {
                assertEquals((k + 1) % n, visited.get(k));
            }
            List<Envelope<TokenRingMessage>> parked = c.inFlight();
            assertEquals(n - 1, parked.size(), "n=" + n + ": PARKED to every other member");
            assertTrue(parked.stream().allMatch(p -> p.message() instanceof TokenRingMessage.Parked), parked::toString);
            assertEquals(n + (n - 1), c.messagesSent() - before, "n=" + n);
            parked.forEach(c::deliver);
            assertEquals(List.of(), c.inFlight(), "n=" + n + ": an idle lock sends nothing more");
            assertEquals(List.of(), c.violations());
        }
    }

    /** Rule 7: a request at the parker enters with no message; elsewhere it costs a WAKE and one TOKEN. */
    @Test
    void aParkedTokenServesTheParkerForFreeAndOthersWithTwoMessages() {
        for (int n = 2; n <= 6; n++) {
            Cluster<TokenRingMessage> c = parkedRing(n);
            int before = c.messagesSent();
            c.request(0);
            assertTrue(c.inCS(0), "the parker enters at once");
            assertEquals(before, c.messagesSent());
            c.release(0); // the token moves on from the parker, used: it circulates one idle round again
            c = parkedRing(n);
            before = c.messagesSent();
            int requester = n - 1;
            c.request(requester);
            assertEquals(1, c.inFlight().size());
            assertTrue(c.inFlight().get(0).message() instanceof TokenRingMessage.Wake);
            c.deliver(c.inFlight().get(0));
            c.deliver(c.inFlight().get(0));
            assertTrue(c.inCS(requester), "n=" + n);
            assertEquals(before + 2, c.messagesSent(), "n=" + n + ": WAKE and TOKEN");
            assertEquals(List.of(), c.violations());
        }
    }

    /** Rule 7: the token parks just before a request is made; the PARKED that arrives then makes it wake the parker. */
    @Test
    void aRequestRacingTheParkingIsServedThroughPARKED() {
        int n = 4;
        Cluster<TokenRingMessage> c = startedRing(n);
        for (int k = 0; k < n; k++) {
            hop(c); // the idle round; ring[0] parks and broadcasts PARKED
        }
        c.request(2); // made before PARKED reached node 2: it knows no parking yet, sends nothing
        assertEquals(n - 1, c.inFlight().size());
        while (!c.inFlight().isEmpty()) {
            c.deliver(c.inFlight().get(0));
        }
        assertTrue(c.inCS(2));
        assertEquals(List.of(), c.violations());
    }

    /** Token ring: a ring whose token has made its idle round and parked at ring[0], every member told. */
    private static Cluster<TokenRingMessage> parkedRing(int n) {
        Cluster<TokenRingMessage> c = startedRing(n);
        while (!c.inFlight().isEmpty()) {
            c.deliver(c.inFlight().get(0));
        }
        return c;
    }

    /** TR-2: everyone requests before ring[0] starts: entries in ring order, N TOKEN messages until the token is back. */
    @Test
    void fullLoadEntersInRingOrderWithOneMessagePerEntry() {
        int n = 6;
        Cluster<TokenRingMessage> c = new Cluster<>(RING, n, NO_PAUSE);
        for (int k = n - 1; k >= 0; k--) {
            c.request(k);
        }
        for (int k = 0; k < n; k++) {
            assertTrue(c.inCS(k), "node " + k + " holds the token in turn");
            c.release(k);
            if (k < n - 1) {
                hop(c);
            }
        }
        assertEquals(NodeId.of(0), c.inFlight().get(0).to(), "the token is on its way back to ring[0]");
        assertEquals(n, c.messagesSent());
        assertEquals(List.of(NodeId.of(0), NodeId.of(1), NodeId.of(2), NodeId.of(3), NodeId.of(4), NodeId.of(5)),
                c.entries());
        assertEquals(List.of(), c.violations());
    }

    /** TR-3: the token just reached h, which does not want it; the requester d hops away enters after exactly d messages, the first sent by h. */
    @Test
    void requesterAtDistanceDNeedsDMessages() {
        int n = 7;
        for (int d = 0; d < n; d++) {
            Cluster<TokenRingMessage> c = startedRing(n); // the token is on its way to h = 1
            long h = 1;
            long requester = (h + d) % n;
            c.request(requester);
            int before = c.messagesSent();
            hop(c); // arrives at h, which passes it at once unless it is the requester
            List<Envelope<TokenRingMessage>> sent = new ArrayList<>(c.inFlight());
            while (!c.inCS(requester)) {
                hop(c);
                sent.addAll(c.inFlight());
            }
            assertEquals(d, c.messagesSent() - before, "d=" + d);
            if (d > 0) {
                assertEquals(NodeId.of(h), sent.get(0).from());
            }
            assertEquals(List.of(), c.violations());
        }
    }

    /** TR-4: once the token is dropped nobody enters again, and nothing unsafe happens. */
    @Test
    void droppedTokenStopsTheRingSafely() {
        Cluster<TokenRingMessage> c = startedRing(4);
        c.drop(c.inFlight().get(0));
        c.request(2);
        c.request(3);
        assertTrue(c.inFlight().isEmpty());
        assertFalse(c.inCS(2) || c.inCS(3));
        assertEquals(List.of(), c.violations());
    }

    /** A duplicated TOKEN, delivered later, is ignored: one holder, increasing fences. */
    @Test
    void duplicatedTokenIsIgnored() {
        Cluster<TokenRingMessage> c = startedRing(3);
        Envelope<TokenRingMessage> first = hop(c); // 0 -> 1; 1 passes to 2
        c.request(1);
        c.duplicate(first); // arrives at 1 again, long after
        Envelope<TokenRingMessage> late = c.inFlight().get(1);
        c.deliver(late);
        assertFalse(c.inCS(1), "a stale copy of the token must not let node 1 enter");
        while (!c.inFlight().isEmpty() && !c.inCS(1)) {
            c.deliver(c.inFlight().get(0)); // the real token comes round (or parks and is woken: rule 7)
        }
        assertTrue(c.inCS(1));
        assertEquals(List.of(), c.violations());
    }

    /** With an idle pause the holder keeps an unwanted token until the timer fires; a local request meanwhile enters with no message. */
    @Test
    void idlePauseHoldsTheTokenUntilTheTimer() {
        Cluster<TokenRingMessage> c = new Cluster<>(RING, 3, ProtocolOptions.NONE.with(TokenRingDefinition.IDLE_PAUSE_MS, "25"));
        c.request(0);
        c.release(0); // leaving passes at once
        hop(c);
        assertTrue(c.inFlight().isEmpty(), "node 1 pauses with the token");
        assertEquals(List.of(java.util.Map.entry(NodeId.of(1), TokenRing.PASS_TIMER)), c.runningTimers());
        c.request(1);
        assertTrue(c.inCS(1), "a request during the pause enters at once");
        assertTrue(c.runningTimers().isEmpty(), "the pause timer is cancelled");
        c.release(1);
        hop(c); // to 2, which pauses
        c.fireTimer(2, TokenRing.PASS_TIMER);
        assertEquals(NodeId.of(0), c.inFlight().get(0).to());
        assertEquals(3, c.messagesSent());
        assertEquals(List.of(), c.violations());
    }

    /**
     * Random runs with duplicates, with the default (no pause) and with a pause (timers fired at random): safe,
     * live, at least one hop per entry, and no message to itself (with no pause the token parks and is woken
     * often: a parker that had sent its token away once woke itself on its next request).
     */
    @ParameterizedTest
    @ValueSource(strings = {"default", "10"})
    void randomRunsWithPauseAndDuplicates(String pause) {
        ProtocolOptions options = pause.equals("default") ? ProtocolOptions.NONE
                : ProtocolOptions.NONE.with(TokenRingDefinition.IDLE_PAUSE_MS, pause);
        for (long seed = 0; seed < 40; seed++) {
            Cluster<TokenRingMessage> c = new Cluster<>(RING, 5, options);
            c.runWorkload(new Random(seed), Set.copyOf(c.members()), 4, false, 0.05);
            assertEquals(List.of(), c.violations(), "seed " + seed);
            assertEquals(20, c.entries().size());
            assertTrue(c.messagesSent(Token.class) >= c.entries().size() - 1);
        }
    }

    /** The idle holder leaves: the census regenerates exactly one token with 3(N-1) messages, and requests are granted. */
    @Test
    void censusRegeneratesTheTokenWhenItsHolderLeaves() {
        Cluster<TokenRingMessage> c = new Cluster<>(RING, 5, NO_PAUSE);
        c.request(0);
        c.release(0);
        hop(c); // at 1, which passes to 2: in flight, lost with the view
        c.request(3);
        int before = c.messagesSent();
        c.changeView(c.nextView(0, 1, 3, 4));
        while (c.messagesSent(CensusMessage.Done.class) == 0 || !c.inFlight().stream()
                .allMatch(e -> e.message() instanceof Token)) {
            c.deliver(c.inFlight().get(0));
        }
        long census = c.messagesSent() - before - c.inFlight().size();
        assertEquals(3 * 3, census, "QUERY, REPORT and DONE to each of the 3 other members");
        while (!c.inCS(3)) {
            hop(c);
        }
        assertEquals(List.of(), c.violations());
        assertTrue(c.fences().get(1) > 2L << 32, "the regenerated token grants above the new epoch's floor");
    }

    /** Option idle-pause-ms: 0 to 60000 accepted; other values refused with a message naming key and value, also by DlockConfig. */
    @Test
    void idlePauseOptionIsValidated() {
        RING.validateOptions(ProtocolOptions.NONE.with(TokenRingDefinition.IDLE_PAUSE_MS, "0"));
        RING.validateOptions(ProtocolOptions.NONE.with(TokenRingDefinition.IDLE_PAUSE_MS, "60000"));
        for (String bad : List.of("-1", "60001", "ten", "")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RING.validateOptions(ProtocolOptions.NONE.with(TokenRingDefinition.IDLE_PAUSE_MS, bad)));
            assertTrue(e.getMessage().contains("idle-pause-ms=" + bad), e.getMessage());
        }
        DlockConfig ok = DlockConfig.builder().mutex(MutexAlgorithm.TOKEN_RING).mutexOption("idle-pause-ms", "5").build();
        assertEquals("5", ok.mutexOptions().get("idle-pause-ms"));
        DlockConfigException e = assertThrows(DlockConfigException.class, () -> DlockConfig.builder()
                .mutex(MutexAlgorithm.TOKEN_RING).mutexOption("idle-pause-ms", "soon").build());
        assertTrue(e.getMessage().contains("dlock.mutex.idle-pause-ms=soon"), e.getMessage());
    }
}
