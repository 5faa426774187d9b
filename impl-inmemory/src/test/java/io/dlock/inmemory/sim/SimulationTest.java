package io.dlock.inmemory.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.inmemory.sim.fixtures.ProbeDefinition;
import io.dlock.inmemory.sim.fixtures.ToyCentralizedDefinition;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The simulator itself, driven by the test-only algorithms. */
class SimulationTest {

    private static final Simulation TOY = Simulation.of(new ToyCentralizedDefinition());

    /** The toy centralized lock is safe on every seed and costs exactly 3 messages per entry of a non-coordinator. */
    @Test
    void toyIsSafeAndCountsExactlyOverSeedsAndSizes() {
        for (int n : new int[] {1, 2, 3, 5, 8, 16}) {
            SeedSweep sweep = Simulations.runSeeds(TOY.nodes(n), 1, 100, RunCheck.OK.and(r -> {
                long nonCoordinatorEntries = r.entries() - r.entriesByNode().get(n - 1);
                return r.messages() == 3 * nonCoordinatorEntries ? null
                        : "messages " + r.messages() + " != 3 x " + nonCoordinatorEntries;
            }));
            assertTrue(sweep.passed(), sweep::describeFailure);
            assertEquals(3L * n * 100, sweep.totalEntries(), sweep::describeFailure);
        }
    }

    /** Each entry is counted per message type and bytes are counted when messages are encoded. */
    @Test
    void countsPerTypeAndBytes() {
        SimulationResult r = TOY.nodes(4).seed(3).run();
        assertTrue(r.ok(), r::describeFailure);
        assertEquals(9, r.messages("Request"), r::describeFailure);
        assertEquals(9, r.messages("Grant"), r::describeFailure);
        assertEquals(9, r.messages("Release"), r::describeFailure);
        assertEquals(List.of("Grant", "Release", "Request"), List.copyOf(r.messagesByType().keySet()));
        assertTrue(r.bytes() >= 2 * 27L, r::describeFailure);
        assertEquals(3.0 * 9 / 12, r.messagesPerEntry(), 1e-12);
    }

    /** Passing messages through the codec changes no schedule: same trace with and without encoding. */
    @Test
    void encodingDoesNotChangeTheSchedule() {
        SimulationResult encoded = TOY.nodes(5).seed(11).encodeMessages(true).run();
        SimulationResult plain = TOY.nodes(5).seed(11).encodeMessages(false).run();
        assertEquals(encoded.traceHash(), plain.traceHash());
        assertEquals(0, plain.bytes());
        assertTrue(encoded.bytes() > 0);
    }

    /** One seed run twice gives an identical trace hash and an equal result. */
    @Test
    void sameSeedSameRun() {
        Simulation sim = TOY.nodes(8).seed(12345).faults(FaultPlan.none().duplicate(0.05));
        SimulationResult first = sim.run();
        SimulationResult second = sim.run();
        assertEquals(first.traceHash(), second.traceHash());
        assertEquals(first, second);
    }

    /** Different seeds give different traces (all distinct over 50 seeds). */
    @Test
    void differentSeedsDifferentRuns() {
        Set<Long> hashes = new HashSet<>();
        for (long seed = 0; seed < 50; seed++) {
            hashes.add(TOY.nodes(5).seed(seed).run().traceHash());
        }
        assertEquals(50, hashes.size());
    }

    /** Under unit delay, all nodes requesting at t=0 and zero hold time, the toy centralized lock has SD = 2 (CEN-4). */
    @Test
    void unitDelaySyncDelayOfCentralized() {
        SimulationResult r = TOY.nodes(6).delay(DelayModel.unit())
                .workload(Workload.perNode(1).think(0, 0).hold(0, 0)).run();
        assertTrue(r.ok(), r::describeFailure);
        assertEquals(2.0, r.syncDelay(), r::describeFailure);
        assertEquals(5, r.syncDelaySamples(), r::describeFailure);
    }

    /** A FIFO-requiring algorithm gets per-channel send order; with the guard off its channels reorder. */
    @Test
    void fifoGuard() {
        Simulation probe = Simulation.of(new ProbeDefinition()).nodes(4)
                .workload(Workload.total(1).think(0, 0).hold(0, 0));
        for (long seed = 0; seed < 20; seed++) {
            SimulationResult fifo = probe.seed(seed).run();
            assertNull(fifo.error(), fifo::describeFailure);
            assertEquals(3L * ProbeDefinition.BURST, fifo.messages(), fifo::describeFailure);
        }
        SimulationResult reordered = probe.fifoGuard(false).seed(0).run();
        assertNotNull(reordered.error(), reordered::describeFailure);
        assertTrue(reordered.error().contains("out of order"), reordered::describeFailure);
        assertTrue(reordered.describeFailure().contains(".fifoGuard(false)"), reordered::describeFailure);
    }

