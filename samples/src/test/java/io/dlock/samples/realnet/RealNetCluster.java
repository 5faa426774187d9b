package io.dlock.samples.realnet;

import io.dlock.samples.examples.FencedFile;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * {@link RealNetNode} (or {@link NemesisNode}) JVMs on {@link VirtualHosts} (one node per host, the {@code tcp}
 * stack, every host in the initial-hosts list) or on 127.0.0.1 (the {@code default} stack), started together the
 * way an orchestrator starts replicas, sharing one {@link FencedFile}. On 127.0.0.1, successive clusters take turns
 * over four first ports (7800, 8000, 8200, 8400, each probed 10 ports up; FD_SOCK2 takes the ports 100 above),
 * so that a cluster never binds ports whose connections the previous one just closed. Collects every line the
 * nodes print as an {@link Event}, and every line of {@link NemesisNode}'s history ({@link #historyLines}), and
 * can stop, kill, pause and restart nodes; it counts each node's starts (its incarnation). {@link #close} ends
 * every JVM it started, and so does a shutdown hook if the test JVM ends with the cluster open.
 */
final class RealNetCluster implements AutoCloseable {

    /** One line printed by node {@code node} (1-based id): its kind, the wall-clock ms it names, the rest. */
    record Event(int node, String kind, long time, List<String> args) {

        long arg(int i) {
            return Long.parseLong(args.get(i));
        }

        @Override
        public String toString() {
            return "n" + node + " " + kind + " " + time + " " + String.join(" ", args);
        }
    }

    /**
     * How a cluster is built: each node runs {@code main} with a {@link NodeSpec} and then {@code programArgs}.
     */
    record Setup(String main, String algorithm, int clusterSize, List<String> programArgs, List<String> jvmOptions) {

        /** {@link RealNetNode}s that hold the lock {@code holdMs} and wait {@code thinkMs} between rounds. */
        Setup(String algorithm, int clusterSize, long holdMs, long thinkMs, List<String> jvmOptions) {
            this(RealNetNode.class.getName(), algorithm, clusterSize,
                    List.of(Long.toString(holdMs), Long.toString(thinkMs)), jvmOptions);
        }
    }

    /** Loopback clusters take turns over these first ports, so that one never binds where the last one just closed. */
    private static final AtomicInteger NEXT_BASE = new AtomicInteger();

    /** The shared store's file in the cluster's folder, passed to every node ({@link NodeSpec#store()}). */
    static final String STORE_FILE = "store.txt";

    private final VirtualHosts hosts;
    private final int port;
    private final int size;
    private final Setup setup;
    private final Path store;
    private final String cluster;
    private final Process[] processes;
    private final PrintStream[] inputs;
    private final int[] incarnations;
    private final long[] launchedNanos;
    private final List<Thread> readers = Collections.synchronizedList(new ArrayList<>());
    private final List<Event> events = Collections.synchronizedList(new ArrayList<>());
    private final List<String> history = Collections.synchronizedList(new ArrayList<>());
    private final List<String> logs = Collections.synchronizedList(new ArrayList<>());
    private final Thread cleanup = new Thread(this::destroyAll, "realnet-cluster-cleanup");

