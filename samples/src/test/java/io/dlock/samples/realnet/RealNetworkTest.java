package io.dlock.samples.realnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dlock.MutexAlgorithm;
import io.dlock.NodeId;
import io.dlock.mutex.common.RendezvousHash;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.samples.realnet.RealNetCluster.Event;
import io.dlock.samples.realnet.RealNetCluster.Setup;
import io.dlock.spi.View;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Membership on a real network: dlock JVMs on the {@code tcp} stack, one per host, the hosts being Linux
 * network namespaces on a bridge ({@link VirtualHosts}); links are cut below the sockets by setting a
 * host's switch port down. Every node loops on lock, read a shared {@code FencedFile}, write the value
 * plus one with the fencing token in one fenced read-modify-write, unlock ({@link RealNetNode}). Checked on
 * every run: no start fails, no lost update in the store, no two holders in one epoch (each write records
 * the value its holder read when it took the lock, so a write by another node in between shows, with its
 * token's epoch), no write of a majority node refused, no grant on the cut host once it saw its view turn
 * non-primary, the majority grants again while the host is cut, and the host locks again after the heal. The figures of each split (time to the majority's view and first grant,
 * the longest gap in the majority's writes, its write rate, the heal to the cut host's first write) are
 * printed as {@code REALNET ...} lines.
 *
 * <p>The default build runs three hosts started together with {@code dlock.cluster.size=3} and
 * {@code centralized}, the host of the lock's coordinator (node 2, the owner of the lock's name) cut off for 20 s, then
 * healed; and three JVMs started together on 127.0.0.1 ({@code default} stack). The profile
 * {@code -Prealnet} runs every algorithm, a host cut off and back five times, a rolling restart, a paused
 * host ({@code SIGSTOP}) and 20 simultaneous starts of 3 and of 5 JVMs:
 * {@code mvn -B -pl samples -am verify -Prealnet -Dtest='RealNetworkTest' -Dsurefire.failIfNoSpecifiedTests=false}.
 * Properties: {@code dlock.test.realnet-algorithms} (comma-separated, or {@code all}), {@code
 * dlock.test.realnet-cuts}, {@code dlock.test.realnet-cut-s}, {@code dlock.test.start-trials}, {@code
 * dlock.test.start-sizes}, {@code dlock.test.realnet-stack} (a stack file to try instead of {@code tcp}), {@code
 * dlock.test.realnet-jvm-options} (more options for the child JVMs, separated by spaces, after the defaults: a
 * {@code -D} there wins, e.g. {@code -Dorg.slf4j.simpleLogger.defaultLogLevel=debug}; they log at warn).
 *
 * <p>Skipped, with the reason, where the machine has no root or no {@code ip} (the loopback start test
 * runs everywhere). Every JVM is ended and every namespace removed after each test, failed or not.
 */
@Timeout(900)
class RealNetworkTest {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration HEAL_TIMEOUT = Duration.ofSeconds(60);
    /**
     * The node cut off or paused: the coordinator of the nodes' lock {@code counter} for {@code centralized} (the
     * owner of the name among nodes 1..3, docs/algorithms.md A1 rule 7: node 2), so that the majority has to take
     * the lock over.
     */
    private static final int CUT_NODE = (int) RendezvousHash.owner("counter", new View(1,
            List.of(NodeId.of(1), NodeId.of(2), NodeId.of(3)))).value();
    private static final Set<Integer> MAJORITY = IntStream.rangeClosed(1, 3).filter(n -> n != CUT_NODE).boxed()
            .collect(Collectors.toUnmodifiableSet());

    @TempDir
    Path dir;

    static Stream<MutexAlgorithm> algorithms() {
        String names = System.getProperty("dlock.test.realnet-algorithms", "centralized");
        if (names.equals("all")) {
            return Stream.of(MutexAlgorithm.values());
        }
        return Arrays.stream(names.split(",")).map(String::trim).map(MutexAlgorithm::fromConfigName);
    }

    static Stream<Integer> startSizes() {
        return Arrays.stream(System.getProperty("dlock.test.start-sizes", "3").split(",")).map(String::trim)
                .map(Integer::valueOf);
    }