    /** A restarted timer fires once at its last deadline, a cancelled one never, and a crashed node's never. */
    @Test
    void timers() {
        Simulation probe = Simulation.of(new ProbeDefinition()).nodes(2)
                .options(ProtocolOptions.NONE.with("mode", "timer"))
                .workload(Workload.total(1).think(0, 0).hold(0, 0));
        SimulationResult r = probe.run();
        assertTrue(r.ok(), r::describeFailure);
        assertEquals(1, r.entries(), r::describeFailure);
        assertEquals(10, r.endTime(), r::describeFailure);
        SimulationResult crashed = probe.faults(FaultPlan.none().crash(NodeId.of(0), 2)).run();
        assertTrue(crashed.ok(), crashed::describeFailure);
        assertEquals(0, crashed.entries(), crashed::describeFailure);
        assertEquals(0, crashed.ungranted(), crashed::describeFailure);
    }

    /** Event and time limits stop a run and mark it truncated. */
    @Test
    void limitsTruncate() {
        SimulationResult byEvents = TOY.nodes(4).maxEvents(10).run();
        assertTrue(byEvents.truncated());
        assertEquals(10, byEvents.events());
        SimulationResult byTime = TOY.nodes(4).maxTime(5).run();
        assertTrue(byTime.truncated());
        assertTrue(byTime.endTime() <= 5);
    }

    /** The replay line is Java that names the configuration and the source notes. */
    @Test
    void describeFailureStartsWithSeedAndReplayLine() {
        SimulationResult r = TOY.nodes(3).seed(77).faults(FaultPlan.none().drop(0.5)).run();
        String text = r.describeFailure();
        assertTrue(text.startsWith("failed on seed 77; replay: Simulation.of(new "
                + ToyCentralizedDefinition.class.getCanonicalName() + "()).nodes(3)"), text);
        assertTrue(text.lines().findFirst().orElseThrow()
                .endsWith(".faults(FaultPlan.none().drop(0.5)).encodeMessages(true).seed(77L).run()"), text);
    }

    /** Bad configuration is refused with a message naming the value. */
    @Test
    void rejectsBadConfiguration() {
        assertThrows(IllegalArgumentException.class, () -> TOY.nodes(0));
        assertThrows(IllegalArgumentException.class, () -> DelayModel.uniform(5, 1));
        assertThrows(IllegalArgumentException.class, () -> Workload.perNode(1).think(-1, 3));
        assertThrows(IllegalArgumentException.class, () -> FaultPlan.none().drop(1.5));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TOY.nodes(3).faults(FaultPlan.none().crash(NodeId.of(5), 1)).run());
        assertTrue(e.getMessage().contains("n5"), e.getMessage());
        assertNotEquals(TOY.seed(1).toString(), TOY.seed(2).toString());
    }

    /**
     * An invariant a test adds with {@code check} is asked at every grant after the checker's own: its
     * violations are counted apart, fail the run and describe the first violation; the run itself is
     * the same (same trace).
     */
    @Test
    void addedInvariantIsCheckedAtEveryGrant() {
        Invariant fencesBelowThree = (lock, node, fence) -> fence < 3 ? null
                : "n" + node + " granted fence " + fence + ", not below 3 (holders: " + lock.holders() + ")";
        Simulation plain = TOY.nodes(3).seed(5);
        SimulationResult checked = plain.check(fencesBelowThree).run();
        SimulationResult unchecked = plain.run();
        assertTrue(unchecked.ok(), unchecked::describeFailure);
        assertFalse(checked.ok());
        assertEquals(unchecked.entries() - 2, checked.addedViolations(), checked::describeFailure);
        assertEquals(0, checked.safetyViolations() + checked.fenceViolations() + checked.grantViolations());
        assertTrue(checked.firstViolation().contains("granted fence 3, not below 3 (holders: 0)"),
                checked.firstViolation());
        assertEquals(unchecked.traceHash(), checked.traceHash());
        assertEquals(List.of(fencesBelowThree), plain.check(fencesBelowThree).invariants());
    }
}
