package io.dlock.samples;

import io.dlock.ElectionAlgorithm;
import io.dlock.MutexAlgorithm;
import io.dlock.MutexVariant;
import io.dlock.inmemory.sim.DelayModel;
import io.dlock.inmemory.sim.ElectionResult;
import io.dlock.inmemory.sim.ElectionSimulation;
import io.dlock.inmemory.sim.ElectionSimulation.RingOrder;
import io.dlock.inmemory.sim.ElectionSimulation.Starters;
import io.dlock.inmemory.sim.Simulation;
import io.dlock.inmemory.sim.SimulationResult;
import io.dlock.inmemory.sim.Workload;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.ElectionProtocolDefinition;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolFamily;
import io.dlock.protocol.ProtocolOptions;

/**
 * One point of a sweep: an algorithm on the simulator for one N. Shared by {@code dlock sweep} and
 * {@code dlock report}; each point is an independent, seeded run.
 */
final class Sweep {

    private Sweep() {
    }

    /**
     * Messages per entry of one mutual-exclusion run.
     *
     * @param algorithm        configuration name (or variant name)
     * @param family           the definition's family
     * @param nodes            N
     * @param entries          critical-section entries made
     * @param messagesPerEntry measured
     * @param theory           the definition's expected messages per entry for N (a lower bound when
     *                         {@code lowerBound})
     * @param lowerBound       the algorithm is perpetual (not quiescent when idle): the formula is the saturated figure
     * @param violations       safety, fencing and double-grant violations the checker found
     * @param ungranted        requests never granted
     * @param events           simulator events processed (a measure of the run's cost)
     * @param replay           the run's replay line
     */
    record MutexPoint(String algorithm, ProtocolFamily family, int nodes, long entries, double messagesPerEntry,
                      double theory, boolean lowerBound, long violations, long ungranted, long events, String replay) {
        boolean ok() {
            return violations == 0 && ungranted == 0;
        }
    }

    /**
     * Entries of a decentralized run above this N: one each by nodes n0..n63, not one by every node. With every
     * node requesting at once, decentralized's clients keep splitting the votes and back off: about 11 attempts
     * of 3(N-1) messages per entry at N = 1 024 (35 000 messages per entry, 36 million for the run, nearly two
     * minutes alone), where every other algorithm sends at most about 3N.
     */
    static final int DECENTRALIZED_MAX_ENTRIES = 64;

    /**
     * Runs {@code variant} on N nodes, {@code perNode} entries each (the formulas assume every node makes
     * the same number of requests), the default workload's think and hold times, one seed.
     */
    static MutexPoint mutex(MutexVariant variant, int nodes, long perNode, long seed) {
        return mutex(variant, nodes, perNode, SweepWorkload.DEFAULT, seed, 1);
    }

    /**
     * Runs {@code variant} on N nodes, {@code perNode} entries each (the formulas assume every node makes
     * the same number of requests) with the think and hold times of {@code shape}, random delays 1-10, channels
     * reordered unless the algorithm needs FIFO, every message encoded and decoded; once per seed {@code seed ..
     * seed + seeds - 1}, the runs pooled: messages per entry is all their messages over all their entries, the
     * counts are sums, and the replay line is the first failing run's (else the first run's). Decentralized above
     * N = {@value #DECENTRALIZED_MAX_ENTRIES} makes {@value #DECENTRALIZED_MAX_ENTRIES} entries, one each by the
     * lowest nodes.
     */
    static MutexPoint mutex(MutexVariant variant, int nodes, long perNode, SweepWorkload shape, long seed, int seeds) {
        MutexProtocolDefinition<?> definition = AlgorithmDefinitions.mutex(variant.algorithm());
        boolean perpetual = !definition.quiescentWhenIdle();
        Simulation simulation = Simulation.of(definition).nodes(nodes).options(new ProtocolOptions(variant.options()))
                .stopWhenWorkloadDone(perpetual).workload(shape.shape(workload(variant, nodes, perNode), nodes))
                .encodeMessages(true);
        long entries = 0;
        long messages = 0;
        long violations = 0;
        long ungranted = 0;
        long events = 0;
        String replay = null;
        for (long s = seed; s < seed + seeds; s++) {
            SimulationResult r = simulation.seed(s).run();
            long bad = r.safetyViolations() + r.fenceViolations() + r.grantViolations() + r.codecErrors()
                    + (r.error() == null ? 0 : 1);
            if (replay == null || (bad + r.ungranted() > 0 && violations + ungranted == 0)) {
                replay = r.replay();
            }
            entries += r.entries();
            messages += r.messages();
            violations += bad;
            ungranted += r.ungranted();
            events += r.events();
        }
        return new MutexPoint(variant.name(), definition.family(), nodes, entries,
                entries == 0 ? Double.NaN : (double) messages / entries, definition.expectedMessagesPerEntry(nodes),
                perpetual, violations, ungranted, events, replay);
    }

    /** The workload of a sweep point: {@code perNode} entries each, except decentralized above N = 64. */
    static Workload workload(MutexVariant variant, int nodes, long perNode) {
        if (variant.algorithm() == MutexAlgorithm.DECENTRALIZED && nodes > DECENTRALIZED_MAX_ENTRIES) {
            return Workload.total(DECENTRALIZED_MAX_ENTRIES);
        }
        return Workload.perNode((int) perNode);
    }

    /** Entries per node for a requested total: at least one each, rounded up so every node makes the same number. */
    static long perNode(long totalEntries, int nodes) {
        return Math.max(1, (totalEntries + nodes - 1) / nodes);
    }

    /**
     * One election run.
     *
     * @param algorithm configuration name
     * @param ring      ring order
     * @param nodes     n
     * @param messages  measured messages (all types)
     * @param expected  docs/algorithms.md's exact count for the setting, or -1 if it gives none
     * @param ok        whether every live node learned the highest id
     */
    record ElectionPoint(String algorithm, RingOrder ring, int nodes, long messages, long expected, boolean ok) {
    }

    /** One election of {@code algorithm} on n nodes: every node starts at t=0, unit delays (docs/algorithms.md 0.4's setting). */
    static ElectionPoint election(ElectionAlgorithm algorithm, RingOrder ring, int nodes, long seed) {
        ElectionProtocolDefinition<?> definition = AlgorithmDefinitions.election(algorithm).orElseThrow(() ->
                new IllegalArgumentException(algorithm.configName() + " sends no messages"));
        ElectionResult r = ElectionSimulation.of(definition).nodes(nodes).ring(ring).starters(Starters.ALL)
                .delay(DelayModel.unit()).seed(seed).run();
        return new ElectionPoint(algorithm.configName(), ring, nodes, r.messages(),
                r.expectedMessages().isPresent() ? r.expectedMessages().getAsLong() : -1, r.ok());
    }
}