    /**
     * A cluster of {@code size} nodes: on {@code hosts} (which must have at least that many) or, with
     * {@code hosts} null, on 127.0.0.1.
     */
    RealNetCluster(VirtualHosts hosts, int size, Setup setup, Path dir) {
        this.hosts = hosts;
        this.size = size;
        this.setup = setup;
        this.store = dir.resolve(STORE_FILE);
        this.cluster = "realnet-" + Long.toString(System.nanoTime() & 0xffffff, 36);
        this.port = hosts != null ? 7800 : 7800 + 200 * (NEXT_BASE.getAndIncrement() % 4);
        this.processes = new Process[size];
        this.inputs = new PrintStream[size];
        this.incarnations = new int[size];
        this.launchedNanos = new long[size];
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    /** Starts every node at once (one launch right after the other, no waiting in between). */
    void startAll() throws IOException {
        for (int node = 1; node <= size; node++) {
            start(node);
        }
    }

    /** Starts node {@code node} (1-based), its next incarnation; it must not be running. */
    void start(int node) throws IOException {
        List<String> cmd = new ArrayList<>();
        String bind;
        String initial;
        String stack;
        if (hosts != null) {
            cmd.addAll(hosts.on(node - 1));
            bind = hosts.address(node - 1);
            StringJoiner all = new StringJoiner(",");
            for (int i = 0; i < size; i++) {
                all.add(hosts.address(i) + "[" + port + "]");
            }
            initial = all.toString();
            stack = System.getProperty("dlock.test.realnet-stack", "tcp");
        } else {
            bind = "127.0.0.1";
            initial = "127.0.0.1[" + port + "]";
            stack = "default";
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"); // their lines go into a failure's report
        cmd.addAll(setup.jvmOptions());
        String extra = System.getProperty("dlock.test.realnet-jvm-options", "").trim();
        if (!extra.isEmpty()) {
            // after the defaults, so that a -D given here wins (e.g. a log level, or a TRACE logger)
            cmd.addAll(List.of(extra.split("\\s+")));
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(setup.main());
        int incarnation = incarnations[node - 1] + 1;
        cmd.addAll(new NodeSpec(node, incarnation, bind, initial, cluster, setup.algorithm(), setup.clusterSize(),
                stack, port, store.toString()).args());
        cmd.addAll(setup.programArgs());
        launchedNanos[node - 1] = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        incarnations[node - 1] = incarnation;
        processes[node - 1] = p;
        inputs[node - 1] = new PrintStream(p.getOutputStream(), true, StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> read(node, p), "realnet-n" + node + "." + incarnation);
        reader.setDaemon(true);
        readers.add(reader);
        reader.start();
    }

    /** How many times node {@code node} was started (0 before its first start). */
    int incarnation(int node) {
        return incarnations[node - 1];
    }

    /** When ({@code System.nanoTime()}) node {@code node} was last launched. */
    long launchedNanos(int node) {
        return launchedNanos[node - 1];
    }

    /** Whether node {@code node}'s JVM is running (or paused). */
    boolean isAlive(int node) {
        Process p = processes[node - 1];
        return p != null && p.isAlive();
    }

    /**
     * Reads node {@code node}'s output: history lines, events and log lines. With the system property
     * {@code dlock.test.realnet-output-dir}, every log line also goes to
     * {@code <dir>/<cluster>-n<node>.<incarnation>.log},
     * and DEBUG and TRACE lines go only there (a TRACE run writes far more than memory should hold).
     */
    private void read(int node, Process p) {
        String outputDir = System.getProperty("dlock.test.realnet-output-dir");
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
             Writer file = outputFile(outputDir, node)) {
            String line;
            while ((line = r.readLine()) != null) {
                if (file != null) {
                    file.write(line);
                    file.write('\n');
                    if (line.contains(" DEBUG ") || line.contains(" TRACE ")) {
                        continue;
                    }
                }
                if (line.startsWith(NemesisNode.HISTORY)) {
                    history.add(line.substring(NemesisNode.HISTORY.length()));
                    continue;
                }
                String[] parts = line.split(" ", -1);
                if (parts.length >= 2 && parts[0].matches("[A-Z]+") && parts[1].matches("\\d{10,}")) {
                    events.add(new Event(node, parts[0], Long.parseLong(parts[1]),
                            List.of(parts).subList(2, parts.length)));
                } else {
                    logs.add("n" + node + ": " + line);
                }
            }
        } catch (IOException e) {
            logs.add("n" + node + ": output closed: " + e);
        }
    }

    /** The file for node {@code node}'s current incarnation's log lines in {@code dir}, or null without a dir. */
    private Writer outputFile(String dir, int node) throws IOException {
        if (dir == null) {
            return null;
        }
        Files.createDirectories(Path.of(dir));
        return Files.newBufferedWriter(Path.of(dir, cluster + "-n" + node + "." + incarnations[node - 1] + ".log"));
    }

    /**
     * Asks node {@code node} to close its service cleanly and waits until its JVM has ended; a JVM that has not
     * ended within 20 s is killed. Returns whether it ended by itself.
     */
    boolean stop(int node) throws InterruptedException {
        Process p = processes[node - 1];
        inputs[node - 1].println("exit");
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            return false;
        }
        return true;
    }

    /** Kills node {@code node}'s JVM ({@code SIGKILL}, paused or not) and waits until it has ended. */
    void kill(int node) throws InterruptedException {
        processes[node - 1].destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /** Sends a command line to node {@code node}. */
    void send(int node, String command) {
        inputs[node - 1].println(command);
    }

    /** Sends {@code SIGSTOP} or {@code SIGCONT} to node {@code node}. */
    void signal(int node, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(processes[node - 1].pid())).start();
        kill.waitFor(10, TimeUnit.SECONDS);
    }

    /** Every event so far, in arrival order. */
    List<Event> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    /** The events of one kind, optionally of one node (0 = all), at or after {@code from} (wall ms). */
    List<Event> events(String kind, int node, long from) {
        List<Event> out = new ArrayList<>();
        for (Event e : events()) {
            if (e.kind().equals(kind) && (node == 0 || e.node() == node) && e.time() >= from) {
                out.add(e);
            }
        }
        return out;
    }

    /** Waits until an event matches, at most {@code timeout}; returns it or null. */
    Event await(Predicate<Event> match, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (Event e : events()) {
                if (match.test(e)) {
                    return e;
                }
            }
            Thread.sleep(20);
        }
        return null;
    }

