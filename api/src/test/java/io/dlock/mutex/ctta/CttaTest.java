package io.dlock.mutex.ctta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.mutex.ctta.CttaMessage.Ack;
import io.dlock.mutex.ctta.CttaMessage.CrReq;
import io.dlock.mutex.ctta.CttaMessage.Jdcg;
import io.dlock.mutex.ctta.CttaMessage.Nack;
import io.dlock.mutex.ctta.CttaMessage.Token;
import io.dlock.mutex.common.CensusMessage;
import io.dlock.mutex.common.CensusReport;
import io.dlock.mutex.testing.Cluster;
import io.dlock.mutex.testing.RecordingEffects;
import io.dlock.mutex.testing.TimedRandomRun;
import io.dlock.mutex.testing.VariantDefinition;
import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * CTTA with REGENERATE, docs/algorithms.md Part G CT-1..CT-10, duplicates and token loss. docs/algorithms.md's site
 * {@code i} is the node with id {@code i-1} here (rank order); site 1 (id 0) starts with the token.
 */
class CttaTest {

    private static final CttaDefinition DEF = new CttaDefinition();

    private static Ctta site(Cluster<CttaMessage> c, long node) {
        return (Ctta) c.protocol(node);
    }

    private static int tokens(Cluster<CttaMessage> c) {
        int count = 0;
        for (var m : c.members()) {
            count += site(c, m.value()).hasToken() ? 1 : 0;
        }
        return count;
    }

    /** CT-1: an entry by a site without the token costs N messages, by the idle holder N-1. */
    @Test
    void entryCostsNOrNMinusOne() {
        for (int n = 2; n <= 8; n++) {
            Cluster<CttaMessage> c = new Cluster<>(DEF, n);
            c.request(n - 1);
            c.deliverAll();
            assertTrue(c.inCS(n - 1));
            assertEquals(n, c.messagesSent());
            c.release(n - 1);
            c.deliverAll();
            int before = c.messagesSent();
            c.request(n - 1); // the idle token is here
            assertTrue(c.inCS(n - 1));
            c.deliverAll();
            assertEquals(n - 1, c.messagesSent() - before);
            assertEquals(List.of(), c.violations());
        }
    }

    /** CT-1: random non-FIFO schedules with duplicates: N-1 CRREQ per request, at most one TOKEN per entry, all granted. */
    @Test
    void randomSchedulesAreSafeAndLive() {
        for (int seed = 0; seed < 300; seed++) {
            int n = 2 + seed % 7;
            Cluster<CttaMessage> c = new Cluster<>(DEF, n);
            c.runWorkload(new Random(seed), c.members(), 4, false, seed % 2 == 0 ? 0 : 0.1);
            assertEquals(List.of(), c.violations(), "seed " + seed);
            assertEquals(4 * n, c.entries().size());
            assertEquals(4L * n * (n - 1), c.messagesSent(CrReq.class));
            assertTrue(c.messagesSent(Token.class) <= c.entries().size());
            assertEquals(1, tokens(c));
        }
    }

    /** CT-2: N=5, holder 2 leaves with requests of sites 1 and 4 known: the token goes to 4 (ring order after 2). */
    @Test
    void passScansInRingOrder() {
        Cluster<CttaMessage> c = new Cluster<>(DEF, 5);
        c.request(1);
        c.deliverAll();
        assertTrue(c.inCS(1));
        c.request(0);
        c.request(3);
        c.deliverAll();
        int before = c.messagesSent();
        c.release(1);
        assertEquals(before + 1, c.messagesSent());
        assertNotNull(c.peek(1, 3, Token.class));
        c.deliverAll();
        assertTrue(c.inCS(3));
        c.release(3);
        c.deliverAll();
        assertTrue(c.inCS(0));
    }

