package io.dlock.inmemory.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.dlock.MutexAlgorithm;
import io.dlock.inmemory.sim.fixtures.SignalDroppingKeeper;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.NodeId;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Conditions beside every mutual-exclusion algorithm: a bounded buffer of producers and consumers on
 * random nodes ({@link ConditionSimulation}). Without faults, {@value #SEEDS} seeds for N = 3 and 5 each,
 * signal and signalAll, some awaits timed: every item produced and consumed, no lost wake-up, one wake per
 * signal at the keeper (all per signalAll), the message formulas of {@code ConditionProtocol}. With
 * {@value #FAULT_SEEDS} seeds per fault: a crash of a non-keeper node, of the keeper, and a partition that
 * heals, after which every waiter wakes and checks again. A keeper that drops one wake-up is caught.
 */
class ConditionSimulationTest {

    private static final int SEEDS = Integer.getInteger("dlock.condition.seeds", 200);
    private static final int FAULT_SEEDS = Integer.getInteger("dlock.condition.faultSeeds", 30);
    private static final long DETECT = 20;

    private static ConditionSimulation buffer(MutexAlgorithm algorithm, int n) {
        Simulation lock = Simulation.of(AlgorithmDefinitions.mutex(algorithm)).nodes(n).delay(DelayModel.uniform(1, 10))
                .workload(Workload.perNode(1).think(0, 20).hold(0, 5))
                .maxTime(1_000_000).maxEvents(2_000_000);
        return ConditionSimulation.of(lock).capacity(2).items(4);
    }

    /** The setting of a fault-free seed: seeds alternate signal and signalAll, every third has timed awaits. */
    private static ConditionSimulation faultFree(MutexAlgorithm algorithm, int n, long seed) {
        return buffer(algorithm, n).signalAll(seed % 2 == 0).timedAwaits(seed % 3 == 0 ? 15 : 0).seed(seed);
    }

    /** Without faults: every item through, no lost wake-up, exact wake counts and message formulas; N = 3, 5. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void boundedBufferWithoutFaults(MutexAlgorithm algorithm) {
        long awaits = 0;
        long wakeUps = 0;
        long giveUps = 0;
        long started = System.nanoTime();
        for (int n : new int[] {3, 5}) {
            for (long seed = 1; seed <= SEEDS; seed++) {
                ConditionResult result = faultFree(algorithm, n, seed).run();
                assertTrue(result.ok(), result::describeFailure);
                assertEquals(result.produced(), result.consumed(), result::describeFailure);
                awaits += result.awaits();
                wakeUps += result.wakeUps();
                giveUps += result.giveUps();
            }
        }
        System.out.println(String.format(Locale.ROOT, "condition sim %-16s runs=%d awaits=%d wake-ups=%d give-ups=%d in %d ms",
                algorithm.configName(), 2 * SEEDS, awaits, wakeUps, giveUps, (System.nanoTime() - started) / 1_000_000));
        assertTrue(awaits > 0 && wakeUps > 0 && giveUps > 0, "the buffer never made anybody wait, wake or give up");
    }

    /** A non-keeper node crashes (detected later): the live clients are never left waiting while they could go on. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void survivesCrashOfANonKeeper(MutexAlgorithm algorithm) {
        faultSweep(algorithm, "crash of a non-keeper",
                seed -> FaultPlan.none().detectCrashes(DETECT).crash(NodeId.of(1 + (int) (seed % 4)), 10 + seed % 40));
    }

    /** The keeper (node 0) crashes: its queue is gone, the next view's keeper starts empty, every waiter re-waits. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void survivesCrashOfTheKeeper(MutexAlgorithm algorithm) {
        faultSweep(algorithm, "crash of the keeper",
                seed -> FaultPlan.none().detectCrashes(DETECT).crash(NodeId.of(0), 10 + seed % 40));
    }

    /** A minority (the keeper, or two others) is cut off and merges back: every waiter wakes on both views. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void survivesAPartitionThatHeals(MutexAlgorithm algorithm) {
        faultSweep(algorithm, "partition that heals", seed -> {
            long from = 10 + seed % 40;
            List<NodeId> minority = seed % 2 == 0 ? List.of(NodeId.of(0)) : List.of(NodeId.of(3), NodeId.of(4));
            return FaultPlan.none().detectCrashes(DETECT).split(minority, from, from + 30 + seed % 50);
        });
    }

    /** {@value #FAULT_SEEDS} seeds at N = 5 under the plan each seed gives; the first failure fails the test. */
    private static void faultSweep(MutexAlgorithm algorithm, String what, LongFunction<FaultPlan> plans) {
        long faults = 0;
        for (long seed = 1; seed <= FAULT_SEEDS; seed++) {
            ConditionResult result = ConditionSimulation.of(buffer(algorithm, 5).base().faults(plans.apply(seed)))
                    .capacity(2).items(4).signalAll(seed % 2 == 0).timedAwaits(seed % 3 == 0 ? 15 : 0).seed(seed).run();
            if (!result.ok()) {
                fail(what + ": " + result.describeFailure());
            }
            faults += result.lock().faultsInjected();
        }
        assertTrue(faults > 0, "no fault was ever injected");
    }

    /** A keeper that drops one wake-up: the checker reports the lost waiter, naming the seed. */
    @Test
    void catchesAKeeperThatDropsOneSignal() {
        ConditionSimulation broken = buffer(MutexAlgorithm.RICART_AGRAWALA, 3).decorate(SignalDroppingKeeper::new);
        int caught = 0;
        int lost = 0;
        for (long seed = 1; seed <= 50; seed++) {
            ConditionResult result = broken.seed(seed).run();
            if (!result.ok()) {
                caught++;
                assertTrue(result.describeFailure().contains("seed " + seed), result::describeFailure);
                if (result.violations().stream().anyMatch(v -> v.startsWith("lost wake-up"))) {
                    lost++;
                }
            }
        }
        assertTrue(caught > 0, "a keeper that drops a wake-up went unnoticed in 50 seeds");
        assertTrue(lost > 0, "no lost wake-up reported in " + caught + " failing seeds");
    }

    /** The same seed gives the same run, and the replay line names the seed. */
    @Test
    void isDeterministic() {
        ConditionSimulation run = faultFree(MutexAlgorithm.SUZUKI_KASAMI, 5, 7);
        ConditionResult a = run.run();
        ConditionResult b = run.run();
        assertEquals(a.lock().traceHash(), b.lock().traceHash());
        assertEquals(a.messages(), b.messages());
        // printed in the same order in every JVM (Map.copyOf's order changes with the JVM's random salt)
        assertEquals(List.copyOf(new TreeSet<>(a.messages().keySet())), List.copyOf(a.messages().keySet()));
        assertTrue(a.replay().contains(".seed(7L)"), a.replay());
    }
}
