package io.dlock.inmemory.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.dlock.MutexAlgorithm;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.NodeId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Map;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The simulator's fault sweep: every registered mutual-exclusion algorithm, N in {3, 5, 8},
 * {@value #SEEDS} seeds each, under a fault schedule drawn from the seed: crash of the holder, of a
 * waiter, of the last sender (often the token in flight), of the highest member (the centralized
 * coordinator) or the lowest (the census steward); a node joining mid-run; a partition seen by the
 * membership (one view per side, same epoch; only the majority side is primary; half of them cut off
 * whoever holds the lock or the token then; sometimes an even split, where no side is primary) that
 * heals with a merge view; message loss: every message sent in a window is lost, followed by a view change (a
 * reliable transport loses messages only with a view change); for CTTA and Naimi-Trehel the same
 * fault also loses the first token sent, with no view change, for their own recovery (REGENERATE;
 * consult/query/election). Crashes are
 * detected {@value #DETECT} time units later (a view without the node; its messages in flight are
 * lost).
 *
 * <p>Every run must be safe within the primary side (ME1), keep fencing tokens strictly increasing
 * across all grants, grant every request of every node alive at the end after the faults stop, and
 * end (no truncation). The recovery time (virtual time from a fault to the next grant) is printed
 * per algorithm, median and max over all runs.
 *
 * <p>More seeds: {@code -Ddlock.faults.seeds=2000}.
 */
class FaultToleranceSimulationTest {

    private static final int SEEDS = Integer.getInteger("dlock.faults.seeds", 200);
    private static final int[] SIZES = {3, 5, 8};
    private static final long DETECT = 20;
    /**
     * Algorithms whose seed gives an in-epoch recovery from a lost token, and their token type: their
     * LOSS fault also loses the first token sent, with no view change.
     */
    private static final Map<MutexAlgorithm, Class<?>> OWN_RECOVERY = Map.of(
            MutexAlgorithm.CTTA, io.dlock.mutex.ctta.CttaMessage.Token.class,
            MutexAlgorithm.NAIMI_TREHEL, io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Token.class);

    /** The fault kinds; the first fault of seed s is kind s mod 8, so every kind gets 1/8 of the seeds. */
    private enum Kind { HOLDER_CRASH, WAITER_CRASH, SENDER_CRASH, HIGHEST_CRASH, LOWEST_CRASH, JOIN, SPLIT, LOSS }

    /** The fault plan of {@code seed} for {@code n} nodes: one or two faults, one after the other. */
    static FaultPlan plan(long seed, int n) {
        return plan(seed, n, null);
    }

    /**
     * The plan of {@code seed}; {@code token} (CTTA's or Naimi-Trehel's token type, else null): the
     * LOSS fault also loses the first token sent, with no view change, for the algorithm's own
     * in-epoch recovery.
     */
    static FaultPlan plan(long seed, int n, Class<?> token) {
        SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ n);
        Kind first = Kind.values()[(int) Math.floorMod(seed, Kind.values().length)];
        List<Kind> kinds = new ArrayList<>(List.of(first));
        if (r.nextBoolean()) {
            kinds.add(Kind.values()[r.nextInt(Kind.values().length)]);
        }
        boolean joins = kinds.contains(Kind.JOIN);
        int joiner = n - 1;
        int members = joins ? n - 1 : n; // what the plan knows; role crashes may find nobody, never more
        FaultPlan plan = FaultPlan.none().detectCrashes(DETECT);
        long t = 5 + r.nextInt(40);
        for (Kind kind : kinds) {
            switch (kind) {
                case JOIN:
                    if (plan.joins().isEmpty()) {
                        plan = plan.join(NodeId.of(joiner), t);
                        members++;
                    }
                    t += 10;
                    break;
                case SPLIT:
                case LOSS:
                    if (kind == Kind.LOSS) {
                        long w = 1 + r.nextInt(30);
                        plan = plan.loseMessages(t, t + w);
                        if (token != null) {
                            plan = plan.dropMessages(null, null, token, 1);
                        }
                        t += w + 20;
                        break;
                    }
                    List<Integer> candidates = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        if (i != joiner || !joins) {
                            candidates.add(i);
                        }
                    }
                    Collections.shuffle(candidates, new java.util.Random(r.nextLong()));
                    int size = members % 2 == 0 && r.nextInt(4) == 0 ? members / 2 // a tie: no side is primary
                            : 1 + r.nextInt(Math.max(1, (members - 1) / 2));
                    TreeSet<NodeId> minority = new TreeSet<>();
                    for (int i = 0; i < size; i++) {
                        minority.add(NodeId.of(candidates.get(i)));
                    }
                    long w = 10 + r.nextInt(80);
                    if (r.nextBoolean()) {
                        plan = plan.split(minority, t, t + w);
                    } else { // cut off the lock or token holder, whoever it is then
                        plan = plan.splitAround(FaultPlan.Role.HOLDER, size, t, t + w);
                    }
                    t += w + DETECT + 20;
                    break;
                default:
                    if ((members - 1) * 2 > members) { // the view after the crash keeps a majority
                        plan = plan.crash(FaultPlan.Role.valueOf(kind.name().replace("_CRASH", "")
                                .replace("SENDER", "LAST_SENDER")), t);
                        members--;
                    }
                    t += DETECT + 10 + r.nextInt(20);
            }
        }
        return plan;
    }

    static Simulation simulation(MutexAlgorithm algorithm, int n, long seed) {
        return Simulation.of(AlgorithmDefinitions.mutex(algorithm)).nodes(n).delay(DelayModel.uniform(1, 10))
                // every third seed holds long (up to twice the detection delay), so that holders are
                // still in their critical section when a partition's views arrive: fenced out
                .workload(Workload.perNode(4).think(0, 40).hold(0, seed % 3 == 0 ? 2 * DETECT : 5))
                .faults(plan(seed, n, OWN_RECOVERY.get(algorithm)))
                .maxTime(1_000_000).maxEvents(5_000_000).seed(seed);
    }

    /** The fault sweep's verdict on one faulty run. */
    static final RunCheck FAULT_TOLERANT = r -> {
        if (r.error() != null) {
            return "protocol exception: " + r.error();
        }
        if (r.safetyViolations() != 0) {
            return "two holders at once within the primary side";
        }
        if (r.fenceViolations() != 0) {
            return "fencing token not increasing";
        }
        if (r.grantViolations() + r.codecErrors() != 0) {
            return "grant without request, or codec error";
        }
        if (r.truncated()) {
            return "run did not end (livelock or a node never granted)";
        }
        if (r.ungranted() != 0) {
            return r.ungranted() + " request(s) of live nodes never granted after the faults stopped";
        }
        return null;
    };

    /** Safe within the primary side, fenced, live after the faults stop: every algorithm, N in {3, 5, 8}. */
    @ParameterizedTest
    @EnumSource(MutexAlgorithm.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void survivesRandomFaults(MutexAlgorithm algorithm) {
        List<Long> recovery = new ArrayList<>();
        long fenced = 0;
        long runs = 0;
        for (int n : SIZES) {
            List<SimulationResult> results = new ArrayList<>();
            for (long seed = 1; seed <= SEEDS; seed++) {
                SimulationResult result = simulation(algorithm, n, seed).run();
                results.add(result);
                String problem = FAULT_TOLERANT.problem(result);
                if (problem != null) {
                    SeedSweep sweep = new SeedSweep(1, SEEDS, results, result, problem);
                    fail(sweep.describeFailure());
                }
                recovery.addAll(result.recoveryTimes());
                fenced += result.fencedOut();
                runs++;
            }
        }
        Collections.sort(recovery);
        System.out.println(String.format(Locale.ROOT,
                "fault sweep %-16s runs=%d recovery samples=%d median=%d max=%d (virtual time; detection %d) fenced-out holders=%d",
                algorithm.configName(), runs, recovery.size(), recovery.isEmpty() ? -1 : recovery.get(recovery.size() / 2),
                recovery.isEmpty() ? -1 : recovery.get(recovery.size() - 1), DETECT, fenced));
        assertFalse(recovery.isEmpty(), "no fault ever hit a busy lock");
    }

    /** The plan generator covers every fault kind, and equal seeds give equal plans. */
    @Test
    void plansCoverEveryKind() {
        String all = "";
        for (long seed = 1; seed <= 16; seed++) {
            all += plan(seed, 5).toString();
            assertEquals(plan(seed, 5).toString(), plan(seed, 5).toString());
        }
        for (String fault : List.of("Role.HOLDER", "Role.WAITER", "Role.LAST_SENDER", "Role.HIGHEST", "Role.LOWEST",
                ".join(", ".split(", ".splitAround(", ".loseMessages(")) {
            assertTrue(all.contains(fault), fault + " never drawn in " + all);
        }
    }

    /**
     * The cost of one view change (same members, every node idle): the messages the algorithm sends
     * to rebuild its state in the new epoch (census, barrier, sync), printed per algorithm and N: the
     * messages of an idle run with the view change minus those of the same run without it (the token
     * ring's circulating token, Raynal's idle passes). Every run stays safe.
     */
    @Test
    void messagesPerViewChange() {
        StringBuilder table = new StringBuilder("messages per view change (idle, same members):");
        for (MutexAlgorithm algorithm : MutexAlgorithm.values()) {
            table.append(String.format(Locale.ROOT, "%n  %-16s", algorithm.configName()));
            for (int n : SIZES) {
                List<NodeId> members = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    members.add(NodeId.of(i));
                }
                Simulation idle = Simulation.of(AlgorithmDefinitions.mutex(algorithm)).nodes(n).delay(DelayModel.uniform(1, 10))
                        .workload(Workload.none()).stopWhenWorkloadDone(false).maxTime(300).seed(1);
                SimulationResult base = idle.run();
                SimulationResult r = idle.faults(FaultPlan.none().installView(10, members)).run();
                assertTrue(r.ok(), r::describeFailure);
                long extra = r.messages() - base.messages(); // minus what an idle run sends anyway
                table.append(String.format(Locale.ROOT, " N=%d: %-4d", n, extra));
            }
        }
        System.out.println(table);
    }
}
