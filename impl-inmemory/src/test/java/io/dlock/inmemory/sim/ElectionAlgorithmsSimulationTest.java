package io.dlock.inmemory.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.ElectionAlgorithm;
import io.dlock.election.changroberts.ChangRobertsDefinition;
import io.dlock.inmemory.sim.ElectionSimulation.RingOrder;
import io.dlock.inmemory.sim.ElectionSimulation.Starters;
import io.dlock.inmemory.sim.fixtures.LiteralSeedChangRobertsDefinition;
import io.dlock.inmemory.sim.fixtures.LiteralSeedPetersonDefinition;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.ElectionProtocolDefinition;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every registered election algorithm in the simulator: exactly one leader, the highest live id,
 * known to every live node; and docs/algorithms.md Part G's exact message counts (BU-1, BU-2, NV-1, CR-1..3,
 * FR-1, FR-2, PE-1, PE-2) for every ring order, several simultaneous starters, and the previous
 * leader crashed, over many seeds and sizes. Channels reorder unless the algorithm requires FIFO.
 */
class ElectionAlgorithmsSimulationTest {

    private static final int SEEDS = 200;
    private static final int[] SIZES = {2, 3, 5, 8, 16, 64};
    /** Starter sets of the sweeps: everyone, several at once (a random subset), a single one. */
    private static final List<Starters> STARTERS = List.of(Starters.ALL, Starters.RANDOM_SUBSET, Starters.LOWEST);

    static Stream<Arguments> algorithmsAndSizes() {
        return ElectionAlgorithm.messagePassing().stream()
                .flatMap(a -> Arrays.stream(SIZES).mapToObj(n -> Arguments.of(a, n)));
    }

    private static ElectionProtocolDefinition<?> def(ElectionAlgorithm a) {
        return AlgorithmDefinitions.election(a).orElseThrow();
    }

    /**
     * Runs SEEDS seeds, seed s on {@code variant.apply(s)}; each run must pass the checker, elect the
     * highest live id and match the definition's exact count when it has one.
     */
    private static void sweep(LongFunction<ElectionSimulation> variant) {
        for (long seed = 0; seed < SEEDS; seed++) {
            ElectionResult r = variant.apply(seed).seed(seed).run();
            assertTrue(r.ok(), r::describeFailure);
            NodeId highest = NodeId.of(r.crashed().isEmpty() ? r.nodes() : r.nodes() - 1);
            assertEquals(highest, r.leader().orElse(null), r::describeFailure);
            if (r.expectedMessages().isPresent()) {
                assertEquals(r.expectedMessages().getAsLong(), r.messages(), r::describeFailure);
            }
        }
    }

    /**
     * Every ring order (increasing, decreasing, random) and every starter set (all, several at random,
     * one), cycled over the seeds, elects the maximum with the exact count.
     */
    @ParameterizedTest(name = "{0} n={1}")
    @MethodSource("algorithmsAndSizes")
    void everyRingOrderAndStarterSet_electsTheMaximum(ElectionAlgorithm algorithm, int n) {
        ElectionSimulation base = ElectionSimulation.of(def(algorithm)).nodes(n);
        sweep(seed -> base.ring(RingOrder.values()[(int) (seed % 3)]).starters(STARTERS.get((int) (seed / 3 % 3))));
    }

    /**
     * Previous leader crashed: bully and the ring with list detect it by timeouts (it stays in their
     * member set); the other ring algorithms assume crashed nodes are removed from the ring, so for
     * them the new ring is the n-1 survivors (docs/algorithms.md B3-B6 assumptions).
     */
    @ParameterizedTest(name = "{0} n={1}")
    @MethodSource("algorithmsAndSizes")
    void previousLeaderCrashed_survivorsElectTheNextHighest(ElectionAlgorithm algorithm, int n) {
        boolean detectsCrashes = algorithm == ElectionAlgorithm.BULLY || algorithm == ElectionAlgorithm.RING;
        ElectionSimulation base = detectsCrashes
                ? ElectionSimulation.of(def(algorithm)).nodes(n).crashLeader(true)
                : ElectionSimulation.of(def(algorithm)).nodes(n - 1);
        Starters[] starters = Starters.values();
        sweep(seed -> base.ring(RingOrder.values()[(int) (seed % 3)]).starters(starters[(int) (seed / 3 % starters.length)]));
    }