    /** CT-3: after an exit, HR(i) == LR_i(i) at the exiting site. */
    @Test
    void exitSetsOwnHrToOwnRequestNumber() {
        Cluster<CttaMessage> c = new Cluster<>(DEF, 3);
        for (int round = 1; round <= 3; round++) {
            c.request(2);
            c.deliverAll();
            c.release(2);
            c.deliverAll();
            assertEquals(round, site(c, 2).hrOwn());
            assertEquals(site(c, 2).lr()[2], site(c, 2).hrOwn());
        }
    }

    /** CT-4: the candidate ages of docs/algorithms.md's examples, and g = i (mod N), g > CG, g - N <= CG. */
    @Test
    void candidateAges() {
        assertEquals(3, Ctta.candidateAge(0, 3, 5));
        assertEquals(8, Ctta.candidateAge(3, 3, 5));
        assertEquals(8, Ctta.candidateAge(7, 3, 5));
        assertEquals(13, Ctta.candidateAge(8, 3, 5));
        assertEquals(13, Ctta.candidateAge(12, 3, 5));
        assertEquals(5, Ctta.candidateAge(0, 5, 5));
        assertEquals(10, Ctta.candidateAge(5, 5, 5));
        assertEquals(9, Ctta.candidateAge(6, 1, 4));
        for (int n = 1; n <= 7; n++) {
            for (int i = 1; i <= n; i++) {
                for (long cg = 0; cg < 40; cg++) {
                    long g = Ctta.candidateAge(cg, i, n);
                    assertEquals(i % n, g % n);
                    assertTrue(g > cg);
                    assertTrue(g - n <= cg || g - n < 0);
                }
            }
        }
        assertThrows(IllegalArgumentException.class, () -> Ctta.candidateAge(0, 0, 5));
        assertThrows(IllegalArgumentException.class, () -> Ctta.candidateAge(0, 6, 5));
    }

    /**
     * CT-5: JDCG at site j: g <= CG(j) -> NACK, unchanged; g > CG(j) with the token -> NACK, CG = TG = g;
     * g > CG(j) without the token -> ACK with HR(j), CG = g.
     */
    @Test
    void jdcgAnswers() {
        Cluster<CttaMessage> c = new Cluster<>(DEF, 3);
        // holder (site 1) with the idle token
        site(c, 0).onMessage(Cluster.id(2), new Jdcg(3, 1));
        assertEquals(3, site(c, 0).cg());
        assertEquals(3, site(c, 0).tokenTg());
        // a non-holder: ACK
        site(c, 1).onMessage(Cluster.id(2), new Jdcg(3, 1));
        assertEquals(3, site(c, 1).cg());
        // a smaller age: NACK, unchanged
        site(c, 1).onMessage(Cluster.id(0), new Jdcg(1, 1));
        assertEquals(3, site(c, 1).cg());
        // collect the answers through a fresh cluster to see the message types
        Cluster<CttaMessage> d = new Cluster<>(DEF, 3);
        d.request(2);
        d.drop(d.peek(2, 0, CrReq.class)); // the holder misses the request ...
        d.deliverAll();
        d.fireTimer(2, Ctta.REGEN_TIMER);
        d.deliver(2, 0, Jdcg.class); // ... learns it from the JDCG, NACKs and passes the token
        assertNotNull(d.peek(0, 2, Nack.class));
        assertEquals(3, site(d, 0).cg());
        d.deliver(2, 1, Jdcg.class);
        assertNotNull(d.peek(1, 2, Ack.class));
        d.deliverAll();
        assertTrue(d.inCS(2));
        assertEquals(1, tokens(d));
        assertEquals(List.of(), d.violations());
    }

    /** Sets up N sites where site 1's TOKEN to site N is lost in flight; returns the lost envelope. */
    private static Cluster.Envelope<CttaMessage> loseTokenTo(Cluster<CttaMessage> c, long target) {
        c.request(0);
        c.request(target);
        c.deliverAll();
        c.release(0);
        Cluster.Envelope<CttaMessage> lost = c.peek(0, target, Token.class);
        c.drop(lost);
        c.deliverAll();
        assertEquals(0, tokens(c));
        return lost;
    }