    /**
     * Every history line the nodes printed so far ({@link NemesisNode#HISTORY} removed), in arrival order: each
     * JVM's lines in their order, the JVMs' interleaved as they came.
     */
    List<String> historyLines() {
        synchronized (history) {
            return List.copyOf(history);
        }
    }

    /** How many history lines arrived so far. */
    int historySize() {
        return history.size();
    }

    /**
     * Waits until a history line at index {@code from} or later matches, at most {@code timeout}; returns it or
     * null.
     */
    String awaitHistory(int from, Predicate<String> match, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int next = from;
        while (true) {
            List<String> seen;
            synchronized (history) {
                seen = List.copyOf(history.subList(Math.min(next, history.size()), history.size()));
            }
            for (String line : seen) {
                if (match.test(line)) {
                    return line;
                }
            }
            next += seen.size();
            if (System.nanoTime() >= deadline) {
                return null;
            }
            Thread.sleep(20);
        }
    }

    /** Every accepted write in the store, oldest first. */
    List<FencedFile.Entry> history() {
        return Files.exists(store) ? new FencedFile(store).history() : List.of();
    }

    /** Every output line of every node that is not an event, in arrival order, each prefixed with its node. */
    List<String> output() {
        synchronized (logs) {
            return new ArrayList<>(logs);
        }
    }

    /**
     * For failure messages: every view and start event, the last 20 other events, and the last 60 output
     * lines that are not events (logs, stack traces).
     */
    String logs() {
        StringBuilder out = new StringBuilder("events (views, starts, and the last 20 others):\n");
        List<Event> all = events();
        for (int i = 0; i < all.size(); i++) {
            Event e = all.get(i);
            if (e.kind().equals("VIEW") || e.kind().startsWith("START") || i >= all.size() - 20) {
                out.append("  ").append(e).append('\n');
            }
        }
        out.append("output:\n");
        synchronized (logs) {
            int from = Math.max(0, logs.size() - 60);
            out.append(String.join("\n", logs.subList(from, logs.size())));
        }
        return out.toString();
    }

    /**
     * Ends every JVM still running (kill -9). With the system property {@code dlock.test.realnet-events-dir},
     * first writes every event and the store's history to {@code <dir>/<cluster>.txt}, for a closer look. Then
     * reads what the ended JVMs had written (at most 5 s per JVM). Idempotent.
     */
    @Override
    public void close() {
        String keep = System.getProperty("dlock.test.realnet-events-dir");
        if (keep != null) {
            List<String> lines = new ArrayList<>();
            events().forEach(e -> lines.add(e.toString()));
            history().forEach(h -> lines.add("STORE " + h.token() + " " + h.value()));
            try {
                Files.createDirectories(Path.of(keep));
                Files.write(Path.of(keep, cluster + ".txt"), lines);
            } catch (IOException | RuntimeException e) {
                logs.add("could not keep the events in " + keep + ": " + e);
            }
        }
        destroyAll();
        synchronized (readers) {
            for (Thread reader : readers) {
                try {
                    reader.join(5_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
            // the JVM is shutting down and the hook runs anyway
        }
    }

    /** Kills every JVM still running, paused ones included. */
    private void destroyAll() {
        for (int i = 0; i < size; i++) {
            Process p = processes[i];
            if (p != null && p.isAlive()) {
                try {
                    signal(i + 1, "CONT"); // a paused JVM cannot act on exit
                } catch (IOException e) {
                    // destroyed below anyway
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                p.destroyForcibly();
            }
        }
        for (Process p : processes) {
            if (p != null) {
                try {
                    p.waitFor(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