    /**
     * The host of the coordinator is cut off for 20 s: the majority grants again after failure detection,
     * the cut host grants nothing once it knows it is alone, and it locks again after the heal.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void when_oneHostIsCutOff_then_theMajorityGoesOn_theCutHostGrantsNothing_and_afterTheHealItLocksAgain(
            MutexAlgorithm algorithm) throws Exception {
        int cuts = Integer.getInteger("dlock.test.realnet-cuts", 1);
        long cutMs = Integer.getInteger("dlock.test.realnet-cut-s", 20) * 1000L;
        try (VirtualHosts hosts = hostsOrSkip(3);
             RealNetCluster cluster = new RealNetCluster(hosts, 3, setup(algorithm), dir)) {
            cluster.startAll();
            awaitStartedAndWriting(cluster, 3, 0);
            List<SplitFigures> figures = new ArrayList<>();
            for (int round = 1; round <= cuts; round++) {
                long cutAt = System.currentTimeMillis();
                hosts.cut(CUT_NODE - 1);
                Thread.sleep(cutMs);
                long healAt = System.currentTimeMillis();
                hosts.heal(CUT_NODE - 1);
                Event back = cluster.await(e -> e.node() == CUT_NODE && e.kind().equals("W") && e.time() >= healAt,
                        HEAL_TIMEOUT);
                SplitFigures f = SplitFigures.of(cluster.events(), MAJORITY, CUT_NODE, cutAt, healAt);
                figures.add(f);
                System.out.println("REALNET " + algorithm.configName() + " cut " + round + "/" + cuts + ": " + f);
                String context = algorithm.configName() + ", cut " + round + ": " + f + "\n" + cluster.logs();
                assertTrue(f.cutToMajorityGrant() >= 0, "the majority granted nothing while the host was cut; " + context);
                assertTrue(f.minorityNonPrimary(), "the cut host never saw a non-primary view; " + context);
                assertEquals(0, f.minorityGrants(), "the cut host granted while non-primary; " + context);
                assertNotNull(back, "the cut host wrote nothing within " + HEAL_TIMEOUT.toSeconds() + " s of the heal; "
                        + context);
            }
            checkSafety(cluster, algorithm.configName());
        }
    }

    /** Three (or, in the profile, five) JVMs on one host started at the same moment all start and write. */
    @ParameterizedTest(name = "{0} JVMs")
    @MethodSource("startSizes")
    @Timeout(1800)
    void when_jvmsStartTogetherOnOneHost_then_everyStartSucceeds_and_oneClusterForms(int size) throws Exception {
        int trials = Integer.getInteger("dlock.test.start-trials", 1);
        for (int trial = 1; trial <= trials; trial++) {
            Path trialDir = Files.createDirectories(dir.resolve("trial-" + size + "-" + trial));
            try (RealNetCluster cluster = new RealNetCluster(null, size,
                    new Setup("centralized", size, 2, 20, List.of()), trialDir)) {
                cluster.startAll();
                awaitStartedAndWriting(cluster, size, 0);
                checkSafety(cluster, "start of " + size + ", trial " + trial);
                long slowest = cluster.events("STARTED", 0, 0).stream().mapToLong(e -> e.arg(0)).max().orElse(-1);
                System.out.println("REALNET simultaneous start of " + size + " JVMs, trial " + trial + "/" + trials
                        + ": every start succeeded, slowest LockService.start " + slowest + " ms");
            }
        }
    }

    /** Each of three nodes is closed and started again in turn while the others contend. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    @EnabledIfSystemProperty(named = "dlock.test.realnet-long", matches = "true")
    void when_eachNodeIsRestartedInTurn_then_noStartFails_noUpdateIsLost_and_nobodyWaitsForever(
            MutexAlgorithm algorithm) throws Exception {
        try (VirtualHosts hosts = hostsOrSkip(3);
             RealNetCluster cluster = new RealNetCluster(hosts, 3, setup(algorithm), dir)) {
            cluster.startAll();
            awaitStartedAndWriting(cluster, 3, 0);
            for (int node = 1; node <= 3; node++) {
                cluster.stop(node);
                long restartAt = System.currentTimeMillis();
                cluster.start(node);
                if (AlgorithmDefinitions.mutex(algorithm).starvationFree()) {
                    awaitStartedAndWriting(cluster, 3, restartAt, node);
                } else { // the restarted node may lose every vote for long: require that it started and the cluster writes
                    awaitStarted(cluster, restartAt, node);
                    assertNotNull(cluster.await(e -> e.time() >= restartAt && e.kind().equals("W"), START_TIMEOUT),
                            "nobody wrote after n" + node + "'s restart\n" + cluster.logs());
                }
                List<Event> writes = cluster.events("W", node, restartAt);
                System.out.println("REALNET " + algorithm.configName() + " rolling restart of n" + node + ": "
                        + (writes.isEmpty() ? "started, has not written yet (not starvation-free)"
                        : "writes again " + (writes.get(0).time() - restartAt) + " ms after its restart"));
            }
            checkSafety(cluster, algorithm.configName() + " rolling restart");
        }
    }

    /**
     * Node 3 pauses itself ({@code SIGSTOP}) right after a grant, holding the lock, for 20 s: the others go on
     * after failure detection; once resumed, its late write is refused by the fenced store, and it locks
     * again.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    @EnabledIfSystemProperty(named = "dlock.test.realnet-long", matches = "true")
    void when_aHolderIsPausedAndResumed_then_theOthersGoOn_itsLateWriteIsRefused_and_itLocksAgain(
            MutexAlgorithm algorithm) throws Exception {
        try (VirtualHosts hosts = hostsOrSkip(3);
             RealNetCluster cluster = new RealNetCluster(hosts, 3, setup(algorithm), dir)) {
            cluster.startAll();
            awaitStartedAndWriting(cluster, 3, 0);
            cluster.send(CUT_NODE, "pause-holding");
            Event paused = cluster.await(e -> e.node() == CUT_NODE && e.kind().equals("PAUSING"), START_TIMEOUT);
            assertNotNull(paused, "n" + CUT_NODE + " was not granted the lock to pause with it\n" + cluster.logs());
            Thread.sleep(20_000);
            long resumedAt = System.currentTimeMillis();
            cluster.signal(CUT_NODE, "CONT");
            long pausedToken = paused.arg(0);
            Event late = cluster.await(e -> e.node() == CUT_NODE && e.time() >= resumedAt
                    && (e.kind().equals("W") || e.kind().equals("STALE")) && e.arg(0) == pausedToken, HEAL_TIMEOUT);
            Event back = cluster.await(e -> e.node() == CUT_NODE && e.kind().equals("W") && e.time() >= resumedAt,
                    HEAL_TIMEOUT);
            SplitFigures f = SplitFigures.of(cluster.events(), MAJORITY, CUT_NODE, paused.time(), resumedAt);
            System.out.println("REALNET " + algorithm.configName() + " holder paused 20 s: " + f + "; its late write: "
                    + (late == null ? "none" : late.kind()));
            String context = f + "\n" + cluster.logs();
            assertTrue(f.cutToMajorityGrant() >= 0, "the others granted nothing during the pause; " + context);
            assertNotNull(late, "the resumed holder never tried its late write; " + context);
            assertEquals("STALE", late.kind(), "the paused holder's late write was accepted; " + context);
            assertNotNull(back, "the resumed node wrote nothing within " + HEAL_TIMEOUT.toSeconds() + " s; " + context);
            checkSafety(cluster, algorithm.configName() + " pause");
        }
    }

    private static Setup setup(MutexAlgorithm algorithm) {
        return new Setup(algorithm.configName(), 3, 2, 5, List.of());
    }

    private VirtualHosts hostsOrSkip(int count) throws IOException {
        Optional<String> why = VirtualHosts.unavailable();
        Assumptions.assumeTrue(why.isEmpty(), () -> "real-network test skipped: " + why.orElse(""));
        return VirtualHosts.create(count);
    }

    /** Every node started and wrote at least once; no start failed. */
    private static void awaitStartedAndWriting(RealNetCluster cluster, int size, long from) throws InterruptedException {
        awaitStartedAndWriting(cluster, size, from, java.util.stream.IntStream.rangeClosed(1, size).toArray());
    }