    /**
     * CT-6, CT-7: the token is lost in transit and the waiting site times out: its REGENERATE costs
     * exactly 2(N-1) messages and leaves exactly one token, with TG = g and HR(j) = HRown(j).
     */
    @Test
    void regenerateAfterLossCreatesExactlyOneToken() {
        for (int n = 2; n <= 7; n++) {
            Cluster<CttaMessage> c = new Cluster<>(DEF, n);
            // some history, so that HR is not all zero; the token ends idle at site 1
            for (long k = n - 1; k >= 0; k--) {
                c.request(k);
                c.deliverAll();
                c.release(k);
                c.deliverAll();
            }
            long target = n - 1;
            long[] hrOwn = new long[n];
            loseTokenTo(c, target);
            for (int k = 0; k < n; k++) {
                hrOwn[k] = site(c, k).hrOwn();
            }
            int before = c.messagesSent();
            c.fireTimer(target, Ctta.REGEN_TIMER);
            long g = site(c, target).cg();
            assertEquals(Ctta.candidateAge(0, (int) target + 1, n), g);
            c.deliverAll();
            assertEquals(2 * (n - 1), c.messagesSent() - before, "N=" + n);
            assertEquals(n - 1, c.messagesSent(Jdcg.class));
            assertEquals(n - 1, c.messagesSent(Ack.class));
            assertTrue(c.inCS(target));
            assertEquals(1, tokens(c));
            assertEquals(g, site(c, target).tokenTg());
            assertArrayEquals(hrOwn, site(c, target).tokenHr());
            assertEquals(List.of(), c.violations());
        }
    }

    /**
     * CT-8, refused by {@code TG < CG} alone: the token on its way to site 1 is held back;
     * site 3, also waiting, regenerates it (every site, site 1 included, acknowledged the new age g)
     * and enters. The old token (TG = 0) then reaches site 1, which holds no token and never accepted
     * one (so neither the "already have a token" guard nor the duplicate check can refuse it): only
     * {@code TG = 0 < CG = g} does. Site 1 is served later by the regenerated token.
     */
    @Test
    void staleTokenIsRefusedByItsAgeAlone() {
        Cluster<CttaMessage> c = new Cluster<>(DEF, 4);
        c.request(0);
        c.request(1);
        c.request(3);
        c.deliverAll();
        c.release(0); // PASS to site 1, the first after 0 whose LR exceeds HR
        Cluster.Envelope<CttaMessage> late = c.peek(0, 1, Token.class);
        c.drop(late);
        c.fireTimer(3, Ctta.REGEN_TIMER);
        c.deliverAll();
        assertTrue(c.inCS(3));
        long g = site(c, 1).cg();
        assertTrue(g > ((Token) late.message()).tg(), "site 1 acknowledged the new age");
        assertFalse(site(c, 1).hasToken());
        c.deliver(c.duplicate(late));
        assertFalse(c.inCS(1), "a token older than the site must not be used");
        assertFalse(site(c, 1).hasToken());
        assertEquals(1, tokens(c));
        c.release(3);
        c.deliverAll();
        assertTrue(c.inCS(1), "site 1 is served by the regenerated token");
        c.release(1);
        c.deliverAll();
        assertEquals(List.of(Cluster.id(0), Cluster.id(3), Cluster.id(1)), c.entries());
        assertEquals(List.of(), c.violations());
    }

    /** CT-8 at the regenerating site: the lost token reappears where the new one is, and is discarded. */
    @Test
    void staleTokenIsDiscarded() {
        Cluster<CttaMessage> c = new Cluster<>(DEF, 4);
        Cluster.Envelope<CttaMessage> lost = loseTokenTo(c, 3);
        c.fireTimer(3, Ctta.REGEN_TIMER);
        c.deliverAll();
        assertTrue(c.inCS(3));
        c.release(3);
        c.deliverAll();
        c.duplicate(lost);
        c.deliverAll();
        assertEquals(1, tokens(c));
        assertTrue(site(c, 3).hasToken(), "the regenerated token stays where it is");
        for (long k = 0; k < 4; k++) {
            c.request(k);
            c.deliverAll();
            c.release(k);
            c.deliverAll();
        }
        assertEquals(6, c.entries().size());
        assertEquals(1, tokens(c));
        assertEquals(List.of(), c.violations());
    }

