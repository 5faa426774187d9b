package io.dlock.inmemory.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.MutexAlgorithm;
import io.dlock.protocol.AlgorithmDefinitions;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One lock per key with reclamation on, in the simulator (issue 14): Zipf-distributed names over a few nodes,
 * idle names reclaimed cluster-wide while others are in use and used again afterwards. For every algorithm and
 * 200 seeds: one holder per name, fencing tokens increasing per name across incarnations, every request granted,
 * and every lock state reclaimed once the clients are done.
 */
class KeyedSimulationTest {

    private static final int SEEDS = 200;

    private static KeyedSimulation simulation(MutexAlgorithm algorithm, int nodes) {
        return KeyedSimulation.of(AlgorithmDefinitions.mutex(algorithm)).nodes(nodes).names(40).zipf(1.0).requestsPerNode(12)
                .thinkAndHold(30, 5).delay(DelayModel.uniform(1, 10)).idleExpiry(40, 10);
    }

    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    void manyNamesWithReclamationStaySafeAndLive(MutexAlgorithm algorithm) {
        long reclaimed = 0;
        long incarnations = 0;
        long namesUsed = 0;
        long entries = 0;
        long lockMessages = 0;
        long reclaimMessages = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            int nodes = 3 + (int) (seed % 3); // 3, 4 and 5 nodes
            KeyedResult r = simulation(algorithm, nodes).seed(seed).run();
            assertTrue(r.passed(), r::describe);
            assertEquals(nodes * 12L, r.entries(), r::describe);
            reclaimed += r.reclaimed();
            incarnations += r.incarnations();
            namesUsed += r.namesUsed();
            entries += r.entries();
            lockMessages += r.lockMessages();
            reclaimMessages += r.reclaimMessages();
        }
        assertTrue(reclaimed >= incarnations, "every state created was reclaimed: " + reclaimed + " of " + incarnations);
        assertTrue(incarnations > namesUsed * 3L, "names were reclaimed and used again (" + incarnations
                + " states created for " + namesUsed + " names used, summed over seeds)");
        System.out.printf(Locale.ROOT, "%s keyed: %d seeds, %d entries, %.2f lock msgs/entry, %.2f reclaim msgs/entry,"
                        + " %d states created, %d reclaimed%n", algorithm.configName(), SEEDS, entries,
                (double) lockMessages / entries, (double) reclaimMessages / entries, incarnations, reclaimed);
    }

    /** A run is a function of its settings and seed. */
    @Test
    void aRunIsReplayable() {
        KeyedResult a = simulation(MutexAlgorithm.SUZUKI_KASAMI, 4).seed(42).run();
        KeyedResult b = simulation(MutexAlgorithm.SUZUKI_KASAMI, 4).seed(42).run();
        assertEquals(a, b);
        assertTrue(a.replay().contains(".seed(42L)"), a.replay());
    }

    @Test
    void refusesBadSettingsNamingThem() {
        KeyedSimulation s = KeyedSimulation.of(AlgorithmDefinitions.mutex(MutexAlgorithm.CENTRALIZED));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> s.names(0)).getMessage().contains("names"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> s.zipf(-1)).getMessage().contains("zipf"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> s.idleExpiry(10, 20)).getMessage()
                .contains("sweep period"));
    }
}
