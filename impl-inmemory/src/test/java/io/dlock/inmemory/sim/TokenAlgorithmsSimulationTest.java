package io.dlock.inmemory.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.MutexAlgorithm;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.ProtocolFamily;
import io.dlock.NodeId;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Token algorithms in the simulator across view changes: the token in flight at a view change is
 * lost with the old epoch, and a holder may crash in the critical section; the census re-establishes
 * exactly one token and every live node's requests are still granted, with increasing fences.
 */
class TokenAlgorithmsSimulationTest {

    private static final int SEEDS = 200;
    private static final List<NodeId> ALL = List.of(NodeId.of(0), NodeId.of(1), NodeId.of(2), NodeId.of(3), NodeId.of(4));

    static Stream<MutexAlgorithm> tokenAlgorithms() {
        return Stream.of(MutexAlgorithm.values()).filter(a -> AlgorithmDefinitions.mutex(a).family() == ProtocolFamily.TOKEN);
    }

    private static Simulation simulation(MutexAlgorithm algorithm) {
        return Simulation.of(AlgorithmDefinitions.mutex(algorithm)).nodes(5).delay(DelayModel.uniform(1, 10))
                .workload(Workload.perNode(4).think(0, 20).hold(0, 5)).maxEvents(2_000_000);
    }

    /** Two view changes mid-run (same members: every message in flight is lost): safe, and every request granted. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("tokenAlgorithms")
    void viewChangesLoseInFlightMessagesButNoRequest(MutexAlgorithm algorithm) {
        Simulation sim = simulation(algorithm).faults(FaultPlan.none().installView(15, ALL).installView(40, ALL));
        SeedSweep sweep = Simulations.runSeeds(sim, 1, SEEDS, r -> r.safetyViolations() + r.fenceViolations()
                + r.grantViolations() + r.codecErrors() == 0 && r.error() == null && r.ungranted() == 0
                && r.entries() == 20 && !r.truncated() ? null : "violation, or a request not granted, across view changes");
        assertTrue(sweep.passed(), sweep::describeFailure);
        assertEquals(SEEDS, sweep.seedsRun());
    }

    /**
     * RAY-3 for large trees: N = 64 and 256, light and heavy load, at most 2D messages per entry
     * (D = 11 and 15), entry by entry: at most D PRIVILEGE hops between two consecutive grants, and
     * as many REQUESTs as PRIVILEGEs (each REQUEST is answered by one PRIVILEGE), so no entry costs
     * more than 2D.
     */
    @org.junit.jupiter.api.Test
    void raymondStaysWithinTwoDForLargeN() {
        for (int n : new int[] {64, 256}) {
            int diameter = io.dlock.mutex.raymond.RaymondDefinition.treeDiameter(n);
            for (Workload w : List.of(Workload.perNode(2).think(0, 50_000L * n / 8), Workload.perNode(3).think(0, 0))) {
                for (long seed = 1; seed <= 2; seed++) {
                    long[] hops = new long[3]; // since the last grant, worst, total
                    SimulationResult r = Simulation.of(AlgorithmDefinitions.mutex(MutexAlgorithm.RAYMOND)).nodes(n).seed(seed)
                            .workload(w).delay(DelayModel.uniform(1, 10)).encodeMessages(false).run(new SimulationListener() {
                                @Override
                                public void sent(long time, long id, NodeId from, NodeId to, io.dlock.protocol.ProtocolMessage m) {
                                    if (m instanceof io.dlock.mutex.raymond.RaymondMessage.Privilege) {
                                        hops[0]++;
                                        hops[2]++;
                                    }
                                }

                                @Override
                                public void granted(long time, NodeId node, long fence, boolean counted) {
                                    hops[1] = Math.max(hops[1], hops[0]);
                                    hops[0] = 0;
                                }
                            });
                    assertTrue(r.ok() && r.ungranted() == 0, r::describeFailure);
                    assertTrue(hops[1] <= diameter, "an entry took " + hops[1] + " PRIVILEGE hops > D=" + diameter + ": " + r.describeFailure());
                    assertEquals(hops[2], r.messages("Request"), r::describeFailure);
                    assertEquals(r.messages(), 2 * hops[2], r::describeFailure);
                }
            }
        }
    }

    /**
     * TR-5, the TOKEN_ACK variant: node 2 crashes at time 0 and stays in the view (no
     * failure detection). Without TOKEN_ACK the token dies with node 2's first visit and the others
     * are never served; with {@code token-ack-ms = 30} (above the largest round trip, 20) node 1 gets
     * no ack, skips node 2 after one timeout and the ring goes on: every request of the others is
     * granted, safely, and node 2 receives exactly one TOKEN in the whole run. 100 seeds, N = 3, 5, 8.
     */
    @org.junit.jupiter.api.Test
    void tokenRing_whenASuccessorCrashed_thenTokenAckSkipsIt() {
        for (int n : new int[] {3, 5, 8}) {
            Workload w = Workload.perNode(3).think(0, 40).hold(0, 5).excluding(2);
            long expected = w.totalEntries(n);
            Simulation plain = Simulation.of(AlgorithmDefinitions.mutex(MutexAlgorithm.TOKEN_RING)).nodes(n).delay(DelayModel.uniform(1, 10))
                    .workload(w).stopWhenWorkloadDone(true).maxTime(50_000).encodeMessages(true)
                    .faults(FaultPlan.none().crash(NodeId.of(2), 0));
            SimulationResult stuck = plain.seed(1).run();
            assertTrue(stuck.safetyViolations() == 0 && stuck.entries() < expected, "without TOKEN_ACK the ring stops: "
                    + stuck.describeFailure());
            Simulation acked = plain.options(io.dlock.protocol.ProtocolOptions.NONE
                    .with(io.dlock.mutex.tokenring.TokenRingDefinition.TOKEN_ACK_MS, "30"));
            for (long seed = 1; seed <= 100; seed++) {
                long[] tokensToTheDead = new long[1];
                SimulationResult r = acked.seed(seed).run(new SimulationListener() {
                    @Override
                    public void sent(long time, long id, NodeId from, NodeId to, io.dlock.protocol.ProtocolMessage m) {
                        if (to.value() == 2 && m instanceof io.dlock.mutex.tokenring.TokenRingMessage.Token) {
                            tokensToTheDead[0]++;
                        }
                    }
                });
                assertTrue(r.ok() && r.ungranted() == 0 && r.entries() == expected && !r.truncated(), r::describeFailure);
                assertEquals(1, tokensToTheDead[0], r::describeFailure);
                assertTrue(r.messages("TokenAck") > 0, r::describeFailure);
            }
        }
    }

    /** The node in the critical section crashes and a view without it is installed: the census regenerates the token for the others. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("tokenAlgorithms")
    void crashedHolderIsReplacedByARegeneratedToken(MutexAlgorithm algorithm) {
        List<NodeId> survivors = List.of(NodeId.of(0), NodeId.of(1), NodeId.of(3), NodeId.of(4));
        Simulation sim = simulation(algorithm).faults(FaultPlan.none().crash(NodeId.of(2), 25).installView(60, survivors));
        SeedSweep sweep = Simulations.runSeeds(sim, 1, SEEDS, r -> r.safetyViolations() + r.fenceViolations()
                + r.grantViolations() + r.codecErrors() == 0 && r.error() == null && r.ungranted() == 0
                && !r.truncated() ? null : "violation, or a survivor's request not granted, after the crash");
        assertTrue(sweep.passed(), sweep::describeFailure);
    }
}