    // ---- Muro et al. §5: failure modes ----------------------------------------------------------------

    /** Runs a failure detector's report on site {@code k} (a harness event) and collects its effects. */
    private static void on(Cluster<CttaMessage> c, long k, java.util.function.Consumer<Ctta> report) {
        c.act(k, p -> report.accept((Ctta) p));
    }

    /** Site {@code k} fails, and the failure detector tells every other site. */
    private static void fail(Cluster<CttaMessage> c, long k) {
        on(c, k, Ctta::siteFailed);
        for (NodeId other : c.members()) {
            if (other.value() != k) {
                on(c, other.value(), s -> s.failureReported(Cluster.id(k)));
            }
        }
    }

    /** Site {@code k} is repaired, and the failure detector tells every other site. */
    private static void repair(Cluster<CttaMessage> c, long k) {
        on(c, k, Ctta::siteRepaired);
        for (NodeId other : c.members()) {
            if (other.value() != k) {
                on(c, other.value(), s -> s.repairReported(Cluster.id(k)));
            }
        }
    }

    /**
     * Muro et al. §5, site failure: sites 1 and 2 request, the idle holder PASSes the token to site 1, and
     * site 1 fails while the token is on its way. Site 1 forwards it unchanged (it does not enter,
     * HR(1) and CG(1) stay as they were) to site 2, whose request it had recorded; the others, told
     * of the failure, do not pass to site 1. Repaired, site 1 re-sends its CRREQ with the same number
     * and is served next.
     */
    @Test
    void failedSiteForwardsTheTokenUnchanged() {
        Cluster<CttaMessage> c = new Cluster<>(DEF, 4);
        c.request(1);
        c.request(2);
        c.deliver(1, 2, CrReq.class); // site 1 records site 2's request ...
        c.deliver(2, 1, CrReq.class);
        c.deliver(1, 0, CrReq.class); // ... and site 0 passes to site 1
        Cluster.Envelope<CttaMessage> token = c.peek(0, 1, Token.class);
        c.drop(token);
        fail(c, 1);
        c.deliverAll();
        c.deliver(c.duplicate(token));
        assertFalse(c.inCS(1), "a failed site does not use the token");
        assertEquals(0, site(c, 1).cg());
        assertFalse(site(c, 1).hasToken(), "it forwarded it");
        c.deliverAll();
        assertTrue(c.inCS(2), "to site 2, whose request it had recorded");
        assertEquals(0, site(c, 2).tokenHr()[1], "HR(1) unchanged");
        c.release(2);
        c.deliverAll();
        assertTrue(site(c, 2).hasToken(), "nobody else waits but the failed site: the token stays");
        repair(c, 1);
        c.deliverAll();
        assertTrue(c.inCS(1), "served once repaired");
        c.release(1);
        c.deliverAll();
        assertEquals(List.of(Cluster.id(2), Cluster.id(1)), c.entries());
        assertEquals(1, tokens(c));
        assertEquals(List.of(), c.violations());
    }

