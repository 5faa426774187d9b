package io.dlock.samples.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.dlock.samples.LoopbackPorts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@link BoundedBufferExample} across three JVMs on JGroups (default TCP stack, 127.0.0.1), started
 * together: two producers put 20 items each into a buffer of three kept in a shared file, a consumer takes
 * all 40. Producers wait on "not full" and the consumer on "not empty", each woken by a signal from another
 * process. Every item must be taken exactly once, and the buffer never holds more than three (the consumer
 * checks it on every take).
 */
@Timeout(180)
class BoundedBufferJvmTest {

    private static final int PER_PRODUCER = 20;
    private static final long LINE_TIMEOUT_S = 60;

    @TempDir
    Path dir;

    private record Line(int node, String text) {
    }

    private final List<Process> processes = new ArrayList<>();
    private final BlockingQueue<Line> lines = new LinkedBlockingQueue<>();

    @AfterEach
    void destroyAll() throws InterruptedException {
        for (Process p : processes) {
            p.destroyForcibly();
        }
        for (Process p : processes) {
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ricart-agrawala", "suzuki-kasami"})
    void producersAndConsumerInThreeProcesses(String algorithm) throws Exception {
        Path file = dir.resolve("buffer.txt");
        int port = LoopbackPorts.freeBlock(6); // the nodes' PORT and PORT_RANGE 5
        start(1, file, port, algorithm, "produce", "1", Integer.toString(PER_PRODUCER));
        start(2, file, port, algorithm, "produce", "101", Integer.toString(PER_PRODUCER));
        start(3, file, port, algorithm, "consume", Integer.toString(2 * PER_PRODUCER));
        List<Integer> put = new ArrayList<>();
        List<Integer> taken = new ArrayList<>();
        int done = 0;
        while (done < 3) {
            Line l = lines.poll(LINE_TIMEOUT_S, TimeUnit.SECONDS);
            if (l == null) {
                fail("no output for " + LINE_TIMEOUT_S + " s; put " + put + ", taken " + taken);
            }
            if (l.text.startsWith("PUT ")) {
                put.add(Integer.parseInt(l.text.substring(4)));
            } else if (l.text.startsWith("TOOK ")) {
                taken.add(Integer.parseInt(l.text.substring(5)));
            } else if (l.text.equals("DONE")) {
                done++;
            } else if (!l.text.equals("READY")) {
                fail("node " + l.node + ": " + l.text);
            }
        }
        for (Process p : processes) {
            new PrintStream(p.getOutputStream(), true, StandardCharsets.UTF_8).println("exit");
        }
        List<Integer> expected = new ArrayList<>();
        for (int k = 0; k < PER_PRODUCER; k++) {
            expected.add(1 + k);
        }
        for (int k = 0; k < PER_PRODUCER; k++) {
            expected.add(101 + k);
        }
        assertEquals(expected, put.stream().sorted().toList(), "every item put once");
        assertEquals(expected, taken.stream().sorted().toList(), "every item taken once");
    }

    private void start(int id, Path file, int port, String algorithm, String... role) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=error", "-cp", System.getProperty("java.class.path"),
                BoundedBufferExample.class.getName(), "--jgroups", file.toString(), Integer.toString(id),
                Integer.toString(port), "3"));
        cmd.addAll(List.of(role));
        cmd.add(algorithm);
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        processes.add(p);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String s;
                while ((s = r.readLine()) != null) {
                    lines.add(new Line(id, s));
                }
            } catch (IOException e) {
                // the process died
            }
        }, "child-" + id);
        reader.setDaemon(true);
        reader.start();
    }
}
