package io.dlock.contract;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The child JVMs of one multi-process test, each under a node number the test chooses: started on this JVM's class
 * path, read line by line (every child's standard output into one queue, in arrival order), told things on
 * standard input, paused or killed, and all destroyed by {@link #close}. Their standard error goes to ours.
 */
public final class ChildJvms implements AutoCloseable {

    /** How long {@link #kill} waits for a killed child to be gone, and {@link #exitAll} for each child to exit. */
    private static final long END_TIMEOUT_S = 30;

    /** A line printed by child {@code node}. */
    public record Line(int node, String text) {
    }

    private final Map<Integer, Process> processes = new TreeMap<>();
    private final Map<Integer, PrintStream> inputs = new TreeMap<>();
    private final BlockingQueue<Line> lines = new LinkedBlockingQueue<>();

    /**
     * Starts node {@code node}: {@code java} with a small heap, the serial collector and C1 only, then
     * {@code jvmOptions}, this JVM's class path, {@code mainClass} and {@code args}.
     *
     * A child that was killed or has exited may be started again under its number.
     *
     * @throws IllegalArgumentException if a child with that number is running
     */
    public void start(int node, List<String> jvmOptions, String mainClass, List<String> args) throws IOException {
        if (processes.containsKey(node) && processes.get(node).isAlive()) {
            throw new IllegalArgumentException("child " + node + " is running; started: " + processes.keySet());
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        processes.put(node, p);
        inputs.put(node, new PrintStream(p.getOutputStream(), true, StandardCharsets.UTF_8));
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String s = r.readLine(); s != null; s = r.readLine()) {
                    lines.add(new Line(node, s));
                }
            } catch (IOException e) {
                // the process died
            }
        }, "child-" + node);
        reader.setDaemon(true);
        reader.start();
    }

    /** The next line of any child, or null after {@code timeoutS} seconds without one. */
    public Line poll(long timeoutS) throws InterruptedException {
        return lines.poll(timeoutS, TimeUnit.SECONDS);
    }

    /** The next line of any child, failing the test after {@code timeoutS} seconds without one. */
    public Line next(long timeoutS) throws InterruptedException {
        Line l = poll(timeoutS);
        if (l == null) {
            fail("no output from any child process for " + timeoutS + " s");
        }
        return l;
    }

    /** Writes {@code line} to child {@code node}'s standard input. */
    public void tell(int node, String line) {
        inputs.get(node).println(line);
    }

    /** SIGKILL, and waits until the process is gone; returns when it was killed (System.nanoTime). */
    public long kill(int node) throws InterruptedException {
        Process p = processes.get(node);
        long at = System.nanoTime();
        p.destroyForcibly();
        assertTrue(p.waitFor(END_TIMEOUT_S, TimeUnit.SECONDS), "node " + node + " did not die");
        return at;
    }

    /** Sends {@code signal} (STOP, CONT) to child {@code node} with the kill command. */
    public void signal(int node, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(processes.get(node).pid()))
                .redirectErrorStream(true).start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal + " of node " + node
                + " failed");
    }

    /** Tells every living child {@code exit} and waits (bounded) until each has exited. */
    public void exitAll() throws InterruptedException {
        for (Map.Entry<Integer, Process> e : processes.entrySet()) {
            if (e.getValue().isAlive()) {
                tell(e.getKey(), "exit");
            }
        }
        for (Process p : processes.values()) {
            p.waitFor(END_TIMEOUT_S, TimeUnit.SECONDS);
        }
    }

    /** Destroys every child (SIGKILL) and waits a little for each. */
    @Override
    public void close() throws InterruptedException {
        for (Process p : processes.values()) {
            p.destroyForcibly();
        }
        for (Process p : processes.values()) {
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
