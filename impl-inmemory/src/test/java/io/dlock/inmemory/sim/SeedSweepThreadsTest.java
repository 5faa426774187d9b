package io.dlock.inmemory.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.MutexAlgorithm;
import io.dlock.protocol.AlgorithmDefinitions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A sweep that runs its seeds on several threads gives what a run of one seed after the other gives: the same
 * results in seed order, down to each run's trace hash, and the same first failure.
 */
class SeedSweepThreadsTest {

    private static Simulation simulation(MutexAlgorithm algorithm) {
        return Simulation.of(AlgorithmDefinitions.mutex(algorithm)).nodes(5)
                .stopWhenWorkloadDone(!AlgorithmDefinitions.mutex(algorithm).quiescentWhenIdle())
                .delay(DelayModel.uniform(1, 10))
                .workload(Workload.perNode(3).think(0, 20).hold(0, 5))
                .encodeMessages(true);
    }

    private static List<Long> traces(SeedSweep sweep) {
        return sweep.results().stream().map(SimulationResult::traceHash).toList();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(MutexAlgorithm.class)
    void when_seedsRunOnFourThreads_then_theSweepIsTheSequentialOne(MutexAlgorithm algorithm) {
        Simulation template = simulation(algorithm);
        SeedSweep sequential = Simulations.runSeeds(template, 1, 24, RunCheck.OK, 1);
        SeedSweep parallel = Simulations.runSeeds(template, 1, 24, RunCheck.OK, 4);

        assertTrue(sequential.passed(), sequential::describeFailure);
        assertEquals(24, parallel.results().size());
        assertEquals(traces(sequential), traces(parallel), "trace hashes in seed order");
        assertEquals(sequential.totalEntries(), parallel.totalEntries());
        assertNull(parallel.failure());
    }

    /** Seeds after the first failing one may have run on other threads; the sweep still ends at the first. */
    @Test
    void when_aSeedFails_then_theSweepEndsAtTheSmallestFailingSeed() {
        Simulation template = simulation(MutexAlgorithm.RICART_AGRAWALA);
        RunCheck failsFrom6 = r -> r.seed() >= 6 ? "seed " + r.seed() + " rejected" : null;

        SeedSweep sweep = Simulations.runSeeds(template, 1, 40, failsFrom6, 3);

        assertEquals(6, sweep.failure().seed());
        assertEquals(6, sweep.results().size(), "the results up to and with the failure");
        assertEquals("seed 6 rejected", sweep.problem());
        assertEquals(traces(Simulations.runSeeds(template, 1, 40, failsFrom6, 1)), traces(sweep));
    }

    @Test
    void when_theThreadsPropertyIsNotAPositiveInteger_then_itIsRefusedByName() {
        String before = System.getProperty(Simulations.THREADS_PROPERTY);
        try {
            System.setProperty(Simulations.THREADS_PROPERTY, "0");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, Simulations::threads);
            assertEquals("dlock.sim.threads must be a positive integer, got '0'", e.getMessage());
            System.setProperty(Simulations.THREADS_PROPERTY, "2");
            assertEquals(2, Simulations.threads());
        } finally {
            if (before == null) {
                System.clearProperty(Simulations.THREADS_PROPERTY);
            } else {
                System.setProperty(Simulations.THREADS_PROPERTY, before);
            }
        }
    }
}
