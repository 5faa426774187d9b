package io.dlock.inmemory.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.inmemory.sim.fixtures.BrokenPermissionDefinition;
import org.junit.jupiter.api.Test;

/** The checker catches a deliberately broken algorithm, and a failing seed replays to the same failure. */
class BrokenAlgorithmTest {

    private static final Simulation BROKEN = Simulation.of(new BrokenPermissionDefinition()).nodes(3);
    private static final RunCheck ME1 = r -> r.safetyViolations() == 0 ? null : "ME1 violated";

    /** Ricart-Agrawala without the priority rule violates ME1, and the checker says so with time and nodes. */
    @Test
    void checkerCatchesMutualExclusionViolation() {
        SeedSweep sweep = Simulations.runSeeds(BROKEN, 0, 100, ME1);
        assertFalse(sweep.passed(), "the broken algorithm passed 100 seeds");
        SimulationResult failure = sweep.failure();
        System.out.println("broken-permission " + failure.describeFailure().lines().findFirst().orElseThrow());
        assertTrue(failure.safetyViolations() > 0, failure::describeFailure);
        assertTrue(failure.describeFailure().startsWith("failed on seed " + failure.seed() + "; replay: "));
    }

    /** Replaying the first failing seed reproduces the very same failure, event for event. */
    @Test
    void failingSeedReplaysToTheSameFailure() {
        SimulationResult failure = Simulations.runSeeds(BROKEN, 0, 100, ME1).failure();
        assertNotNull(failure);
        SimulationResult replayed = Simulations.replay(BROKEN, failure.seed());
        assertEquals(failure, replayed);
        assertEquals(failure.firstViolation(), replayed.firstViolation());
        assertEquals(failure.traceHash(), replayed.traceHash());
    }

    /** Some seeds of the broken algorithm pass (no overlapping requests): the checker does not cry wolf. */
    @Test
    void checkerAcceptsRunsWithoutOverlap() {
        Simulation sparse = BROKEN.workload(Workload.perNode(2).think(100, 200).hold(0, 1)).delay(DelayModel.unit());
        SeedSweep sweep = Simulations.runSeeds(sparse, 0, 1);
        SimulationResult r = sweep.results().get(0);
        assertEquals(0, r.safetyViolations(), r::describeFailure);
        assertEquals(0, r.ungranted(), r::describeFailure);
        assertEquals(6, r.entries(), r::describeFailure);
    }
}
