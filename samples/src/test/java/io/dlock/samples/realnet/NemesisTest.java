package io.dlock.samples.realnet;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.MutexAlgorithm;
import io.dlock.samples.history.CheckReport;
import io.dlock.samples.history.FaultWindowFigures;
import io.dlock.samples.history.History;
import io.dlock.samples.history.HistoryChecker;
import io.dlock.samples.history.StoreFile;
import io.dlock.samples.realnet.NemesisSchedule.Kind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fault injection with a history checker, Jepsen's way: five {@link NemesisNode} clients, one per host of
 * {@link VirtualHosts} ({@code tcp} stack, {@code dlock.cluster.size=5}), two worker threads each looping on
 * a seeded choice of one of {@value #DEFAULT_LOCKS} locks ({@code dlock.test.nemesis-locks}), {@code tryLock(1 s)},
 * a fenced increment of that lock's shared counter, {@code unlock()}, while a {@link Nemesis} runs a
 * seeded {@link NemesisSchedule} of pauses (SIGSTOP), cut hosts, 3|2 splits, kills with restart, rolling
 * restarts and coordinator leaves. Every client records each invocation and completion with
 * {@code System.nanoTime()}, the nemesis records each fault's begin and end; the lines of one run are merged
 * into one history per lock ({@link LockTag}), ordered by time, and each is judged with its store's accepted
 * writes by {@link HistoryChecker}: every lock's history must be valid (one holder at a time unless the earlier one
 * ended lost or by a crash, tokens in real-time order, no lost or duplicated update, no failed start, no error).
 * The availability
 * figures (per lock and fault window: the majority's first grant, its longest gap, each target's rejoin; each
 * lock's longest stall) are printed as {@code NEMESIS ...} lines, and asserted only with
 * {@code dlock.test.nemesis-availability=true}: the majority's longest gap in a window at most failure detection
 * (7.5 s on the {@code tcp} stack) plus 2 s, each target's rejoin at most 10 s after the heal, and the nemesis
 * did everything in time. A quiet gap of the schedule (5-10 s) can be shorter than a rejoin: where the next fault
 * began before a target's first grant (say it cut off the merge leader that was about to take the target back), the
 * target is judged from the last heal of that chain of faults
 * ({@link FaultWindowFigures#rejoinAfterLastHealNanos()}); both figures are printed.
 *
 * <p>Every run keeps its files in {@code samples/target/nemesis/<algorithm>-<seed>/}: {@code schedule.txt}, per lock
 * {@code <lock>-history.txt} and {@code <lock>-store.txt} (its fenced store, {@code <token> <value>} per accepted
 * write), {@code summary.txt} (the checker's reports), {@code logs.txt} (the nodes' view events and last log lines),
 * {@code output.txt} (every log line of every node) and {@code notes.txt} (what the nemesis could not do in time).
 * A failure names that folder and shows the checker's violations and the logs. To judge a kept run again:
 * {@code java -jar samples/target/dlock.jar check-history <dir>/counter-0-history.txt --store
 * <dir>/counter-0-store.txt}.
 *
 * <p>The default build runs {@code centralized}, {@code ricart-agrawala} and {@code suzuki-kasami}, each with a
 * 45-s schedule of seed {@value #DEFAULT_SEED}. The profile {@code -Pnemesis} runs every algorithm with seeds 12 and
 * 2024, a 400-s schedule each (at least 10 minutes of nemesis per algorithm), and asserts availability (about
 * 2 h 20 min on 2 cores; {@code -Dnemesis.algorithms=...}, {@code -Dnemesis.seeds=...}, {@code -Dnemesis.seconds=...}
 * and {@code -Dnemesis.dir=...} choose a part):
 * {@code mvn -B -pl samples -am verify -Pnemesis -Dtest=NemesisTest -Dsurefire.failIfNoSpecifiedTests=false}.
 * Properties: {@code dlock.test.nemesis-algorithms} (comma-separated configuration names, or {@code all}),
 * {@code dlock.test.nemesis-seconds} (the schedule's length), {@code dlock.test.nemesis-seeds}
 * (comma-separated), {@code dlock.test.nemesis-faults} (comma-separated kinds: pause, cut, split, kill,
 * rolling-restart, coordinator-leave; or {@code all}), {@code dlock.test.nemesis-dir} (where the runs' folders
 * go), and {@code dlock.test.realnet-jvm-options} (see {@link RealNetworkTest}). One run again:
 * {@code -Ddlock.test.nemesis-algorithms=centralized -Ddlock.test.nemesis-seeds=<seed>
 * -Ddlock.test.nemesis-seconds=<s>}: the same faults at the same moments (the schedule depends on the seed, the
 * length and the kinds only), though not the same interleaving (a real network's timing does not replay).
 *
 * <p>Skipped, with the reason, where the machine has no root or no {@code ip}. Every JVM is ended and every
 * namespace removed after each run, failed or not.
 */
class NemesisTest {

    static final long DEFAULT_SEED = 12;
    /**
     * Locks the clients share by default: each has its own coordinator (centralized's rendezvous owner of its name)
     * or token, so a fault on any node hits some lock where it matters, not only on the node that owns one name.
     */
    static final int DEFAULT_LOCKS = 3;
    private static final int NODES = 5;
    /**
     * Failure detection on the tcp stack, at most 7.5 s after the last message (FD_ALL3 suspects 5-5.5 s after it,
     * VERIFY_SUSPECT2 excludes 1-2 s later), plus 2 s.
     */
    private static final Duration MAX_MAJORITY_GAP = Duration.ofMillis(5_500 + 2_000 + 2_000);
    private static final Duration MAX_REJOIN = Duration.ofSeconds(10);

    static Stream<Arguments> runs() {
        String names = System.getProperty("dlock.test.nemesis-algorithms", "centralized,ricart-agrawala,suzuki-kasami");
        List<MutexAlgorithm> algorithms = names.trim().equals("all") ? List.of(MutexAlgorithm.values())
                : Arrays.stream(names.split(",")).map(String::trim).map(MutexAlgorithm::fromConfigName).toList();
        List<Long> seeds = Arrays.stream(System.getProperty("dlock.test.nemesis-seeds", Long.toString(DEFAULT_SEED))
                .split(",")).map(String::trim).map(Long::valueOf).toList();
        List<Arguments> runs = new ArrayList<>();
        for (MutexAlgorithm a : algorithms) {
            for (long seed : seeds) {
                runs.add(Arguments.of(a, seed));
            }
        }
        return runs.stream();
    }

    /**
     * Under a seeded schedule of faults, the recorded history shows one holder at a time (unless the earlier
     * one was paused or cut off inside its hold and told), tokens in real-time order, every update in the store
     * once, no failed start and no error.
     */
    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("runs")
    @Timeout(1800)
    void when_aSeededScheduleOfFaultsRuns_then_theHistoryHasOneHolderAtATime_andNoUpdateIsLost(
            MutexAlgorithm algorithm, long seed) throws Exception {
        Optional<String> why = VirtualHosts.unavailable();
        Assumptions.assumeTrue(why.isEmpty(), () -> "nemesis test skipped: " + why.orElse(""));
        int seconds = Integer.getInteger("dlock.test.nemesis-seconds", 45);
        Set<Kind> kinds = Kind.parse(System.getProperty("dlock.test.nemesis-faults", "all"));
        NemesisSchedule schedule = NemesisSchedule.of(seed, Duration.ofSeconds(seconds), NODES, kinds);
        String name = algorithm.configName() + "-" + seed;
        System.out.print("NEMESIS " + name + " schedule (" + seconds + " s, planned "
                + schedule.plannedMs(NODES) / 1000 + " s):\n" + schedule.toString().replaceAll("(?m)^", "NEMESIS "
                + name + "   "));
        Path runDir = emptyRunDir(name);
        Files.writeString(runDir.resolve("schedule.txt"), "seed " + seed + ", " + seconds + " s, kinds " + kinds
                + "\n" + schedule);

        List<String> locks = NemesisNode.lockNames(Integer.getInteger("dlock.test.nemesis-locks", DEFAULT_LOCKS));
        RealNetCluster.Setup setup = new RealNetCluster.Setup(NemesisNode.class.getName(), algorithm.configName(),
                NODES, List.of(Long.toString(seed), Integer.toString(locks.size())), List.of());
        // a bound on the faults, apart from the test's timeout: a slow machine skips the last ones instead
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds * 3L / 2 + 180);
        long t0 = System.nanoTime();
        boolean started;
        String logs;
        Nemesis nemesis;
        try (VirtualHosts hosts = VirtualHosts.create(NODES);
             RealNetCluster cluster = new RealNetCluster(hosts, NODES, setup, runDir)) {
            nemesis = new Nemesis(hosts, cluster, NODES, name);
            try {
                started = nemesis.startAll();
                if (started) {
                    nemesis.run(schedule, deadline);
                }
            } finally {
                try {
                    nemesis.healAll();
                    nemesis.stopAll();
                } finally {
                    cluster.close(); // every JVM ended, their last lines read
                    logs = cluster.logs();
                    keep(runDir, cluster, nemesis, logs, locks);
                }
            }
        }
        List<LockCheck> checks = new ArrayList<>();
        for (String lock : locks) {
            Path storeFile = NemesisNode.storeOf(runDir.resolve(RealNetCluster.STORE_FILE), lock);
            CheckReport report = HistoryChecker.check(History.read(historyOf(runDir, lock)),
                    Files.exists(storeFile) ? StoreFile.read(storeFile) : List.of());
            checks.add(new LockCheck(lock, report));
        }
        Files.writeString(runDir.resolve("summary.txt"), checks.stream()
                .map(c -> "lock " + c.lock + "\n" + c.report.summary()).collect(Collectors.joining("\n")));
        boolean valid = checks.stream().allMatch(c -> c.report.valid());
        System.out.println("NEMESIS " + name + ": run of " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0)
                + " s, " + locks.size() + " lock(s), " + (valid ? "VALID" : "INVALID") + "; files in "
                + runDir.toAbsolutePath());
        for (LockCheck c : checks) {
            CheckReport report = c.report;
            System.out.println("NEMESIS " + name + " " + c.lock + ": " + (report.valid() ? "VALID"
                    : "INVALID, " + report.violationCount() + " violation(s)") + ", " + report.grants()
                    + " grants, longest stall " + ms(report.longestStallNanos()));
            for (FaultWindowFigures w : report.windows()) {
                System.out.println("NEMESIS " + name + " " + c.lock + " window " + w.kind() + " " + w.targets()
                        + ": begin " + ms(w.beginNanos()) + ", end " + ms(w.endNanos())
                        + ", majority's first grant after " + ms(w.firstMajorityGrantNanos())
                        + ", longest majority gap " + ms(w.longestMajorityGapNanos()) + ", rejoin " + rejoin(w));
            }
        }

        String context = "\nfiles: " + runDir.toAbsolutePath() + "\nnemesis notes: " + nemesis.notes()
                + "\nnodes' logs: " + logs;
        assertTrue(started, name + ": not every node started within " + Nemesis.START_TIMEOUT.toSeconds() + " s"
                + context);
        for (LockCheck c : checks) {
            assertTrue(c.report.valid(), name + ": the history checker found " + c.report.violationCount()
                    + " violation(s) on lock " + c.lock + "\n" + firstLines(c.report.violations(), 40) + context);
        }
        if (Boolean.getBoolean("dlock.test.nemesis-availability")) {
            List<String> slow = new ArrayList<>(nemesis.notes());
            for (LockCheck c : checks) {
                for (FaultWindowFigures w : c.report.windows()) {
                    String window = c.lock + ", " + w.kind() + " " + w.targets() + " at " + ms(w.beginNanos()) + ": ";
                    if (w.longestMajorityGapNanos() < 0 || w.longestMajorityGapNanos() > MAX_MAJORITY_GAP.toNanos()) {
                        slow.add(window + "longest majority gap " + ms(w.longestMajorityGapNanos()) + " (at most "
                                + MAX_MAJORITY_GAP.toMillis() + " ms: detection plus 2 s)");
                    }
                    w.rejoinAfterLastHealNanos().forEach((node, nanos) -> {
                        if (nanos < 0 || nanos > MAX_REJOIN.toNanos()) {
                            slow.add(window + "n" + node + " rejoined " + ms(nanos) + " after the last heal (at most "
                                    + MAX_REJOIN.toMillis() + " ms)");
                        }
                    });
                }
            }
            assertTrue(slow.isEmpty(), name + ": availability\n" + String.join("\n", slow) + context);
        }
    }

    private static String ms(long nanos) {
        return nanos < 0 ? "none" : TimeUnit.NANOSECONDS.toMillis(nanos) + " ms";
    }

    private static String rejoin(FaultWindowFigures w) {
        List<String> out = new ArrayList<>();
        w.rejoinNanos().forEach((node, nanos) -> {
            long afterLastHeal = w.rejoinAfterLastHealNanos().get(node);
            out.add("n" + node + " " + ms(nanos) + (afterLastHeal == nanos ? ""
                    : " (" + ms(afterLastHeal) + " after the next fault's heal)"));
        });
        return out.isEmpty() ? "-" : String.join(", ", out);
    }

    /** The first {@code max} lines, and how many more there are. */
    private static String firstLines(List<String> lines, int max) {
        String shown = String.join("\n", lines.subList(0, Math.min(max, lines.size())));
        return lines.size() > max ? shown + "\n... and " + (lines.size() - max) + " more (summary.txt)" : shown;
    }

    /** {@code <dir>/<name>}, created, with the files of an earlier run of that name removed. */
    private static Path emptyRunDir(String name) throws IOException {
        Path dir = Path.of(System.getProperty("dlock.test.nemesis-dir", "target/nemesis"), name);
        Files.createDirectories(dir);
        try (Stream<Path> old = Files.list(dir)) {
            for (Path p : old.toList()) {
                Files.delete(p);
            }
        }
        return dir;
    }

    /**
     * Writes each lock's history (ordered by time; ties keep their arrival order; {@link LockTag}), the logs and the
     * notes.
     */
    private static void keep(Path runDir, RealNetCluster cluster, Nemesis nemesis, String logs, List<String> locks)
            throws IOException {
        List<String> history = new ArrayList<>(cluster.historyLines());
        history.addAll(nemesis.lines());
        history.sort(Comparator.comparingLong(NemesisTest::time));
        for (Map.Entry<String, List<String>> lock : LockTag.split(history, locks).entrySet()) {
            Files.write(historyOf(runDir, lock.getKey()), lock.getValue());
        }
        Files.writeString(runDir.resolve("logs.txt"), logs + "\n");
        Files.write(runDir.resolve("output.txt"), cluster.output());
        Files.write(runDir.resolve("notes.txt"), nemesis.notes());
    }

    /** Lock {@code lock}'s history in the run's folder. */
    private static Path historyOf(Path runDir, String lock) {
        return runDir.resolve(lock + "-history.txt");
    }

    /** One lock's verdict. */
    private record LockCheck(String lock, CheckReport report) {
    }

    private static long time(String historyLine) {
        return Long.parseLong(historyLine.substring(0, historyLine.indexOf(' ')));
    }
}
