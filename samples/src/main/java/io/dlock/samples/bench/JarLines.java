package io.dlock.samples.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A program the bench runs (the baselines jar, in a JVM of its own) and its standard output as lines, read by a daemon
 * thread as they come, so that every wait for a line is bounded. Its standard error goes to ours.
 */
final class JarLines {

    /** What {@link #next} returns once the program's output has ended (compare by identity). */
    static final String END = new String("end of output");

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private JarLines(Process process, String name) {
        this.process = process;
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the program ended: END follows
            } finally {
                lines.add(END);
            }
        }, "bench-peer-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    /** The java command that runs {@code jar} with {@code args}, on this JVM's java. */
    static List<String> javaJar(String jar, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar));
        cmd.addAll(args);
        return cmd;
    }

    /** Starts {@code command}; {@code name} names the reading thread. */
    static JarLines start(List<String> command, String name) throws IOException {
        return new JarLines(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start(), name);
    }

    /**
     * Every line the program prints until it ends, waiting {@code seconds} at most; then it is killed.
     *
     * @throws IllegalStateException if it did not end in time
     */
    static List<String> all(List<String> command, String name, long seconds) throws IOException,
            InterruptedException {
        JarLines out = start(command, name);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            List<String> all = new ArrayList<>();
            for (String line = out.next(deadline); line != END; line = out.next(deadline)) {
                if (line == null) {
                    throw new IllegalStateException("baseline " + name + " did not finish within " + seconds + " s");
                }
                all.add(line);
            }
            return all;
        } finally {
            out.process.destroyForcibly();
        }
    }

    /** The process, to write to its input or stop it. */
    Process process() {
        return process;
    }

    /**
     * The next line, waiting until {@code deadline} ({@link System#nanoTime}) at most.
     *
     * @return the line; {@link #END} once the output has ended; null if no line came in time
     */
    String next(long deadline) throws InterruptedException {
        return lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }
}
