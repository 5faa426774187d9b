package io.dlock.jgroups;

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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Child JVMs ({@link StartChild}) of one test: started, read line by line, told things on stdin, killed with
 * SIGKILL, and all destroyed by {@link #close}. Test fixture.
 */
final class Children implements AutoCloseable {

    /** A line printed by child {@code child} (0-based, in start order), read at {@code nanos} (System.nanoTime). */
    record Line(int child, String text, long nanos) {
    }

    private final List<Process> processes = new ArrayList<>();
    private final List<PrintStream> inputs = new ArrayList<>();
    private final BlockingQueue<Line> lines = new LinkedBlockingQueue<>();

    /** Starts a child with {@link StartChild}'s arguments and extra JVM options; returns its index. */
    int start(List<String> jvmOptions, String... args) throws IOException {
        return startOn(List.of(), jvmOptions, args);
    }

    /** {@link #start}, the command run under {@code prefix} (e.g. {@code ip netns exec ns}, which execs the JVM). */
    int startOn(List<String> prefix, List<String> jvmOptions, String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(List.of(java, "-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.showDateTime=true",
                "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), StartChild.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        int index;
        synchronized (this) {
            index = processes.size();
            processes.add(p);
            inputs.add(new PrintStream(p.getOutputStream(), true, StandardCharsets.UTF_8));
        }
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String s;
                while ((s = r.readLine()) != null) {
                    lines.add(new Line(index, s, System.nanoTime()));
                }
            } catch (IOException e) {
                // the process died
            }
        }, "child-" + index);
        reader.setDaemon(true);
        reader.start();
        return index;
    }

    /** The next line of any child, failing the test after {@code timeoutS} seconds without one. */
    Line next(long timeoutS) throws InterruptedException {
        Line l = lines.poll(timeoutS, TimeUnit.SECONDS);
        if (l == null) {
            fail("no output from any child process for " + timeoutS + " s");
        }
        return l;
    }

    /** The next line of any child within {@code timeoutMs}, or null. */
    Line poll(long timeoutMs) throws InterruptedException {
        return lines.poll(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /** The next line of {@code child} that starts with {@code prefix}; other lines are skipped. */
    Line await(int child, String prefix, long timeoutS) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        List<Line> skipped = new ArrayList<>();
        try {
            while (System.nanoTime() - deadline < 0) {
                Line l = lines.poll(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())),
                        TimeUnit.MILLISECONDS);
                if (l == null) {
                    break;
                }
                if (l.child == child && l.text.startsWith(prefix)) {
                    return l;
                }
                skipped.add(l);
            }
        } finally {
            lines.addAll(skipped);
        }
        return fail("child " + child + " printed no " + prefix + " within " + timeoutS + " s; other lines: " + skipped);
    }

    void tell(int child, String line) {
        inputs.get(child).println(line);
    }

    /** SIGKILL, and waits until the process is gone. */
    void kill(int child) throws InterruptedException {
        Process p = processes.get(child);
        p.destroyForcibly();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "child " + child + " did not die");
    }

    /** Sends {@code signal} (STOP, CONT) to the child with the kill command. */
    void signal(int child, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(processes.get(child).pid()))
                .redirectErrorStream(true).start();
        assertTrue(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill -" + signal + " of child " + child
                + " failed");
    }

    @Override
    public void close() throws InterruptedException {
        for (Process p : processes) {
            p.destroyForcibly();
        }
        for (Process p : processes) {
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
