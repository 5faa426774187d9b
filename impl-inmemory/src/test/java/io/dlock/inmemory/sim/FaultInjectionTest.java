package io.dlock.inmemory.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.inmemory.sim.fixtures.ToyCentralizedDefinition;
import io.dlock.NodeId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Smoke tests of each fault of {@link FaultPlan}, on the test-only centralized lock. */
class FaultInjectionTest {

    private static final Simulation TOY = Simulation.of(new ToyCentralizedDefinition()).nodes(5);

    /** Duplicated messages (5%) lose nothing and break nothing for a duplicate-tolerant algorithm. */
    /**
     * A paused holder (a long GC pause the membership does not notice) stays in the critical section for the whole pause: nobody else is
     * granted in the meantime (the toy algorithm has no recovery), the run ends after the pause, every
     * request is still granted, and the replay line rebuilds the pause.
     */
    @Test
    void pausedHolderHoldsThroughThePause() {
        FaultPlan plan = FaultPlan.none().pause(FaultPlan.Role.HOLDER, 15, 5_000);
        assertEquals("FaultPlan.none().pause(FaultPlan.Role.HOLDER, 15L, 5000L)", plan.toString());
        Simulation busy = TOY.delay(DelayModel.uniform(1, 3)).workload(Workload.perNode(3).think(0, 5).hold(10, 20));
        SeedSweep sweep = Simulations.runSeeds(busy.faults(plan), 0, 50, r -> {
            if (!r.ok() || r.ungranted() != 0) {
                return "not ok or ungranted";
            }
            if (r.faultsInjected() == 1 && r.endTime() < 5_000) {
                return "the pause did not delay the run: ended at " + r.endTime();
            }
            return null;
        });
        assertTrue(sweep.passed(), sweep::describeFailure);
        assertTrue(sweep.results().stream().filter(r -> r.faultsInjected() == 1).count() > 10,
                "the pause found a holder in too few seeds");
    }

    @Test
    void duplicatesAreDeliveredTwice() {
        SeedSweep sweep = Simulations.runSeeds(TOY.faults(FaultPlan.none().duplicate(0.05)), 0, 100,
                r -> r.ok() && r.ungranted() == 0 ? null : "not ok or ungranted");
        assertTrue(sweep.passed(), sweep::describeFailure);
        assertTrue(sweep.results().stream().mapToLong(SimulationResult::duplicated).sum() > 0);
    }

    /** Random drops are counted as faults and never cause a safety violation. */
    @Test
    void randomDropsKeepSafety() {
        SeedSweep sweep = Simulations.runSeeds(TOY.faults(FaultPlan.none().drop(0.05)), 0, 100,
                r -> r.safetyViolations() + r.fenceViolations() + r.grantViolations() == 0 ? null : "unsafe");
        assertTrue(sweep.passed(), sweep::describeFailure);
        assertTrue(sweep.results().stream().anyMatch(r -> r.dropped() > 0 && r.faultsInjected() == r.dropped()));
    }

    /** Dropping the first GRANT by type leaves its receiver (and everyone behind it) blocked, safely. */
    @Test
    void dropFilterByType() {
        SimulationResult r = TOY.faults(FaultPlan.none()
                .dropMessages(null, null, ToyCentralizedDefinition.Grant.class, 1)).run();
        assertEquals(1, r.dropped(), r::describeFailure);
        assertEquals(0, r.messages("Grant") - (r.entries() - r.entriesByNode().get(4)) - 1, r::describeFailure);
        assertTrue(r.deadlocked(), r::describeFailure);
        assertTrue(r.ungranted() > 0, r::describeFailure);
        assertEquals(0, r.safetyViolations(), r::describeFailure);
        assertTrue(r.ok(), r::describeFailure);
    }

