package io.dlock.inmemory.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.inmemory.sim.fixtures.TwoTokensDefinition;
import io.dlock.mutex.ctta.CttaDefinition;
import io.dlock.mutex.ctta.CttaMessage;
import io.dlock.mutex.naimitrehel.NaimiTrehelDefinition;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.NodeId;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Token loss in the simulator: the token of CTTA and of Naimi-Trehel is dropped (or held
 * back) in flight; each algorithm's own recovery (REGENERATE; consult/query/election) makes one new
 * token, a stale token that reappears is discarded, and every request is granted, with ME1 and
 * increasing fences checked after every event. Also: the checker fails a run in which two tokens
 * grant at once, and the average cost of Naimi-Trehel against log2 N.
 */
class TokenRecoverySimulationTest {

    private static final int SEEDS = 200;
    private static final int[] SIZES = {2, 3, 5, 8};

    private static Simulation simulation(MutexProtocolDefinition<?> definition, int n) {
        return Simulation.of(definition).nodes(n).delay(DelayModel.uniform(1, 10))
                .workload(Workload.perNode(3).think(0, 20).hold(0, 5)).encodeMessages(true);
    }

    /** Safe, live and fenced, and the recovery actually ran. */
    private static RunCheck recovered(int n, String recoveryMessage, long minRecoveryMessages) {
        return r -> {
            if (r.safetyViolations() + r.fenceViolations() + r.grantViolations() + r.codecErrors() != 0
                    || r.error() != null) {
                return "ME1, fence, grant or codec violation, or a protocol exception";
            }
            if (r.ungranted() != 0 || r.entries() != 3L * n || r.truncated()) {
                return "not every request granted after the token loss: " + r.entries() + " of " + 3 * n;
            }
            if (r.messages(recoveryMessage) < minRecoveryMessages) {
                return "no recovery: " + r.messages(recoveryMessage) + " " + recoveryMessage;
            }
            return null;
        };
    }

    /** CT-7: the first TOKEN sent is lost; REGENERATE (JDCG/ACK) recovers it and every request is granted. */
    @Test
    void ctta_whenTokenIsDropped_thenRegenerateRecoversIt() {
        for (int n : SIZES) {
            Simulation sim = simulation(new CttaDefinition(), n)
                    .faults(FaultPlan.none().dropMessages(null, null, CttaMessage.Token.class, 1));
            SeedSweep sweep = Simulations.runSeeds(sim, 1, SEEDS, recovered(n, "Jdcg", n - 1));
            assertTrue(sweep.passed(), sweep::describeFailure);
        }
    }

    /**
     * NT-5-like: the first TOKEN sent is lost; the waiting node consults, queries, is elected and
     * regenerates exactly one token (one CANDIDATE_ELECTED broadcast); every request is granted.
     */
    @Test
    void naimiTrehel_whenTokenIsDropped_thenElectionRegeneratesExactlyOneToken() {
        for (int n : SIZES) {
            Simulation sim = simulation(new NaimiTrehelDefinition(), n)
                    .faults(FaultPlan.none().dropMessages(null, null, NaimiTrehelMessage.Token.class, 1));
            SeedSweep sweep = Simulations.runSeeds(sim, 1, SEEDS, recovered(n, "CandidateElected", n - 1).and(
                    r -> r.messages("CandidateElected") == n - 1 ? null
                            : "expected exactly one regeneration, got " + r.messages("CandidateElected") + " CANDIDATE_ELECTED"));
            assertTrue(sweep.passed(), sweep::describeFailure);
        }
    }

    /**
     * CT-8: every TOKEN from node 0 is held back far beyond the timeout: the waiting site regenerates,
     * and the old token, when it finally arrives, is older than the site (TG < CG) and discarded.
     */
    @Test
    void ctta_whenStaleTokenReappears_thenItIsDiscarded() {
        for (int n : SIZES) {
            Simulation sim = simulation(new CttaDefinition(), n).faults(FaultPlan.none()
                    .delayMessages(NodeId.of(0), null, CttaMessage.Token.class, 50_000));
            SeedSweep sweep = Simulations.runSeeds(sim, 1, SEEDS, recovered(n, "Jdcg", n - 1));
            assertTrue(sweep.passed(), sweep::describeFailure);
        }
    }

    /**
     * Every TOKEN from node 0 is held back far beyond Twait: the recovery regenerates it, and the old
     * token, of an older generation, is discarded where it arrives.
     */
    @Test
    void naimiTrehel_whenStaleTokenReappears_thenItIsDiscarded() {
        for (int n : SIZES) {
            Simulation sim = simulation(new NaimiTrehelDefinition(), n).faults(FaultPlan.none()
                    .delayMessages(NodeId.of(0), null, NaimiTrehelMessage.Token.class, 50_000));
            SeedSweep sweep = Simulations.runSeeds(sim, 1, SEEDS, recovered(n, "CandidateElected", n - 1));
            assertTrue(sweep.passed(), sweep::describeFailure);
        }
    }

