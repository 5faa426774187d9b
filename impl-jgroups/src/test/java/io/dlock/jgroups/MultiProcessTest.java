package io.dlock.jgroups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dlock.MutexAlgorithm;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.contract.ChildJvms;
import io.dlock.contract.ChildJvms.Line;
import io.dlock.protocol.ProtocolFamily;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Three JVMs ({@link ProcessNode}) on the default TCP stack on 127.0.0.1 increment a counter in a shared
 * file under the lock. The kill runs end one node with {@code destroyForcibly} (SIGKILL) while the others
 * contend: the lock holder (while it holds the lock), the coordinator (for centralized the lock's coordinator,
 * by default the owner of its name, the JGroups view coordinator for the others; killed while another node holds
 * the lock), or the token holder (token algorithms: the node holding the token while every node is idle,
 * killed just as the others ask for the lock). The survivors must finish their increments and the file
 * must hold exactly the number of increments done. Each kill run prints (and appends to
 * {@code target/multiprocess-recovery.csv}) its recovery time, from the kill to the next grant anywhere;
 * it is measured, never asserted.
 *
 * <p>By default the kill runs cover a representative subset ({@link #DEFAULT_KILL_SET}), and the counter runs
 * without a kill the families the kill runs leave out ({@link #DEFAULT_COUNTER_SET}); run every algorithm and every
 * target with {@code -Ddlock.test.kill-all=true}:
 * {@code mvn -B -pl impl-jgroups -am test -Dtest=MultiProcessTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Ddlock.test.kill-all=true} (about 2.5 minutes for the 27 kill runs).
 *
 * <p>Failure detection: the children run the default stack with its timeouts (FD_SOCK2 notices a killed
 * process at once, VERIFY_SUSPECT2 confirms within {@value #VERIFY_SUSPECT}, FD_ALL3 after
 * {@value #FD_ALL3_TIMEOUT} of silence).
 */
@Timeout(180)
class MultiProcessTest {

    private static final int NODES = 3;
    private static final int INCREMENTS = 6;
    /** Increments done before anything is killed. */
    private static final int WARMUP = 2;
    private static final long LINE_TIMEOUT_S = 60;
    static final String VERIFY_SUSPECT = "1s";
    static final String FD_ALL3_TIMEOUT = "4s";

    /** What a kill run kills. */
    enum Target {
        /** The node in the critical section. */
        HOLDER,
        /** The mutex coordinator (centralized) or the JGroups coordinator, while another node holds the lock. */
        COORDINATOR,
        /** The idle holder of the token (token algorithms only). */
        TOKEN_HOLDER
    }

    /** The kill runs of the default build: the algorithm families' representatives. */
    static final List<Arguments> DEFAULT_KILL_SET = List.of(
            Arguments.of(MutexAlgorithm.CENTRALIZED, Target.HOLDER),
            Arguments.of(MutexAlgorithm.CENTRALIZED, Target.COORDINATOR),
            Arguments.of(MutexAlgorithm.RICART_AGRAWALA, Target.HOLDER),
            Arguments.of(MutexAlgorithm.RICART_AGRAWALA, Target.COORDINATOR),
            Arguments.of(MutexAlgorithm.SUZUKI_KASAMI, Target.HOLDER),
            Arguments.of(MutexAlgorithm.SUZUKI_KASAMI, Target.TOKEN_HOLDER),
            Arguments.of(MutexAlgorithm.NAIMI_TREHEL, Target.COORDINATOR),
            Arguments.of(MutexAlgorithm.NAIMI_TREHEL, Target.TOKEN_HOLDER));

    @TempDir
    Path dir;

    /** The three nodes, numbered by their ids 1..3. */
    private final ChildJvms children = new ChildJvms();

    static Stream<Arguments> killRuns() {
        if (!Boolean.getBoolean("dlock.test.kill-all")) {
            return DEFAULT_KILL_SET.stream();
        }
        List<Arguments> all = new ArrayList<>();
        for (MutexAlgorithm a : MutexAlgorithm.values()) {
            for (Target t : Target.values()) {
                if (t != Target.TOKEN_HOLDER || isToken(a)) {
                    all.add(Arguments.of(a, t));
                }
            }
        }
        return all.stream();
    }

    private static boolean isToken(MutexAlgorithm a) {
        return AlgorithmDefinitions.mutex(a).family() == ProtocolFamily.TOKEN;
    }

    @AfterEach
    void destroyAll() throws InterruptedException {
        children.close();
    }

    /**
     * The algorithms of the counter runs by default: a family the default kill runs (which check the same counter on
     * three processes) do not run: the replicated queue, quorums, votes and prime attributes; the token algorithms
     * other than those two run on every algorithm's JGroups test (JGroupsMutexIntegrationTest). Every algorithm with
     * {@code -Ddlock.test.kill-all=true}.
     */
    static final List<MutexAlgorithm> DEFAULT_COUNTER_SET = List.of(MutexAlgorithm.LAMPORT, MutexAlgorithm.MAEKAWA,
            MutexAlgorithm.DECENTRALIZED, MutexAlgorithm.RAYNAL);

    static Stream<MutexAlgorithm> counterRuns() {
        return Boolean.getBoolean("dlock.test.kill-all") ? Stream.of(MutexAlgorithm.values())
                : DEFAULT_COUNTER_SET.stream();
    }

    /** The file's final value equals the number of increments the three processes completed. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("counterRuns")
    void threeProcesses_fileCounterIsExact(MutexAlgorithm algorithm) throws Exception {
        Path file = Files.writeString(dir.resolve("counter.txt"), "0");
        startAll(algorithm, file, false);
        int incs = 0;
        int done = 0;
        while (done < NODES) {
            Line l = next();
            if (l.text().startsWith("INC ")) {
                incs++;
            } else if (l.text().equals("DONE")) {
                done++;
            } else if (l.text().equals("TIMEOUT") || l.text().startsWith("ERROR")) {
                fail("node " + l.node() + ": " + l.text());
            }
        }
        children.exitAll();
        assertEquals(NODES * INCREMENTS, incs);
        assertEquals(incs, Long.parseLong(Files.readString(file).trim()));
    }

    /**
     * One node is killed with SIGKILL while the others contend; the survivors finish all their
     * increments, and the file holds exactly the increments done.
     */
    @ParameterizedTest(name = "{0} kill {1}")
    @MethodSource("killRuns")
    void when_nodeIsKilled_then_survivorsFinish(MutexAlgorithm algorithm, Target target) throws Exception {
        Path file = Files.writeString(dir.resolve("counter.txt"), "0");
        int coordinator = startAll(algorithm, file, true);
        int[] incsOf = new int[NODES + 1];
        int incs = 0;
        int done = 0;
        int victim = 0;
        long killedAt = 0;
        long recoveryMs = -1;
        String note = "";
        Set<Integer> idle = new HashSet<>();
        while (victim == 0 || done < NODES - 1) {
            Line l = next();
            boolean armed = victim == 0 && incs >= WARMUP;
            if (l.text().startsWith("HOLD ")) {
                if (victim != 0 && recoveryMs < 0) {
                    recoveryMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
                }
                // The holder is killed as a holder only, the coordinator while another node holds the lock,
                // unless the coordinator keeps getting the lock (decentralized is unfair) and would finish.
                boolean lastChance = incsOf[l.node()] >= INCREMENTS - 2;
                if (armed && target == Target.HOLDER && (l.node() != coordinator || lastChance)) {
                    victim = l.node();
                    note = victim == coordinator ? "the holder was also the coordinator" : "";
                    killedAt = children.kill(victim);
                    continue; // the victim dies holding the lock
                }
                if (armed && target == Target.COORDINATOR && (l.node() != coordinator || lastChance)) {
                    victim = coordinator;
                    note = victim == l.node() ? "the coordinator was also the holder" : "";
                    killedAt = children.kill(victim);
                    if (victim == l.node()) {
                        continue;
                    }
                }
                go(l.node());
            } else if (l.text().equals("IDLE")) {
                if (armed && target == Target.TOKEN_HOLDER) {
                    idle.add(l.node());
                    if (idle.size() == NODES) { // nobody asks for the lock now: the token rests somewhere
                        int[] found = findTokenHolder();
                        victim = found[0];
                        note = found[1] == 1 ? "" : "token found after " + found[1] + " queries";
                        killedAt = children.kill(victim);
                        for (int n = 1; n <= NODES; n++) {
                            if (n != victim) {
                                go(n);
                            }
                        }
                    }
                } else {
                    go(l.node());
                }
            } else if (l.text().startsWith("INC ")) {
                incs++;
                incsOf[l.node()]++;
            } else if (l.text().equals("DONE")) {
                assertNotEquals(victim, l.node(), "the killed node cannot finish");
                assertTrue(victim != 0, "node " + l.node() + " finished before anything was killed");
                done++;
            } else if (l.text().equals("TIMEOUT") || l.text().startsWith("ERROR")) {
                fail("node " + l.node() + ": " + l.text() + " (after killing node " + victim + ")");
            }
        }
        children.exitAll();
        report(algorithm, target, victim, recoveryMs, note);
        assertEquals(incs, Long.parseLong(Files.readString(file).trim()), "the file lost or repeated an increment");
        for (int n = 1; n <= NODES; n++) {
            if (n != victim) {
                assertEquals(INCREMENTS, incsOf[n], "survivor " + n + " did not complete its increments");
            }
        }
    }

    /**
     * A holder whose process is paused (SIGSTOP) past failure detection loses the lock and is told: the two
     * others exclude it and one of them is granted with a higher fencing token; when the paused process runs
     * again (SIGCONT) it finds itself outside the primary component, its ownership listener is told of the
     * lost hold (with its token), and its unlock throws {@code LockOwnershipLostException}. The survivors
     * finish their increments and the file holds exactly the increments done (the paused holder never
     * writes: it exits instead of going on).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = MutexAlgorithm.class, names = {"CENTRALIZED", "RICART_AGRAWALA", "SUZUKI_KASAMI"})
    void pausedHolder_isToldItLostTheLock(MutexAlgorithm algorithm) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/kill")) || Files.isExecutable(Path.of("/usr/bin/kill")),
                "no kill command to pause a process with SIGSTOP");
        Path file = Files.writeString(dir.resolve("counter.txt"), "0");
        startAll(algorithm, file, true);
        int paused = 0;
        long pausedToken = -1;
        long lostToken = -1;
        long unlockedToken = -1;
        long laterToken = -1;
        int incs = 0;
        int done = 0;
        while (lostToken < 0 || unlockedToken < 0 || done < NODES - 1) {
            Line l = next();
            if (l.text().startsWith("HOLD ")) {
                long token = Long.parseLong(l.text().split(" ")[2]);
                if (paused == 0 && incs >= WARMUP) {
                    paused = l.node();
                    pausedToken = token;
                    children.signal(paused, "STOP"); // it holds the lock and waits for "go": freeze it there
                    continue;
                }
                if (paused != 0 && laterToken < 0) {
                    laterToken = token;
                    assertTrue(token > pausedToken, "granted with " + token + " while the paused holder had " + pausedToken);
                    children.signal(paused, "CONT");
                }
                go(l.node());
            } else if (l.text().startsWith("LOST ")) {
                assertEquals(paused, l.node(), "only the paused holder loses its hold");
                lostToken = Long.parseLong(l.text().substring("LOST ".length()));
                children.tell(paused, "exit"); // end the lost hold instead of writing
            } else if (l.text().startsWith("UNLOCKED-LOST ")) {
                assertEquals(paused, l.node());
                unlockedToken = Long.parseLong(l.text().substring("UNLOCKED-LOST ".length()));
            } else if (l.text().equals("IDLE")) {
                go(l.node());
            } else if (l.text().startsWith("INC ")) {
                incs++;
            } else if (l.text().equals("DONE")) {
                done++;
            } else if (l.text().equals("TIMEOUT") || l.text().startsWith("ERROR")) {
                fail("node " + l.node() + ": " + l.text() + " (paused node " + paused + ")");
            }
        }
        children.exitAll();
        assertEquals(pausedToken, lostToken, "the listener names the token of the lost hold");
        assertEquals(pausedToken, unlockedToken, "the exception names the token of the lost hold");
        assertEquals(incs, Long.parseLong(Files.readString(file).trim()), "the file lost or repeated an increment");
    }

    /**
     * Asks every (idle) node whether it holds the token until exactly one says so; returns its id and the
     * number of rounds. Fails if two do. A token in flight (the ring passes it on even when idle) is
     * simply asked for again.
     */
    private int[] findTokenHolder() throws InterruptedException {
        for (int round = 1; round <= 50; round++) {
            for (int n = 1; n <= NODES; n++) {
                children.tell(n, "token?");
            }
            List<Integer> holders = new ArrayList<>();
            for (int answers = 0; answers < NODES; ) {
                Line l = next();
                if (l.text().startsWith("TOKEN ")) {
                    answers++;
                    if (l.text().equals("TOKEN true")) {
                        holders.add(l.node());
                    }
                } else {
                    fail("unexpected line from an idle node " + l.node() + ": " + l.text());
                }
            }
            assertTrue(holders.size() <= 1, "two nodes hold the token: " + holders);
            if (holders.size() == 1) {
                return new int[] {holders.get(0), round};
            }
            Thread.sleep(5);
        }
        return fail("no node held the token in 50 queries");
    }

    private void go(int node) {
        children.tell(node, "go");
    }

    /** Prints the measured recovery and appends it to target/multiprocess-recovery.csv. */
    private static void report(MutexAlgorithm algorithm, Target target, int victim, long recoveryMs, String note)
            throws IOException {
        String line = algorithm.configName() + "," + target.name().toLowerCase(java.util.Locale.ROOT) + "," + victim
                + "," + recoveryMs + "," + note;
        System.out.println("RECOVERY " + line + " (algorithm,target,victim,ms kill->next grant,note)");
        Path csv = Path.of("target", "multiprocess-recovery.csv");
        if (Files.isDirectory(csv.getParent())) {
            Files.writeString(csv, line + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
    }

    /** Starts the nodes one at a time, then lets them go; returns the coordinator as node 1 sees it. */
    private int startAll(MutexAlgorithm algorithm, Path file, boolean controlled) throws IOException, InterruptedException {
        String cluster = "mp-" + UUID.randomUUID();
        int port = JGroupsCluster.freshPorts(8);
        for (int id = 1; id <= NODES; id++) {
            children.start(id, List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                    "-Djgroups.verify_suspect.timeout=" + VERIFY_SUSPECT, "-Djgroups.fd_all3.timeout=" + FD_ALL3_TIMEOUT),
                    ProcessNode.class.getName(), List.of(cluster, algorithm.configName(), Integer.toString(id),
                            Integer.toString(port), Integer.toString(id), file.toString(), Integer.toString(INCREMENTS),
                            Boolean.toString(controlled)));
            // start one at a time: each waits until it sees all earlier ones (READY with view size = id)
            Line l = next();
            if (!l.text().equals("READY") || l.node() != id) {
                fail("expected READY from node " + id + ", got " + l);
            }
        }
        Map<Integer, Integer> coordinators = new HashMap<>();
        if (controlled) {
            for (int id = 1; id <= NODES; id++) {
                children.tell(id, "coordinator?");
                Line l = next();
                if (!l.text().startsWith("COORDINATOR ")) {
                    fail("expected COORDINATOR from node " + id + ", got " + l);
                }
                coordinators.put(l.node(), Integer.parseInt(l.text().substring("COORDINATOR ".length())));
            }
        }
        for (int id = 1; id <= NODES; id++) {
            go(id);
        }
        return coordinators.getOrDefault(1, 0);
    }

    private Line next() throws InterruptedException {
        return children.next(LINE_TIMEOUT_S);
    }
}