    /** A link filter on one sender only drops that sender's messages. */
    @Test
    void dropFilterByLink() {
        SimulationResult r = TOY.faults(FaultPlan.none().dropMessages(NodeId.of(1), NodeId.of(4), null)).run();
        assertEquals(0, r.entriesByNode().get(1), r::describeFailure);
        assertEquals(List.of(3L, 0L, 3L, 3L, 3L), r.entriesByNode(), r::describeFailure);
        assertEquals(1, r.ungranted(), r::describeFailure);
    }

    /** Extra delay on GRANT messages shows up exactly in the unit-delay synchronization delay. */
    @Test
    void delayFilter() {
        SimulationResult r = TOY.delay(DelayModel.unit()).workload(Workload.perNode(1).think(0, 0).hold(0, 0))
                .faults(FaultPlan.none().delayMessages(null, null, ToyCentralizedDefinition.Grant.class, 5)).run();
        assertEquals(7.0, r.syncDelay(), r::describeFailure);
        assertEquals(0, r.ungranted(), r::describeFailure);
    }

    /** A crashed coordinator blocks every other requester; messages to it are counted and lost. */
    @Test
    void crashOfCoordinatorBlocksOthers() {
        SimulationResult r = TOY.faults(FaultPlan.none().crash(NodeId.of(4), 15)).run();
        assertTrue(r.deadlocked(), r::describeFailure);
        assertTrue(r.ungranted() > 0, r::describeFailure);
        assertTrue(r.dropped() > 0, r::describeFailure);
        assertEquals(0, r.safetyViolations(), r::describeFailure);
        assertTrue(r.ok(), r::describeFailure);
    }

    /** A node cut off from the coordinator by a partition is never granted; the others are all granted. */
    @Test
    void partitionCutsLinksBetweenGroups() {
        SimulationResult r = TOY.faults(FaultPlan.none()
                .partition(List.of(List.of(NodeId.of(0))), 0, 10_000)).run();
        assertEquals(List.of(0L, 3L, 3L, 3L, 3L), r.entriesByNode(), r::describeFailure);
        assertEquals(1, r.dropped(), r::describeFailure);
        assertEquals(0, r.safetyViolations(), r::describeFailure);
    }

    /** After a partition heals, messages flow again. */
    @Test
    void partitionHeals() {
        SimulationResult r = TOY.workload(Workload.perNode(3).think(50, 60)).faults(FaultPlan.none()
                .partition(List.of(List.of(NodeId.of(0), NodeId.of(1)), List.of(NodeId.of(4))), 0, 40)).run();
        assertEquals(0, r.dropped(), r::describeFailure);
        assertEquals(0, r.ungranted(), r::describeFailure);
    }

    /** A new view drops old-epoch messages in flight and calls onView; the toy re-sends and everyone is granted. */
    @Test
    void installViewDropsOldEpochMessages() {
        Simulation sim = TOY.faults(FaultPlan.none().installView(20, TOY_MEMBERS).installView(45, TOY_MEMBERS));
        SeedSweep sweep = Simulations.runSeeds(sim, 0, 100,
                r -> r.ok() && r.ungranted() == 0 && r.entries() == 15 ? null : "not every request granted");
        assertTrue(sweep.passed(), sweep::describeFailure);
        long stale = sweep.results().stream().mapToLong(SimulationResult::staleDropped).sum();
        assertTrue(stale > 0, "no old-epoch message was in flight at a view change in 100 seeds");
        assertTrue(sweep.results().stream().allMatch(r -> r.faultsInjected() >= 2));
    }

    /** A run without a fault plan reports no fault, no drop, no duplicate and no stale message. */
    @Test
    void emptyPlanInjectsNothing() {
        assertTrue(FaultPlan.none().isEmpty());
        assertFalse(FaultPlan.none().drop(0.1).isEmpty());
        SimulationResult r = TOY.run();
        assertEquals(0, r.faultsInjected() + r.dropped() + r.duplicated() + r.staleDropped(), r::describeFailure);
    }

    private static final List<NodeId> TOY_MEMBERS = List.of(NodeId.of(0), NodeId.of(1), NodeId.of(2), NodeId.of(3),
            NodeId.of(4));
}