    /**
     * Muro et al. §5: a failed site answers every JDCG with NACK ("UDCG" in the source notes) and updates no CG, so
     * a REGENERATE run while it is failed makes no token; once it is repaired the next attempt
     * regenerates the lost token.
     */
    @Test
    void failedSiteRefusesEveryJdcg() {
        Cluster<CttaMessage> c = new Cluster<>(DEF, 4);
        loseTokenTo(c, 3);
        fail(c, 2);
        c.fireTimer(3, Ctta.REGEN_TIMER);
        c.deliverAll();
        assertEquals(1, c.messagesSent(Nack.class), "the failed site refused");
        assertEquals(0, site(c, 2).cg(), "and did not take the candidate age");
        assertEquals(0, tokens(c));
        assertFalse(c.inCS(3));
        repair(c, 2);
        c.deliverAll();
        c.fireTimer(3, Ctta.REGEN_TIMER);
        c.deliverAll();
        assertTrue(c.inCS(3), "regenerated once every site could acknowledge");
        assertEquals(1, tokens(c));
        assertEquals(List.of(), c.violations());
    }

    /**
     * Muro et al. §5, partition: an end of a failed link sends PARTITION; every site then runs CTTA but no
     * REGENERATE (its timer re-sends the CRREQ, same number, instead of a JDCG) and NACKs any JDCG,
     * so no side of a split can make a second token. After the repair REGENERATE works again.
     */
    @Test
    void partitionDisablesRegenerate() {
        Cluster<CttaMessage> c = new Cluster<>(DEF, 4);
        loseTokenTo(c, 3);
        on(c, 1, Ctta::linkFailed);
        c.deliverAll();
        assertEquals(3, c.messagesSent(CttaMessage.Partition.class));
        int before = c.messagesSent();
        c.fireTimer(3, Ctta.REGEN_TIMER);
        c.deliverAll();
        assertEquals(0, c.messagesSent(Jdcg.class), "no REGENERATE in partition mode");
        assertEquals(3, c.messagesSent() - before, "a re-request to each other site instead");
        assertTrue(c.timers(3).containsKey(Ctta.REGEN_TIMER), "and the timer runs again");
        assertEquals(0, tokens(c));
        c.deliver(c.duplicate(new Cluster.Envelope<>(0, Cluster.id(0), Cluster.id(2), new Jdcg(9, 1))));
        assertEquals(1, c.messagesSent(Nack.class), "a JDCG is refused in partition mode");
        assertEquals(0, site(c, 2).cg());
        for (long k = 0; k < 4; k++) {
            on(c, k, Ctta::linkRepaired);
        }
        c.deliverAll();
        c.fireTimer(3, Ctta.REGEN_TIMER);
        c.deliverAll();
        assertTrue(c.inCS(3), "REGENERATE again after the repair");
        assertEquals(1, tokens(c));
        assertEquals(List.of(), c.violations());
    }

    /**
     * Muro et al. §5, re-request after a repair: the token is on its way to site 1 when site 1 fails; site
     * 2's CRREQ reaches site 1 while it is failed, so site 1's LR never shows it. Site 1, repaired,
     * gets the token, uses it and finds nobody to pass it to: the token stops while site 2 waits
     * with nothing in flight. The reported repair makes site 2 re-send its CRREQ with the same
     * number, and site 1 passes.
     */
    @Test
    void reRequestRestartsATokenStoppedByAStaleLr() {
        Cluster<CttaMessage> c = new Cluster<>(DEF, 4);
        c.request(1);
        c.deliver(1, 0, CrReq.class); // site 0 holds the idle token: PASS to site 1
        Cluster.Envelope<CttaMessage> token = c.peek(0, 1, Token.class);
        c.drop(token);
        c.deliverAll();
        on(c, 1, Ctta::siteFailed); // its failure is not yet reported: it is repaired at once
        c.request(2);
        c.deliverAll(); // site 1 does not record it
        on(c, 1, Ctta::siteRepaired);
        c.deliverAll();
        c.deliver(c.duplicate(token)); // the token arrives after the repair
        assertTrue(c.inCS(1));
        c.release(1);
        c.deliverAll();
        assertTrue(site(c, 1).hasToken(), "nobody qualifies in site 1's stale LR: the token stops");
        assertTrue(c.waiting(2) && c.inFlight().isEmpty());
        for (long k : new long[] {0, 2, 3}) {
            on(c, k, s -> s.repairReported(Cluster.id(1)));
        }
        c.deliverAll();
        assertTrue(c.inCS(2), "the re-request moved the token");
        c.release(2);
        c.deliverAll();
        assertEquals(1, tokens(c));
        assertEquals(List.of(), c.violations());
    }