    /**
     * A holder paused (a long GC pause) for longer than Twait + 3 Telec while it is in the
     * critical section, with every node requesting before, during and after: the others regenerate
     * the token (rules 7-15) and enter while the paused node still holds, the one overlap the source notes
     * admit; once the paused node leaves that critical section it drops its token of the older
     * generation, and no two nodes ever hold at once again. Before the fix it kept that token idle
     * (CANDIDATE_ELECTED arrived while it was in the CS) and entered again with it, while the
     * regenerated token served the others.
     */
    @Test
    void naimiTrehel_whenHolderIsPausedPastTheRecovery_thenAtMostOneOverlap() {
        long twait = 200;
        long telec = 30; // above twice the largest delay (10)
        long pause = twait + 3 * telec + 200;
        for (int n : new int[] {3, 5, 8}) {
            for (long seed = 1; seed <= 60; seed++) {
                OverlapWatch watch = null;
                SimulationResult r = null;
                for (long at = 40; at < 140; at++) { // the first instant at which someone holds
                    Simulation sim = Simulation.of(new NaimiTrehelDefinition()).nodes(n).seed(seed)
                            .delay(DelayModel.uniform(1, 10)).encodeMessages(true)
                            .options(io.dlock.protocol.ProtocolOptions.NONE.with("twait", String.valueOf(twait))
                                    .with("telec", String.valueOf(telec)))
                            .workload(Workload.perNode(8).think(0, 30).hold(2, 8))
                            .faults(FaultPlan.none().pause(FaultPlan.Role.HOLDER, at, pause));
                    watch = new OverlapWatch(n);
                    r = sim.run(watch);
                    if (r.faultsInjected() > 0) {
                        break;
                    }
                }
                String where = "N=" + n + " seed " + seed + ": " + r.describeFailure();
                assertTrue(r.faultsInjected() > 0, "no holder to pause " + where);
                assertTrue(r.messages("CandidateElected") > 0, "the pause did not make the others regenerate " + where);
                assertEquals(0, r.ungranted(), "ungranted " + where);
                assertEquals(8L * n, r.entries(), where);
                assertTrue(watch.overlaps >= 1, "the pause caused no overlap at all: not the scenario " + where);
                assertEquals(List.of(), watch.overlapsOutsideThePausedHold, where);
                assertEquals(0, r.fenceViolations() + r.grantViolations() + r.codecErrors(), where);
                assertTrue(r.error() == null && !r.truncated(), where);
            }
        }
    }

    /**
     * Grants made while another node holds. The paused node is the one that holds when the first
     * overlap starts; every overlap must fall within that one critical section of it.
     */
    private static final class OverlapWatch implements SimulationListener {
        private final boolean[] holding;
        private int pausedHold = -1;
        private int overlaps;
        private final List<String> overlapsOutsideThePausedHold = new java.util.ArrayList<>();

        OverlapWatch(int n) {
            holding = new boolean[n];
        }

        @Override
        public void granted(long time, NodeId node, long fence, boolean counted) {
            int i = (int) node.value();
            for (int other = 0; other < holding.length; other++) {
                if (holding[other] && other != i) {
                    overlaps++;
                    if (pausedHold < 0) {
                        pausedHold = other; // the first overlap: the paused holder is the one already in
                    }
                    if (other != pausedHold) {
                        overlapsOutsideThePausedHold.add("t=" + time + " n" + i + " granted while n" + other + " holds");
                    }
                }
            }
            holding[i] = true;
        }

        @Override
        public void released(long time, NodeId node) {
            int i = (int) node.value();
            holding[i] = false;
            if (i == pausedHold) {
                pausedHold = Integer.MAX_VALUE; // its paused CS is over: no overlap may follow
            }
        }
    }

    /** The checker fails a run in which a second token grants while the first is in use (ME1). */
    @Test
    void checkerFailsRunWithTwoTokens() {
        // a run with two tokens never drains (both circulate); the overlap, when it comes, comes in its first
        // entries, so each run stops at virtual time 20 000 instead of the 50-million-event cap
        SeedSweep sweep = Simulations.runSeeds(Simulation.of(new TwoTokensDefinition()).nodes(3)
                .delay(DelayModel.uniform(1, 10)).workload(Workload.perNode(3).think(0, 5).hold(5, 10))
                .maxTime(20_000), 1, 50,
                r -> r.safetyViolations() == 0 ? null : "ME1 violated");
        assertFalse(sweep.passed(), "two tokens never granted at once in 50 seeds");
        SimulationResult failure = sweep.failure();
        assertFalse(failure.ok(), failure::describeFailure);
        assertTrue(failure.firstViolation().contains("ME1"), failure::describeFailure);
    }

    /**
     * Naimi-Trehel's average messages per entry (random workload, 3 requests per node) for N = 8,
     * 64, 256, against log2 N: O(log N) on average (asserted: at most log2 N + 1).
     */
    @Test
    void naimiTrehelAverageIsLogarithmic() {
        for (int n : new int[] {8, 64, 256}) {
            SeedSweep sweep = Simulations.runSeeds(simulation(new NaimiTrehelDefinition(), n), 1, 20,
                    r -> r.ok() && r.ungranted() == 0 ? null : "violation");
            assertTrue(sweep.passed(), sweep::describeFailure);
            double messages = sweep.results().stream().mapToLong(SimulationResult::messages).sum();
            double entries = sweep.results().stream().mapToLong(SimulationResult::entries).sum();
            double log2 = Math.log(n) / Math.log(2);
            double average = messages / entries;
            System.out.println(String.format(Locale.ROOT, "naimi-trehel N=%d: %.3f messages/entry, log2 N = %.3f", n,
                    average, log2));
            assertTrue(average <= log2 + 1, "average " + average + " above log2 N + 1 = " + (log2 + 1));
            assertEquals(3L * n * 20, (long) entries);
        }
    }
}
