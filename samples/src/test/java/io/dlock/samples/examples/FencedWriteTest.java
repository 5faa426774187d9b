package io.dlock.samples.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.dlock.MutexAlgorithm;
import io.dlock.StaleFencingTokenException;
import io.dlock.contract.LoopbackPorts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The paused holder ({@code SIGSTOP}) across processes: three {@link FencedWriteExample} JVMs on the
 * default TCP stack share a {@link FencedFile}. Node 2 takes the lock and writes; it is stopped past
 * failure detection; nodes 3 and then 1 take the lock (greater tokens) and write; node 2 is continued and
 * writes with its old token, and the store refuses it. The children detect a silent member after 2 s
 * (FD_ALL3, heartbeat every 500 ms) plus 500 ms (VERIFY_SUSPECT2). By default the run uses
 * ricart-agrawala; {@code -Ddlock.test.kill-all=true} runs every algorithm. Linux only (signals).
 *
 * <p>Run: {@code mvn -B -pl samples -am test -Dtest=FencedWriteTest -Dsurefire.failIfNoSpecifiedTests=false
 * [-Ddlock.test.kill-all=true]}.
 */
@Timeout(120)
@EnabledOnOs(OS.LINUX)
class FencedWriteTest {

    private static final long LINE_TIMEOUT_S = 60;

    @TempDir
    Path dir;

    private final List<Process> processes = new ArrayList<>();
    private final List<PrintStream> inputs = new ArrayList<>();
    private final List<BlockingQueue<String>> outputs = new ArrayList<>();

    static Stream<MutexAlgorithm> algorithms() {
        return Boolean.getBoolean("dlock.test.kill-all") ? Stream.of(MutexAlgorithm.values())
                : Stream.of(MutexAlgorithm.RICART_AGRAWALA);
    }

    @AfterEach
    void destroyAll() throws InterruptedException {
        for (Process p : processes) {
            p.destroyForcibly(); // SIGKILL ends a stopped process too
        }
        for (Process p : processes) {
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** A FencedFile accepts equal and newer tokens and refuses an older one, keeping the accepted history. */
    @Test
    void fencedFile_refusesOlderToken() {
        FencedFile store = new FencedFile(dir.resolve("store.txt"));
        store.write(5, "a");
        store.write(5, "b");
        store.write(9, "c");
        StaleFencingTokenException e = org.junit.jupiter.api.Assertions.assertThrows(StaleFencingTokenException.class,
                () -> store.write(7, "late"));
        assertEquals(7, e.token());
        assertEquals(9, e.highestAccepted());
        assertEquals(List.of(new FencedFile.Entry(5, "a"), new FencedFile.Entry(5, "b"), new FencedFile.Entry(9, "c")),
                store.history());
    }

    /** The holder paused past failure detection writes late with its old token and is refused; accepted tokens increase. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("algorithms")
    void when_holderIsPaused_then_itsLateWriteIsRefused(MutexAlgorithm algorithm) throws Exception {
        Path storeFile = dir.resolve("store.txt");
        String cluster = "fenced-" + UUID.randomUUID();
        int port = LoopbackPorts.freeBlock(6); // the nodes' PORT and PORT_RANGE 5
        long[] pids = new long[4];
        for (int id = 1; id <= 3; id++) {
            start(id, storeFile, port, algorithm, cluster);
            pids[id] = Long.parseLong(expect(id, "PID ").substring(4));
            expect(id, "READY");
        }
        long t1 = token(command(2, "lock", "LOCKED "));
        command(2, "write from-2", "ACCEPTED " + t1);

        signal("STOP", pids[2]);
        long stoppedAt = System.nanoTime();
        long t2 = token(command(3, "lock", "LOCKED ")); // granted once node 2 has left the view
        long takeoverMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);
        command(3, "write from-3", "ACCEPTED " + t2);
        command(3, "unlock", "UNLOCKED");
        long t3 = token(command(1, "lock", "LOCKED "));
        command(1, "write from-1", "ACCEPTED " + t3);

        inputs.get(1).println("write late-from-2"); // read as soon as it runs again
        signal("CONT", pids[2]);
        String answer = expect(2, "");
        assertEquals("REFUSED " + t1 + " " + t3, answer, "the paused holder's late write must be refused");

        System.out.printf("FENCED %s: paused holder's token %d; %d ms after SIGSTOP node 3 got %d, then node 1 %d;"
                + " late write refused%n", algorithm.configName(), t1, takeoverMs, t2, t3);
        assertTrue(t1 < t2 && t2 < t3, "tokens must increase: " + t1 + ", " + t2 + ", " + t3);
        assertEquals(List.of(new FencedFile.Entry(t1, "from-2"), new FencedFile.Entry(t2, "from-3"),
                new FencedFile.Entry(t3, "from-1")), new FencedFile(storeFile).history());
        for (PrintStream in : inputs) {
            in.println("exit");
        }
    }

    private void start(int id, Path store, int port, MutexAlgorithm algorithm, String cluster) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = List.of(java, "-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
                "-Djgroups.fd_all3.timeout=2s", "-Djgroups.fd_all3.interval=500ms",
                "-Djgroups.verify_suspect.timeout=500ms",
                "-cp", System.getProperty("java.class.path"), FencedWriteExample.class.getName(),
                store.toString(), Integer.toString(id), Integer.toString(port), Integer.toString(id),
                algorithm.configName(), cluster);
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        processes.add(p);
        inputs.add(new PrintStream(p.getOutputStream(), true, StandardCharsets.UTF_8));
        BlockingQueue<String> q = new LinkedBlockingQueue<>();
        outputs.add(q);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String s;
                while ((s = r.readLine()) != null) {
                    q.add(s);
                }
            } catch (IOException e) {
                // the process died
            }
        }, "fenced-child-" + id);
        reader.setDaemon(true);
        reader.start();
    }

    private String command(int node, String command, String expectedPrefix) throws InterruptedException {
        inputs.get(node - 1).println(command);
        return expect(node, expectedPrefix);
    }

    private String expect(int node, String prefix) throws InterruptedException {
        String line = outputs.get(node - 1).poll(LINE_TIMEOUT_S, TimeUnit.SECONDS);
        if (line == null) {
            fail("no output from node " + node + " for " + LINE_TIMEOUT_S + " s (expected " + prefix + "...)");
        }
        if (!line.startsWith(prefix)) {
            fail("node " + node + ": expected " + prefix + "..., got " + line);
        }
        return line;
    }

    private static long token(String line) {
        return Long.parseLong(line.substring(line.indexOf(' ') + 1).trim());
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal + " " + pid + " failed");
    }
}