    /**
     * The initiator (the lowest node, not the maximum) crashes in the middle of the
     * election, at a time drawn from the seed; for the two algorithms that tolerate crashes during a
     * run, every other node learns the highest live id and the run ends (the ring election's
     * COORDINATOR used to circle for ever, since only its initiator stopped it), over 200 seeds x
     * N = 3, 5, 8, 16, every ring order.
     */
    @ParameterizedTest
    @ValueSource(ints = {3, 5, 8, 16})
    void ringAndBully_whenTheInitiatorCrashesMidElection_thenTheOthersStillAgree(int n) {
        for (ElectionAlgorithm a : List.of(ElectionAlgorithm.RING, ElectionAlgorithm.BULLY)) {
            initiatorCrashesMidElection(a, n);
        }
    }

    private static void initiatorCrashesMidElection(ElectionAlgorithm algorithm, int n) {
        ElectionSimulation base = ElectionSimulation.of(def(algorithm)).nodes(n).starters(Starters.LOWEST)
                .maxEvents(200_000);
        int crashedMidRun = 0;
        for (long seed = 0; seed < SEEDS; seed++) {
            // within the run: the ring's two circulations (delays up to 10), bully's few round trips
            long at = 1 + seed % (algorithm == ElectionAlgorithm.RING ? 4L * n * 10 : 20);
            ElectionResult r = base.ring(RingOrder.values()[(int) (seed % 3)]).crashStarterAt(at).seed(seed).run();
            assertTrue(r.ok(), r::describeFailure);
            assertEquals(NodeId.of(n), r.leader().orElse(null), r::describeFailure);
            assertEquals(n - 1, r.learned().size(), r::describeFailure);
            crashedMidRun += r.expectedMessages().isEmpty() && r.steps() >= at ? 1 : 0;
        }
        assertTrue(crashedMidRun > SEEDS / 4, algorithm + ": the crash rarely hit a running election: " + crashedMidRun);
    }

