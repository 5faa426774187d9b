package io.dlock.baselines;

import io.dlock.bench.CpuClock;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A server a peer runs in a process of its own on 127.0.0.1 (a redis-server, an etcd member): started with its output
 * in a log file, waited for until it accepts connections, stopped (SIGTERM, then SIGKILL after 10 s), and its CPU time
 * read from {@code /proc/<pid>/stat} so that a peer's CPU per operation counts its servers.
 */
final class ServerProcess implements AutoCloseable {

    /** Clock ticks per second of {@code /proc/<pid>/stat} (USER_HZ, 100 on Linux everywhere). */
    static final long TICKS_PER_SECOND = 100;

    private final String name;
    private final Process process;
    private final Path log;

    private ServerProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code command}, its output to {@code log}, and waits until {@code port} on 127.0.0.1 accepts a
     * connection, at most {@code waitSeconds}.
     *
     * @throws IllegalStateException naming the server and its log if it ended or did not listen in time
     */
    static ServerProcess start(String name, List<String> command, Path log, int port, long waitSeconds)
            throws IOException, InterruptedException {
        ServerProcess server = launch(name, command, log);
        try {
            server.awaitListening(port, waitSeconds);
            return server;
        } catch (RuntimeException | InterruptedException e) {
            server.close();
            throw e;
        }
    }

    /**
     * Starts {@code command}, its output to {@code log}, without waiting for it (for servers that only serve once
     * their peers are up too: start them all, then {@link #awaitListening} each).
     */
    static ServerProcess launch(String name, List<String> command, Path log) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new ServerProcess(name, p, log);
    }

    /**
     * Waits until {@code port} on 127.0.0.1 accepts a connection, at most {@code waitSeconds}.
     *
     * @throws IllegalStateException naming the server and its log if it ended or did not listen in time
     */
    void awaitListening(int port, long waitSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(waitSeconds);
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " ended with exit code " + process.exitValue()
                        + " before it listened on 127.0.0.1:" + port + "; its output: " + log + "\n" + tail());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(name + " did not listen on 127.0.0.1:" + port + " within "
                            + waitSeconds + " s; its output: " + log + "\n" + tail());
                }
                Thread.sleep(50);
            }
        }
    }

    /** The last lines of the server's output, for an error message. */
    String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }

    /** The server's CPU time so far (user + system, every thread), or -1 if it cannot be read. */
    long cpuNanos() {
        return cpuNanos(process.pid());
    }

    /** A clock of this server's CPU time. */
    CpuClock cpu() {
        return this::cpuNanos;
    }

    /**
     * The CPU time of process {@code pid} so far, user + system, all its threads ({@code utime} and {@code stime},
     * fields 14 and 15 of {@code /proc/<pid>/stat}), in nanoseconds at a resolution of 10 ms; -1 if it cannot be read.
     */
    static long cpuNanos(long pid) {
        try {
            return parseStat(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * utime + stime of one {@code /proc/<pid>/stat} line, in nanoseconds. The command name (field 2) is in
     * parentheses and may hold spaces, so the fields are counted after its closing parenthesis.
     *
     * @throws IllegalArgumentException if the line does not have those fields
     */
    static long parseStat(String stat) {
        int close = stat.lastIndexOf(')');
        String[] f = close < 0 ? new String[0] : stat.substring(close + 2).trim().split("\\s+");
        // after ')': field 3 (state) is f[0], so field k is f[k - 3]
        if (f.length < 13) {
            throw new IllegalArgumentException("not a /proc/<pid>/stat line (too few fields): " + stat);
        }
        long ticks = Long.parseLong(f[14 - 3]) + Long.parseLong(f[15 - 3]);
        return ticks * (TimeUnit.SECONDS.toNanos(1) / TICKS_PER_SECOND);
    }

    /** Stops the server: SIGTERM, then SIGKILL if it has not ended within 10 s. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
