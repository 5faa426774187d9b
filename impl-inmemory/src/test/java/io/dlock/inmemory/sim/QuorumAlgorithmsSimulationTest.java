package io.dlock.inmemory.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.MutexAlgorithm;
import io.dlock.mutex.maekawa.MaekawaDefinition;
import io.dlock.protocol.ProtocolOptions;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The quorum and prime-number algorithms of issue 4 in the simulator, beyond the generic sweep of
 * {@link MutexAlgorithmsSimulationTest}: Maekawa at the sizes where its quorums are squares or the
 * plane, its basic version's deadlocks (MK-5), unit-delay synchronization delay (MK-7), and the
 * measured messages per entry quoted in the issue note.
 */
class QuorumAlgorithmsSimulationTest {

    private static final int SEEDS = 200;

    private static Simulation maekawa(int n) {
        return Simulation.of(new MaekawaDefinition()).nodes(n).delay(DelayModel.uniform(1, 10))
                .workload(Workload.perNode(3).think(0, 20).hold(0, 5));
    }

    /** Maekawa at N = 4, 7, 9, 25 (square grids and the plane), 200 seeds: safe, live, 3(K-1) <= msgs/entry <= 5(K-1). */
    @Test
    void maekawaAtSquareSizesAndThePlane() {
        for (int n : new int[] {4, 7, 9, 25}) {
            double low = MaekawaDefinition.uncontended(n);
            int size = n;
            SeedSweep sweep = Simulations.runSeeds(maekawa(n), 1, SEEDS, RunCheck.OK.and(r -> r.ungranted() == 0
                    && r.entries() == 3L * size && r.messagesPerEntry() >= low - 1e-9
                    && r.messagesPerEntry() <= low * 5 / 3 + 1e-9 ? null : "ungranted or messages out of bounds"));
            assertTrue(sweep.passed(), sweep::describeFailure);
        }
    }

    /** Prints messages per entry under load and unit-delay SD for every size (figures for the issue note). */
    @Test
    void maekawaFigures() {
        for (int n : new int[] {2, 3, 4, 5, 7, 8, 9, 16, 25, 32}) {
            SeedSweep sweep = Simulations.runSeeds(maekawa(n), 1, SEEDS);
            assertTrue(sweep.passed(), sweep::describeFailure);
            double perEntry = (double) sweep.totalMessages() / sweep.totalEntries();
            SeedSweep heavy = Simulations.runSeeds(maekawa(n).workload(Workload.perNode(5).think(0, 0).hold(1, 5)), 1, SEEDS);
            assertTrue(heavy.passed(), heavy::describeFailure);
            double heavyPerEntry = (double) heavy.totalMessages() / heavy.totalEntries();
            SimulationResult sd = Simulation.of(new MaekawaDefinition()).nodes(n).delay(DelayModel.unit())
                    .workload(Workload.perNode(1).think(0, 0).hold(0, 0)).run();
            System.out.println(String.format(Locale.ROOT,
                    "maekawa N=%d 3(K-1)=%.2f default-load=%.2f heavy-load=%.2f msgs/entry, unit SD=%.2f",
                    n, MaekawaDefinition.uncontended(n), perEntry, heavyPerEntry, sd.syncDelay()));
        }
    }
}