    /**
     * The ring election reports the member list its COORDINATOR carries (issue 17): every live node
     * learns the live ids, the crashed previous leader left out, over every ring order, starter set
     * and 200 seeds; the other algorithms report none.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5, 8, 16})
    void ring_reportsTheCoordinatorsMemberList(int n) {
        for (long seed = 0; seed < SEEDS; seed++) {
            boolean crash = seed % 2 == 1;
            ElectionResult r = ElectionSimulation.of(def(ElectionAlgorithm.RING)).nodes(n).crashLeader(crash)
                    .ring(RingOrder.values()[(int) (seed % 3)]).starters(STARTERS.get((int) (seed / 3 % 3))).seed(seed).run();
            assertTrue(r.ok(), r::describeFailure);
            List<NodeId> live = java.util.stream.IntStream.rangeClosed(1, crash ? n - 1 : n).mapToObj(NodeId::of).toList();
            assertEquals(live.size(), r.members().size(), r::describeFailure);
            r.members().values().forEach(m -> assertEquals(live, m, r::describeFailure));
        }
        ElectionResult bully = ElectionSimulation.of(def(ElectionAlgorithm.BULLY)).nodes(n).run();
        bully.members().values().forEach(m -> assertTrue(m.isEmpty(), bully::describeFailure));
    }

    /** BU-1, BU-2: old coordinator n crashed; n-1 starts: n-1 messages; 1 starts: n^2-n-1, split as docs/algorithms.md says. */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5, 8, 10, 16, 64})
    void bully_bestAndWorstCase(int n) {
        ElectionSimulation base = ElectionSimulation.of(def(ElectionAlgorithm.BULLY)).nodes(n).crashLeader(true);
        for (long seed = 0; seed < SEEDS; seed++) {
            ElectionResult best = base.starters(Starters.HIGHEST).seed(seed).run();
            assertTrue(best.ok(), best::describeFailure);
            assertEquals(n - 1, best.messages(), best::describeFailure);
            assertEquals(n - 2, best.count("Coordinator"), best::describeFailure);
            ElectionResult worst = base.starters(Starters.LOWEST).seed(seed).run();
            assertTrue(worst.ok(), worst::describeFailure);
            assertEquals((long) n * n - n - 1, worst.messages(), worst::describeFailure);
            assertEquals((long) n * (n - 1) / 2, worst.count("Election"), worst::describeFailure);
            assertEquals((long) (n - 1) * (n - 2) / 2, worst.count("Ok"), worst::describeFailure);
        }
    }

    /** BU-4: the highest node starts while everyone lives: 0 ELECTION, n-1 COORDINATOR. */
    @Test
    void bully_highestStarts_sendsOnlyCoordinators() {
        ElectionResult r = ElectionSimulation.of(def(ElectionAlgorithm.BULLY)).nodes(10).starters(Starters.HIGHEST).run();
        assertTrue(r.ok(), r::describeFailure);
        assertEquals(9, r.messages(), r::describeFailure);
        assertEquals(9, r.count("Coordinator"), r::describeFailure);
    }

    /** NV-1: LeLann sends exactly n^2 messages whatever the starters and the ring. */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5, 8, 16, 64})
    void lelann_nSquared(int n) {
        for (Starters s : List.of(Starters.ALL, Starters.LOWEST, Starters.RANDOM_SUBSET)) {
            ElectionResult r = ElectionSimulation.of(def(ElectionAlgorithm.LELANN)).nodes(n).ring(RingOrder.RANDOM)
                    .starters(s).seed(n).run();
            assertTrue(r.ok(), r::describeFailure);
            assertEquals((long) n * n, r.messages(), r::describeFailure);
        }
    }

    /** CR-1..CR-3: 2n-1 ELECTION on the increasing ring, n(n+1)/2 on the decreasing one, always n ELECTED. */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5, 8, 16, 64})
    void changRoberts_bestAndWorstRing(int n) {
        ElectionSimulation base = ElectionSimulation.of(def(ElectionAlgorithm.CHANG_ROBERTS)).nodes(n);
        for (long seed = 0; seed < SEEDS; seed++) {
            ElectionResult best = base.ring(RingOrder.INCREASING).seed(seed).run();
            assertEquals(2L * n - 1, best.count("Election"), best::describeFailure);
            assertEquals(n, best.count("Elected"), best::describeFailure);
            ElectionResult worst = base.ring(RingOrder.DECREASING).seed(seed).run();
            assertEquals((long) n * (n + 1) / 2, worst.count("Election"), worst::describeFailure);
            assertEquals(n, worst.count("Elected"), worst::describeFailure);
        }
    }

    /** CR-5: the source notes' max-seen variant is correct and never sends more ELECTION messages than the classic rule. */
    @ParameterizedTest
    @ValueSource(ints = {2, 5, 16, 64})
    void changRoberts_seedMaxSeen_neverWorse(int n) {
        ElectionSimulation base = ElectionSimulation.of(def(ElectionAlgorithm.CHANG_ROBERTS)).nodes(n).ring(RingOrder.RANDOM);
        for (long seed = 0; seed < SEEDS; seed++) {
            ElectionResult classic = base.seed(seed).run();
            ElectionResult variant = base.options(ProtocolOptions.NONE.with(ChangRobertsDefinition.SEED_MAX_SEEN, "true"))
                    .seed(seed).run();
            assertTrue(variant.ok(), variant::describeFailure);
            assertTrue(variant.count("Election") <= classic.count("Election"), variant::describeFailure);
        }
    }

    /**
     * FR-1, FR-2, PE-1, PE-2 (expected counts computed here from the ring itself, not from
     * the production model): every ring order and 200 seeds, the measured count equals the count of
     * {@link #franklinMessages} and {@link #petersonMessages}, which play the phases on the ring
     * positions and add up every hop; sorted rings take 2 phases (5n and 4n); never more than
     * floor(log2 n)+1 phases.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5, 8, 16, 64})
    void franklinAndPeterson_countsFromTheRing(int n) {
        long bound = 31 - Integer.numberOfLeadingZeros(n) + 1;
        for (ElectionAlgorithm a : List.of(ElectionAlgorithm.FRANKLIN, ElectionAlgorithm.PETERSON)) {
            boolean franklin = a == ElectionAlgorithm.FRANKLIN;
            ElectionSimulation base = ElectionSimulation.of(def(a)).nodes(n);
            for (RingOrder order : List.of(RingOrder.INCREASING, RingOrder.DECREASING)) {
                ElectionResult sorted = base.ring(order).run();
                assertEquals(franklin ? 5L * n : 4L * n, sorted.messages(), sorted::describeFailure);
            }
            for (long seed = 0; seed < SEEDS; seed++) {
                ElectionResult r = base.ring(RingOrder.values()[(int) (seed % 3)]).seed(seed).run();
                assertTrue(r.ok(), r::describeFailure);
                long[] phasesAndMessages = franklin ? franklinMessages(r.ring()) : petersonMessages(r.ring());
                assertEquals(phasesAndMessages[1], r.messages(), r::describeFailure);
                assertTrue(phasesAndMessages[0] <= bound, r::describeFailure);
            }
        }
    }

    /**
     * Franklin (docs/algorithms.md B5) played on {@code ring} (ids in ring order): in each phase every active
     * position sends PROBE both ways, each travelling to the next active position in its direction
     * (all the way round when it is alone); it stays active iff its id exceeds the ids of both active
     * neighbours; when one is left, its probes come back and ELECTED goes round (n).
     *
     * @return {phases, messages}
     */
    static long[] franklinMessages(List<NodeId> ring) {
        int n = ring.size();
        List<Integer> active = new java.util.ArrayList<>();
        for (int p = 0; p < n; p++) {
            active.add(p);
        }
        long messages = 0;
        for (long phase = 1; ; phase++) {
            int m = active.size();
            for (int j = 0; j < m; j++) {
                messages += hops(active.get(j), active.get((j + 1) % m), n); // rightwards
                messages += hops(active.get((j - 1 + m) % m), active.get(j), n); // leftwards, same gaps
            }
            if (m == 1) {
                return new long[] {phase, messages + n};
            }
            List<Integer> next = new java.util.ArrayList<>();
            for (int j = 0; j < m; j++) {
                NodeId me = ring.get(active.get(j));
                if (me.compareTo(ring.get(active.get((j - 1 + m) % m))) > 0
                        && me.compareTo(ring.get(active.get((j + 1) % m))) > 0) {
                    next.add(active.get(j));
                }
            }
            active = next;
        }
    }

    /**
     * Peterson (docs/algorithms.md B6) played on {@code ring}, messages travelling towards higher positions:
     * each active position with value tid sends ONE(tid) and TWO(max(tid, ntid)) to the next active
     * position; it receives ntid and nntid from its two active predecessors and stays active, with
     * tid = ntid, iff ntid >= max(tid, nntid). When one is left, its ONE goes round (n) and so does
     * ELECTED (n).
     *
     * @return {phases, messages}
     */
    static long[] petersonMessages(List<NodeId> ring) {
        int n = ring.size();
        List<Integer> active = new java.util.ArrayList<>();
        java.util.Map<Integer, NodeId> tid = new java.util.HashMap<>();
        for (int p = 0; p < n; p++) {
            active.add(p);
            tid.put(p, ring.get(p));
        }
        long messages = 0;
        for (long phase = 1; ; phase++) {
            int m = active.size();
            if (m == 1) {
                return new long[] {phase, messages + n + n};
            }
            for (int j = 0; j < m; j++) {
                messages += 2 * hops(active.get(j), active.get((j + 1) % m), n); // ONE and TWO
            }
            List<Integer> next = new java.util.ArrayList<>();
            java.util.Map<Integer, NodeId> nextTid = new java.util.HashMap<>();
            for (int j = 0; j < m; j++) {
                NodeId mine = tid.get(active.get(j));
                NodeId ntid = tid.get(active.get((j - 1 + m) % m));
                NodeId nntid = tid.get(active.get((j - 2 + 2 * m) % m));
                NodeId max = mine.compareTo(nntid) >= 0 ? mine : nntid;
                if (ntid.compareTo(max) >= 0) {
                    next.add(active.get(j));
                    nextTid.put(active.get(j), ntid);
                }
            }
            active = next;
            tid = nextTid;
        }
    }

    /** Hops from position {@code from} forward to position {@code to} on a ring of n (n when they are the same). */
    private static long hops(int from, int to, int n) {
        int d = ((to - from) % n + n) % n;
        return d == 0 ? n : d;
    }

    /** FR-4, PE-4, NV, CR with n = 1: 3, 2, 1 and 2 messages to itself. */
    @Test
    void singleNode() {
        assertEquals(3, ElectionSimulation.of(def(ElectionAlgorithm.FRANKLIN)).nodes(1).run().messages());
        assertEquals(2, ElectionSimulation.of(def(ElectionAlgorithm.PETERSON)).nodes(1).run().messages());
        assertEquals(1, ElectionSimulation.of(def(ElectionAlgorithm.LELANN)).nodes(1).run().messages());
        assertEquals(2, ElectionSimulation.of(def(ElectionAlgorithm.CHANG_ROBERTS)).nodes(1).run().messages());
        for (ElectionAlgorithm a : ElectionAlgorithm.messagePassing()) {
            ElectionResult r = ElectionSimulation.of(def(a)).nodes(1).run();
            assertTrue(r.ok(), r::describeFailure);
        }
    }

    /**
     * CR-6: unit delay, all initiate, every ring order, both comparison rules: the leader
     * knows it won at time n (its id came back), every other node learns it by 2n-1 (ELECTED), and
     * the leader absorbs its ELECTED at 2n, the end of the run.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5, 16})
    void changRoberts_leaderKnowsAtN(int n) {
        for (ProtocolOptions options : List.of(ProtocolOptions.NONE,
                ProtocolOptions.NONE.with(ChangRobertsDefinition.SEED_MAX_SEEN, "true"))) {
            for (RingOrder order : RingOrder.values()) {
                ElectionResult r = ElectionSimulation.of(def(ElectionAlgorithm.CHANG_ROBERTS)).nodes(n).options(options)
                        .delay(DelayModel.unit()).ring(order).seed(n).run();
                assertTrue(r.ok(), r::describeFailure);
                NodeId leader = r.leader().orElseThrow();
                assertEquals(n, r.learnedAt().get(leader), "the leader knows at n: " + r.learnedAt() + " " + r.describeFailure());
                for (var e : r.learnedAt().entrySet()) {
                    if (!e.getKey().equals(leader)) {
                        assertTrue(e.getValue() > n && e.getValue() <= 2L * n - 1, e + " " + r.describeFailure());
                    }
                }
                assertEquals(2L * n, r.steps(), r::describeFailure);
            }
        }
    }

    /**
     * CR-7: the source notes' literal Chang-Roberts code (missing brace) returns after its first message that
     * is not its own ELECTION, so with n >= 2 processes that all initiate, each one returns its own id
     * or a non-maximum: some node learns a wrong leader in every run. The implementation restores the
     * brace and elects the maximum on the very same rings and schedules.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5, 8})
    void literalSeedChangRoberts_returnsEarlyWithAWrongLeader(int n) {
        for (long seed = 0; seed < SEEDS; seed++) {
            RingOrder order = RingOrder.values()[(int) (seed % 3)];
            ElectionResult literal = ElectionSimulation.of(new LiteralSeedChangRobertsDefinition()).nodes(n).ring(order)
                    .seed(seed).run();
            NodeId highest = NodeId.of(n);
            assertTrue(literal.learned().values().stream().anyMatch(l -> !l.equals(highest)), literal::describeFailure);
            assertTrue(!literal.ok(), literal::describeFailure);
            ElectionResult fixed = ElectionSimulation.of(def(ElectionAlgorithm.CHANG_ROBERTS)).nodes(n).ring(order)
                    .seed(seed).run();
            assertTrue(fixed.ok(), fixed::describeFailure);
            assertEquals(highest, fixed.leader().orElse(null), fixed::describeFailure);
        }
    }

    /** NV-2, CR-6: unit delay, all initiate: LeLann ends at n, Chang-Roberts at 2n; LeLann with one starter at 2n-1. */
    @ParameterizedTest
    @ValueSource(ints = {2, 5, 16})
    void unitDelay_electionTime(int n) {
        ElectionResult lelann = ElectionSimulation.of(def(ElectionAlgorithm.LELANN)).nodes(n).delay(DelayModel.unit()).run();
        assertEquals(n, lelann.steps(), lelann::describeFailure);
        ElectionResult single = ElectionSimulation.of(def(ElectionAlgorithm.LELANN)).nodes(n).delay(DelayModel.unit())
                .starters(Starters.LOWEST).run();
        assertEquals(2L * n - 1, single.steps(), single::describeFailure);
        ElectionResult cr = ElectionSimulation.of(def(ElectionAlgorithm.CHANG_ROBERTS)).nodes(n).delay(DelayModel.unit())
                .ring(RingOrder.RANDOM).run();
        assertEquals(2L * n, cr.steps(), cr::describeFailure);
    }

    /** Without FIFO, LeLann terminates early in some run (docs/algorithms.md F28): the checker catches it. */
    @Test
    void lelannWithoutFifo_isCaught() {
        ElectionSimulation base = ElectionSimulation.of(def(ElectionAlgorithm.LELANN)).nodes(8).ring(RingOrder.RANDOM)
                .fifoGuard(false);
        ElectionResult failing = null;
        for (long seed = 0; seed < 500 && failing == null; seed++) {
            ElectionResult r = base.seed(seed).run();
            if (!r.ok()) {
                failing = r;
            }
        }
        assertNotNull(failing, "LeLann on reordering channels never failed in 500 seeds");
    }

    /** A run is a function of its configuration: the same seed gives the same result. */
    @Test
    void sameSeed_sameResult() {
        ElectionSimulation s = ElectionSimulation.of(def(ElectionAlgorithm.BULLY)).nodes(16).crashLeader(true)
                .starters(Starters.RANDOM_SUBSET).ring(RingOrder.RANDOM).seed(42);
        assertEquals(s.run(), s.run());
    }

    /** CR-4: over random rings the mean ELECTION count of Chang-Roberts is n*H_n (n=8: 21.74, n=16: 54.09), within 3%. */
    @ParameterizedTest
    @ValueSource(ints = {8, 16})
    void changRoberts_averageIsNHn(int n) {
        ElectionSimulation base = ElectionSimulation.of(def(ElectionAlgorithm.CHANG_ROBERTS)).nodes(n)
                .ring(RingOrder.RANDOM).delay(DelayModel.unit()).encodeMessages(false);
        int runs = 3000;
        double sum = 0;
        for (long seed = 0; seed < runs; seed++) {
            sum += base.seed(seed).run().count("Election");
        }
        double harmonic = 0;
        for (int k = 1; k <= n; k++) {
            harmonic += 1.0 / k;
        }
        double mean = sum / runs;
        assertEquals(n * harmonic, mean, 0.03 * n * harmonic, "mean ELECTION messages over " + runs + " random rings");
    }

    /** PE-6, FR-1: over random rings the number of phases reaches its bound floor(log2 n)+1 for n = 2, 4, 8. */
    @ParameterizedTest
    @ValueSource(ints = {2, 4, 8})
    void phasesReachTheirBound(int n) {
        long bound = 31 - Integer.numberOfLeadingZeros(n) + 1;
        ElectionSimulation base = ElectionSimulation.of(def(ElectionAlgorithm.PETERSON)).nodes(n).ring(RingOrder.RANDOM);
        long most = 0;
        for (long seed = 0; seed < 3000 && most < bound; seed++) {
            most = Math.max(most, base.seed(seed).run().messages() / (2L * n));
        }
        assertEquals(bound, most);
    }

    /** PE-5: the source notes' literal Peterson code (typos fixed only) leaves some process unterminated in every run with n >= 2. */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5, 8})
    void literalSeedPeterson_neverTerminatesForEveryone(int n) {
        ElectionSimulation base = ElectionSimulation.of(new LiteralSeedPetersonDefinition()).nodes(n)
                .ring(RingOrder.RANDOM).encodeMessages(false);
        for (long seed = 0; seed < 3000; seed++) {
            ElectionResult r = base.seed(seed).run();
            assertTrue(r.learned().size() < n, r::describeFailure);
        }
    }
}