    /**
     * Muro et al. §5 on random schedules: sites fail and are repaired (reported to the others) at random
     * moments, outside their critical sections, while requests, deliveries and timers interleave:
     * never two sites in the critical section, fences increasing; and once every site is repaired,
     * every request is granted.
     */
    @Test
    void randomSiteFailuresKeepOneHolder() {
        for (int seed = 0; seed < 300; seed++) {
            int n = 3 + seed % 3;
            Cluster<CttaMessage> c = new Cluster<>(DEF, n);
            Random random = new Random(seed);
            java.util.Map<NodeId, Integer> budget = new java.util.TreeMap<>();
            for (NodeId m : c.members()) {
                budget.put(m, 3);
            }
            java.util.Set<Long> down = new java.util.TreeSet<>();
            for (int step = 0; step < 20_000; step++) {
                if (random.nextDouble() < 0.05) {
                    long k = random.nextInt(n);
                    if (down.remove(k)) {
                        repair(c, k);
                    } else if (!c.inCS(k) && down.isEmpty()) { // few simultaneous failures: one at a time
                        down.add(k);
                        fail(c, k);
                    }
                    continue;
                }
                java.util.Map<NodeId, Integer> allowed = new java.util.TreeMap<>(budget);
                down.forEach(k -> allowed.put(Cluster.id(k), 0)); // a failed site does not request
                if (!c.randomStep(random, allowed, false, 0)) {
                    break;
                }
                allowed.forEach((m, left) -> {
                    if (!down.contains(m.value())) {
                        budget.put(m, left);
                    }
                });
            }
            for (long k : down) {
                repair(c, k);
            }
            while (c.randomStep(random, budget, false, 0)) {
                // every site repaired: run to the end
            }
            c.checkNobodyWaits();
            assertEquals(List.of(), c.violations(), "seed " + seed);
            assertEquals(3 * n, c.entries().size(), "seed " + seed);
        }
    }

    /** CT-10: a spurious REGENERATE while the token is idle at a site: it NACKs and re-ages the token; no second token. */
    @Test
    void spuriousRegenerateKeepsOneToken() {
        Cluster<CttaMessage> c = new Cluster<>(DEF, 4);
        c.request(0);
        c.request(2);
        c.deliver(2, 1, CrReq.class);
        c.deliver(2, 3, CrReq.class);
        c.fireTimer(2, Ctta.REGEN_TIMER); // the CRREQ to the holder is slow; site 3 suspects a loss
        c.deliverAll();
        assertEquals(3, site(c, 0).cg(), "the holder re-aged its token");
        assertEquals(1, c.messagesSent(Nack.class));
        c.release(0);
        c.deliverAll();
        assertTrue(c.inCS(2));
        assertEquals(1, tokens(c));
        assertEquals(List.of(), c.violations());
    }

    /**
     * CT-9: random schedules with token loss, duplicates of nothing, and aggressive (early) timeouts
     * so that REGENERATEs run concurrently: never two sites in the CS with the {@code CG == g} check,
     * and every request of every run granted ({@link TimedRandomRun#run} checks it); without the
     * check, the checker finds ME1 violations.
     */
    @Test
    void concurrentRegeneratesNeedTheCompletionCheck() {
        int withoutCheckViolations = 0;
        int completed = 0;
        for (int seed = 0; seed < 400; seed++) {
            int n = 2 + seed % 5;
            Cluster<CttaMessage> c = new Cluster<>(DEF, n);
            boolean done = TimedRandomRun.run(c, new Random(seed), 4, 0.05, Token.class, 0.05, 200_000);
            assertEquals(List.of(), c.violations(), "seed " + seed);
            completed += done ? 1 : 0;
            Cluster<CttaMessage> u = new Cluster<>(unchecked(), n);
            TimedRandomRun.run(u, new Random(seed), 4, 0.05, Token.class, 0.05, 200_000);
            withoutCheckViolations += u.violations().stream().anyMatch(v -> v.startsWith("ME1")) ? 1 : 0;
        }
        assertEquals(400, completed, "every run ended with every request granted");
        assertTrue(withoutCheckViolations > 0, "no ME1 violation without the CG == g check");
    }

