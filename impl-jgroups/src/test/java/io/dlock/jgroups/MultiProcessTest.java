package io.dlock.jgroups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.dlock.MutexAlgorithm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Three JVMs ({@link ProcessNode}) on the default TCP stack on 127.0.0.1 increment a counter in a shared
 * file under the lock. The kill run ends the lock holder with {@code destroyForcibly} (SIGKILL) while it
 * holds the lock. By default the kill run covers centralized and Ricart-Agrawala; run every algorithm with
 * {@code -Ddlock.test.kill-all=true}.
 */
@Timeout(180)
class MultiProcessTest {

    private static final int NODES = 3;
    private static final int INCREMENTS = 6;
    private static final long LINE_TIMEOUT_S = 60;

    @TempDir
    Path dir;

    /** A line printed by child {@code node} (1-based id). */
    private record Line(int node, String text) {
    }

    private final List<Process> processes = new ArrayList<>();
    private final List<PrintStream> inputs = new ArrayList<>();
    private final BlockingQueue<Line> lines = new LinkedBlockingQueue<>();

    static Stream<MutexAlgorithm> killAlgorithms() {
        if (Boolean.getBoolean("dlock.test.kill-all")) {
            return Stream.of(MutexAlgorithm.values());
        }
        return Stream.of(MutexAlgorithm.CENTRALIZED, MutexAlgorithm.RICART_AGRAWALA);
    }

    /** The file's final value equals the number of increments the three processes completed. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(MutexAlgorithm.class)
    void threeProcesses_fileCounterIsExact(MutexAlgorithm algorithm) throws Exception {
        Path file = Files.writeString(dir.resolve("counter.txt"), "0");
        try {
            startAll(algorithm, file, false);
            int incs = 0;
            int done = 0;
            while (done < NODES) {
                Line l = next();
                if (l.text.startsWith("INC ")) {
                    incs++;
                } else if (l.text.equals("DONE")) {
                    done++;
                }
            }
            exitAll();
            assertEquals(NODES * INCREMENTS, incs);
            assertEquals(incs, Long.parseLong(Files.readString(file).trim()));
        } finally {
            destroyAll();
        }
    }

    /** The lock holder is killed with SIGKILL while holding the lock; the survivors finish, and no increment is lost. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("killAlgorithms")
    void when_holderIsKilled_then_survivorsFinish(MutexAlgorithm algorithm) throws Exception {
        Path file = Files.writeString(dir.resolve("counter.txt"), "0");
        try {
            startAll(algorithm, file, true);
            int victim = NODES; // the highest id: for centralized also the coordinator
            int incs = 0;
            int done = 0;
            boolean killed = false;
            while (done < NODES - 1) {
                Line l = next();
                if (l.text.startsWith("HOLD ")) {
                    if (!killed && l.node == victim && incs >= 2) {
                        Process p = processes.get(victim - 1);
                        p.destroyForcibly();
                        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
                        killed = true;
                    } else {
                        inputs.get(l.node - 1).println("go");
                    }
                } else if (l.text.startsWith("INC ")) {
                    incs++;
                } else if (l.text.equals("DONE")) {
                    assertTrue(l.node != victim || !killed);
                    done++;
                }
            }
            assertTrue(killed, "the victim never held the lock");
            exitAll();
            assertEquals(incs, Long.parseLong(Files.readString(file).trim()));
            assertTrue(incs >= (NODES - 1) * INCREMENTS, "survivors completed only " + incs + " increments");
        } finally {
            destroyAll();
        }
    }

    private void startAll(MutexAlgorithm algorithm, Path file, boolean controlled) throws IOException, InterruptedException {
        String cluster = "mp-" + UUID.randomUUID();
        int port = JGroupsCluster.freshPorts(8);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        for (int id = 1; id <= NODES; id++) {
            List<String> cmd = List.of(java, "-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", cp, ProcessNode.class.getName(),
                    cluster, algorithm.configName(), Integer.toString(id), Integer.toString(port),
                    Integer.toString(id), file.toString(), Integer.toString(INCREMENTS), Boolean.toString(controlled));
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            processes.add(p);
            inputs.add(new PrintStream(p.getOutputStream(), true, StandardCharsets.UTF_8));
            int node = id;
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    String s;
                    while ((s = r.readLine()) != null) {
                        lines.add(new Line(node, s));
                    }
                } catch (IOException e) {
                    // the process died
                }
            }, "child-" + id);
            reader.setDaemon(true);
            reader.start();
            // start one at a time: each waits until it sees all earlier ones (READY with view size = id)
            Line l = next();
            if (!l.text.equals("READY") || l.node != id) {
                fail("expected READY from node " + id + ", got " + l);
            }
        }
        // the last one saw everybody; give the earlier ones time to install that view too, then go
        for (PrintStream in : inputs) {
            in.println("go");
        }
    }

    private Line next() throws InterruptedException {
        Line l = lines.poll(LINE_TIMEOUT_S, TimeUnit.SECONDS);
        if (l == null) {
            fail("no output from any child process for " + LINE_TIMEOUT_S + " s");
        }
        return l;
    }

    private void exitAll() throws InterruptedException {
        for (int i = 0; i < processes.size(); i++) {
            if (processes.get(i).isAlive()) {
                inputs.get(i).println("exit");
            }
        }
        for (Process p : processes) {
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private void destroyAll() {
        Collections.reverse(processes);
        for (Process p : processes) {
            p.destroyForcibly();
        }
    }
}