    /** The nodes {@code started} started after {@code from}, and every node wrote after it; no start failed. */
    private static void awaitStartedAndWriting(RealNetCluster cluster, int size, long from, int... started)
            throws InterruptedException {
        awaitStarted(cluster, from, started);
        for (int node = 1; node <= size; node++) {
            int n = node;
            if (cluster.await(e -> e.node() == n && e.time() >= from && e.kind().equals("W"), START_TIMEOUT) == null) {
                for (int other = 1; other <= size; other++) {
                    cluster.send(other, "metrics"); // their counters and views into the logs, for the report
                }
                Thread.sleep(1_000);
                fail("n" + n + " never wrote\n" + cluster.logs());
            }
        }
    }

    /** The nodes {@code started} finished LockService.start after {@code from}, successfully. */
    private static void awaitStarted(RealNetCluster cluster, long from, int... started) throws InterruptedException {
        for (int n : started) {
            Event start = cluster.await(e -> e.node() == n && e.time() >= from
                    && (e.kind().equals("STARTED") || e.kind().equals("STARTFAIL")), START_TIMEOUT);
            assertNotNull(start, "n" + n + " did not finish LockService.start within " + START_TIMEOUT.toSeconds()
                    + " s\n" + cluster.logs());
            assertEquals("STARTED", start.kind(), "n" + n + " failed to start: " + start + "\n" + cluster.logs());
        }
    }

    /**
     * No lost update and no two holders in one epoch (the store's record of what each holder read), no
     * write of a majority node refused, no failed start. Writes of a cut-off holder made while a newer
     * holder held the lock (before the cut-off one knew its view was no longer primary) are printed.
     */
    private static void checkSafety(RealNetCluster cluster, String what) {
        List<io.dlock.samples.examples.FencedFile.Entry> history = cluster.history();
        List<String> violations = SplitFigures.sameEpochOverlaps(history);
        assertTrue(violations.isEmpty(), what + ": two holders in one epoch or a lost update: " + violations);
        List<String> late = SplitFigures.olderEpochOverlaps(history);
        System.out.println("REALNET " + what + ": " + history.size() + " writes, " + late.size()
                + " by a cut-off holder of an older epoch while a newer one held the lock" + (late.isEmpty() ? "" : ": " + late));
        for (int node : MAJORITY) {
            assertEquals(List.of(), cluster.events("STALE", node, 0), what + ": a majority node's write was refused");
        }
        assertEquals(List.of(), cluster.events("STARTFAIL", 0, 0), what + ": a start failed");
        assertEquals(List.of(), cluster.events("ERROR", 0, 0), what + ": a node failed");
    }
}