    /** Option values are validated with a message naming the key. */
    @Test
    void badOptionsAreRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Cluster<>(DEF, 2, ProtocolOptions.NONE.with(CttaDefinition.REGEN_TIMEOUT, "0")));
        assertTrue(e.getMessage().contains("regen-timeout"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new Cluster<>(DEF, 2, ProtocolOptions.NONE.with(CttaDefinition.REGEN_TIMEOUT, "soon")));
        assertThrows(IllegalArgumentException.class,
                () -> new Cluster<>(DEF, 2, ProtocolOptions.NONE.with("twait", "5")));
    }

    /** The wire format round-trips every message. */
    @Test
    void codecRoundTrips() {
        MessageCodec<CttaMessage> codec = DEF.codec();
        for (CttaMessage m : List.of(new CrReq(1), new CrReq(Long.MAX_VALUE), new Token(List.of(0L, 5L, 300L), 7, 9, 1),
                new Token(List.of(), 0, 0, 1), new Jdcg(3, 2), new Ack(3, 4, 1L << 40), new Nack(8),
                new CttaMessage.Partition())) {
            assertEquals(m, codec.fromBytes(codec.toBytes(m)));
        }
        assertFalse(new CrReq(1).equals(new CrReq(2)));
    }

    /** CTTA without F8's completion check (CT-9's counterexample); test only. */
    private static MutexProtocolDefinition<CttaMessage> unchecked() {
        return VariantDefinition.of(DEF, "ctta-unchecked", context -> new Ctta(context, true, 100, false));
    }

    /**
     * The release guard Suzuki-Kasami has: a census that gives the token to another site
     * while this one is in the critical section (only when a partition heals: the other site's token
     * was confirmed by a census this site missed) leaves it without a token; leaving the critical
     * section then sends nothing and does not touch a token it no longer has (before: a
     * NullPointerException on {@code tokenHr[me]++}); its next request waits for the other token.
     */
    @Test
    void releaseAfterTheCensusMovedTheTokenAwayPassesNothing() {
        View v1 = View.ofRange(1, 2);
        RecordingEffects<CttaMessage> fx = new RecordingEffects<>(NodeId.of(0), v1);
        Ctta a = (Ctta) DEF.create(new ProtocolContext<>(NodeId.of(0), v1, fx, ProtocolOptions.NONE));
        a.onRequest();
        assertEquals(1, fx.drainGrants().size()); // site 1 of the source notes starts with the token
        View v3 = new View(3, List.of(NodeId.of(0), NodeId.of(1)));
        fx.view(v3);
        a.onView(v3); // we are the steward: QUERY to node 1
        // node 1 holds a token confirmed by the census of epoch 2, which we missed (we were cut off)
        a.onMessage(NodeId.of(1), new CttaMessage.Census(new CensusMessage.Report(
                new CensusReport(3, true, false, 5L << 32, 5L << 32, 0, false, 2))));
        assertFalse(a.hasToken(), a.toString());
        fx.drainSent();
        a.onRelease();
        assertEquals(List.of(), fx.drainSent(), "no token to pass");
        a.onRequest();
        assertEquals(List.of(), fx.drainGrants(), "the next request waits for node 1's token");
        List<RecordingEffects.Sent<CttaMessage>> sent = fx.drainSent();
        assertEquals(List.of(new CrReq(2)), sent.stream().map(RecordingEffects.Sent::message).toList());
    }
}
