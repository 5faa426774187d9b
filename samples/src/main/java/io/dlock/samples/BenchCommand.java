package io.dlock.samples;

import io.dlock.DlockConfig;
import io.dlock.LockMetrics;
import io.dlock.LockService;
import io.dlock.MutexAlgorithm;
import io.dlock.bench.BenchHarness;
import io.dlock.bench.Measurement;
import io.dlock.bench.NodeLock;
import io.dlock.jgroups.JGroupsTransport;
import io.dlock.jgroups.JGroupsTransportFactory;
import io.dlock.spi.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.View;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jgroups.BytesMessage;
import org.jgroups.Message;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dlock bench}: measures every mutual-exclusion algorithm on a real network, in one JVM:
 * <ul>
 *   <li><b>uncontended latency</b>: one thread on node 1 (never the centralized coordinator, which is
 *       the highest id) takes and releases the lock in a loop while nobody else wants it; median and
 *       p99 of lock+unlock, from a sorted array of every sample;</li>
 *   <li><b>contended throughput</b>: every node runs T threads that take and release the lock in a
 *       loop; lock+unlock per second over the whole cluster, messages per entry (from
 *       {@link LockMetrics}, over the measured window only), and fairness between nodes: Jain's index
 *       over the nodes' entry counts (1 = perfectly even) and the longest run of consecutive entries
 *       by one node;</li>
 *   <li><b>the floor</b> (JGroups only), on the same stack: one unicast request-response round trip
 *       (node 1 sends 8 bytes to node 3, which echoes them) and one multicast (node 1 sends 8 bytes to
 *       all, until every other node has received them; the receivers are in this JVM). Every
 *       algorithm's uncontended median is also printed as a multiple of the unicast round trip.</li>
 * </ul>
 * Transports: JGroups over 127.0.0.1 with dlock's default TCP stack (N channels in one JVM), and the
 * real-time in-memory network. Each run warms up for {@code --warmup} seconds before it measures for
 * {@code --seconds}. {@code --baselines} also runs the benchmark-only baselines (JGroups 5.3.24
 * CENTRAL_LOCK2, Curator on an embedded ZooKeeper) in their own JVM and prints their figures as
 * ratios to dlock's centralized and Ricart-Agrawala ones.
 *
 * <p>Every wait is bounded: a lock that is not granted within {@code --lock-timeout} seconds ends the
 * run for that thread and is reported as a failure (exit code 1).
 *
 * <p>The measuring loops are {@link BenchHarness} (module {@code samples/bench-harness}), which the
 * baselines use too, so dlock and the baselines are measured the same way; this command adds the
 * clusters, the message counts (over the harness's measured window) and the output.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measure uncontended latency, contended throughput, messages per entry and fairness of each "
                + "algorithm on JGroups (loopback TCP) and the in-memory network, against the JGroups floor and the baselines.")
final class BenchCommand implements Callable<Integer> {

    /** Transports, in the order they run. */
    static final List<String> TRANSPORTS = List.of("jgroups", "inmemory");

    @Option(names = "--transport", defaultValue = "both",
            description = "jgroups, inmemory or both (default ${DEFAULT-VALUE})")
    String transport;

    @Option(names = "--algorithms", split = ",", paramLabel = "NAME",
            description = "algorithms to measure, comma-separated (default: all)")
    List<String> algorithms;

    @Option(names = "--nodes", split = ",", defaultValue = "3,5",
            description = "cluster sizes of the contended runs (default ${DEFAULT-VALUE}); the uncontended run uses the first")
    List<Integer> nodes;

    @Option(names = "--threads", split = ",", defaultValue = "1,4",
            description = "threads per node of the contended runs (default ${DEFAULT-VALUE})")
    List<Integer> threads;

    @Option(names = "--handoff", split = ",", defaultValue = "0",
            description = "dlock.lock.local-handoff values to measure, e.g. 0,4,16 (default ${DEFAULT-VALUE})")
    List<Integer> handoffs;

    @Option(names = "--seconds", defaultValue = "1", description = "measured seconds per run (default ${DEFAULT-VALUE})")
    double seconds;

    @Option(names = "--warmup", defaultValue = "0.5",
            description = "warm-up seconds before each measured run (default ${DEFAULT-VALUE})")
    double warmup;

    @Option(names = "--lock-timeout", defaultValue = "30",
            description = "seconds a single lock() may take before the run counts it as a failure (default ${DEFAULT-VALUE})")
    int lockTimeout;

    @Option(names = "--no-floor", negatable = false, description = "skip the JGroups round-trip and multicast floor")
    boolean noFloor;

    @Option(names = "--no-uncontended", negatable = false, description = "skip the uncontended latency runs")
    boolean noUncontended;

    @Option(names = "--port", defaultValue = "24000",
            description = "first TCP port of the JGroups clusters; each takes a block of nodes+4 (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--baselines", negatable = false,
            description = "also run the baselines jar (build it with mvn -Pbaselines package) and print ratios")
    boolean baselines;

    @Option(names = "--baselines-jar", defaultValue = "samples/baselines/target/dlock-baselines.jar",
            description = "the baselines jar (default ${DEFAULT-VALUE})")
    Path baselinesJar;

    @Option(names = "--format", defaultValue = "text", description = "text or json (default ${DEFAULT-VALUE})")
    String format;

    /**
     * One measured figure set. Unused fields are NaN (JSON null): latency rows have no throughput,
     * throughput rows no latency.
     *
     * @param system     dlock, jgroups (the floor), or a baseline's name
     * @param transport  jgroups or inmemory (baselines: what they run on)
     * @param algorithm  algorithm, floor measure, or baseline lock
     * @param kind       uncontended, contended, or floor
     * @param nodes      cluster size
     * @param threads    threads per node
     * @param handoff    dlock.lock.local-handoff
     * @param samples    lock+unlock operations measured
     * @param medianUs   median latency, microseconds
     * @param p99Us      99th percentile latency, microseconds
     * @param opsPerSec  lock+unlock per second, whole cluster
     * @param msgsPerEntry messages sent per critical-section entry
     * @param jain       Jain's fairness index over the nodes' entries
     * @param maxRun     longest run of consecutive entries by one node
     * @param failures   lock attempts that timed out
     */
    record Row(String system, String transport, String algorithm, String kind, int nodes, int threads, int handoff,
               long samples, double medianUs, double p99Us, double opsPerSec, double msgsPerEntry, double jain,
               long maxRun, long failures) {
    }

    private final AtomicInteger nextPort = new AtomicInteger();

    @Override
    public Integer call() throws Exception {
        // hundreds of joins and leaves: keep the log to warnings unless asked otherwise
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        if (System.getProperty("org.slf4j.simpleLogger.log.org.jgroups") == null) {
            // closing channels in quick succession makes JGroups warn about closed streams
            System.setProperty("org.slf4j.simpleLogger.log.org.jgroups", "error");
        }
        String error = validate();
        if (error != null) {
            System.err.println(error);
            return 2;
        }
        List<MutexAlgorithm> chosen;
        try {
            chosen = algorithms == null ? List.of(MutexAlgorithm.values())
                    : algorithms.stream().map(a -> MutexAlgorithm.fromConfigName(a.trim())).toList();
        } catch (IllegalArgumentException e) {
            System.err.println("--algorithms: " + e.getMessage());
            return 2;
        }
        nextPort.set(port);
        PrintStream out = System.out;
        List<Row> rows = new ArrayList<>();
        long start = System.nanoTime();
        for (String t : transport.equals("both") ? TRANSPORTS : List.of(transport)) {
            if (t.equals("jgroups") && !noFloor) {
                rows.addAll(floor());
            }
            for (MutexAlgorithm a : chosen) {
                for (int h : handoffs) {
                    for (int i = 0; i < nodes.size(); i++) {
                        rows.addAll(measure(t, a, nodes.get(i), h, i == 0 && !noUncontended));
                    }
                }
            }
        }
        if (baselines) {
            rows.addAll(runBaselines());
        }
        double took = (System.nanoTime() - start) / 1e9;
        out.print(format.equals("json") ? json(rows) : text(rows, took));
        return rows.stream().anyMatch(r -> r.failures > 0) ? 1 : 0;
    }

    /** An error message for bad options, or null. */
    String validate() {
        if (!transport.equals("both") && !TRANSPORTS.contains(transport)) {
            return "--transport must be jgroups, inmemory or both, got " + transport;
        }
        if (!format.equals("text") && !format.equals("json")) {
            return "--format must be text or json, got " + format;
        }
        if (nodes.isEmpty() || nodes.stream().anyMatch(n -> n < 2 || n > 64)) {
            return "--nodes must be cluster sizes between 2 and 64, got " + nodes;
        }
        if (threads.isEmpty() || threads.stream().anyMatch(n -> n < 1 || n > 64)) {
            return "--threads must be between 1 and 64 per node, got " + threads;
        }
        if (handoffs.isEmpty() || handoffs.stream().anyMatch(h -> h < 0 || h > DlockConfig.MAX_LOCAL_HANDOFF)) {
            return "--handoff must be between 0 and " + DlockConfig.MAX_LOCAL_HANDOFF + ", got " + handoffs;
        }
        if (!(seconds > 0 && seconds <= 3600)) {
            return "--seconds must be > 0 and <= 3600, got " + seconds;
        }
        if (!(warmup >= 0 && warmup <= 3600)) {
            return "--warmup must be between 0 and 3600, got " + warmup;
        }
        if (lockTimeout < 1) {
            return "--lock-timeout must be at least 1 second, got " + lockTimeout;
        }
        if (port < 1024 || port > 60_000) {
            return "--port must be between 1024 and 60000, got " + port;
        }
        return null;
    }

    // ---- clusters ----

    private DlockConfig.Builder template(String t, MutexAlgorithm a, int n, int handoff) {
        DlockConfig.Builder b = DlockConfig.builder().transport(t).mutex(a).localHandoff(handoff)
                .cluster("bench-" + UUID.randomUUID());
        if (t.equals("jgroups")) {
            b.set(JGroupsTransportFactory.STACK, "default").set(JGroupsTransportFactory.BIND_ADDR, "127.0.0.1")
                    .set(JGroupsTransportFactory.PORT, Integer.toString(nextPort.getAndAdd(n + 4)))
                    .set(JGroupsTransportFactory.PORT_RANGE, Integer.toString(n + 2));
        }
        return b;
    }

    /** Starts n nodes with ids 1..n and waits (bounded) until all see the same full view. */
    private List<LockService> start(String t, MutexAlgorithm a, int n, int handoff) throws InterruptedException {
        DlockConfig.Builder b = template(t, a, n, handoff);
        List<LockService> services = new ArrayList<>();
        try {
            for (int id = 1; id <= n; id++) {
                services.add(LockService.start(b.nodeId(id).build()));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!(services.stream().allMatch(s -> s.view().size() == n)
                    && services.stream().map(s -> s.view().epoch()).distinct().count() == 1)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(t + " cluster of " + n + " did not form within 60 s");
                }
                Thread.sleep(10);
            }
            return services;
        } catch (RuntimeException | InterruptedException e) {
            close(services);
            throw e;
        }
    }

    /** Closes the nodes in parallel (a JGroups leave takes up to a second each), waiting 30 s at most. */
    private static void close(List<LockService> services) throws InterruptedException {
        List<Thread> closers = new ArrayList<>();
        for (LockService s : services) {
            Thread c = new Thread(s::close, "bench-close-" + s.nodeId());
            c.setDaemon(true);
            c.start();
            closers.add(c);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (Thread c : closers) {
            c.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
    }

    /** Uncontended (if asked) and contended runs of one algorithm on one cluster of n nodes. */
    private List<Row> measure(String t, MutexAlgorithm a, int n, int handoff, boolean uncontended) throws Exception {
        List<Row> rows = new ArrayList<>();
        List<LockService> services = start(t, a, n, handoff);
        try {
            if (uncontended) {
                rows.add(uncontended(t, a, services, handoff));
            }
            for (int th : threads) {
                rows.add(contended(t, a, services, th, handoff));
            }
        } finally {
            close(services);
        }
        return rows;
    }

    private BenchHarness harness() {
        return new BenchHarness(warmup, seconds, lockTimeout);
    }

    private Row uncontended(String t, MutexAlgorithm a, List<LockService> services, int handoff) throws Exception {
        MessageWindow sent = new MessageWindow(services, "uncontended");
        Measurement m = harness().uncontended(NodeLock.of(services.get(0).lock("uncontended")), sent);
        return new Row("dlock", t, a.configName(), "uncontended", services.size(), 1, handoff, m.count(), m.p50Us(),
                m.p99Us(), m.opsPerSec(), sent.perEntry(m.count()), Double.NaN, 0, m.failures());
    }

    private Row contended(String t, MutexAlgorithm a, List<LockService> services, int perNode, int handoff)
            throws Exception {
        String name = "contended-" + perNode;
        List<NodeLock> locks = new ArrayList<>();
        for (LockService s : services) {
            locks.add(NodeLock.of(s.lock(name)));
        }
        MessageWindow sent = new MessageWindow(services, name);
        Measurement m = harness().contended(locks, perNode, sent);
        return new Row("dlock", t, a.configName(), "contended", services.size(), perNode, handoff, m.count(),
                Double.NaN, Double.NaN, m.opsPerSec(), sent.perEntry(m.count()), m.jain(), m.maxRun(), m.failures());
    }

    /** Counts the messages the nodes sent for one lock while the harness's measured window was open. */
    private static final class MessageWindow implements BenchHarness.Window {
        private final List<LockService> services;
        private final String name;
        private long before;
        private long sent;

        MessageWindow(List<LockService> services, String name) {
            this.services = services;
            this.name = name;
        }

        @Override
        public void opened() {
            before = messages(services, name);
        }

        @Override
        public void closed() {
            sent = messages(services, name) - before;
        }

        /** Messages per entry inside the window; NaN without entries. */
        double perEntry(long entries) {
            return entries == 0 ? Double.NaN : (double) sent / entries;
        }
    }

    /** Messages sent for lock {@code name}, summed over the nodes. */
    private static long messages(List<LockService> services, String name) {
        long sum = 0;
        for (LockService s : services) {
            sum += s.lock(name).metrics().messagesSent();
        }
        return sum;
    }

    // ---- the floor ----

    /** Unicast round trip node 1 -> node 3 -> node 1, and multicast from node 1 until all others have it. */
    private List<Row> floor() throws Exception {
        int n = 3;
        DlockConfig.Builder b = template("jgroups", MutexAlgorithm.CENTRALIZED, n, 0);
        Semaphore echoes = new Semaphore(0);
        Semaphore multicastReceived = new Semaphore(0);
        List<JGroupsTransport> transports = new ArrayList<>();
        byte unicast = 1;
        byte multicast = 2;
        try {
            for (int id = 1; id <= n; id++) {
                JGroupsTransport tr = JGroupsTransportFactory.create(b.nodeId(id).build(), true);
                boolean client = id == 1;
                tr.start(new Transport.Receiver() {
                    @Override
                    public void onMessage(NodeId from, byte[] payload) {
                        if (payload.length > 0 && payload[0] == multicast) {
                            multicastReceived.release();
                        } else if (!client) {
                            tr.send(from, payload);
                        } else {
                            echoes.release();
                        }
                    }

                    @Override
                    public void onView(View view) {
                    }
                });
                transports.add(tr);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (transports.stream().anyMatch(tr -> tr.view() == null || tr.view().size() < n)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("floor cluster did not form within 60 s");
                }
                Thread.sleep(10);
            }
            JGroupsTransport client = transports.get(0);
            NodeId server = NodeId.of(n);
            byte[] ping = new byte[8];
            ping[0] = unicast;
            BenchHarness harness = harness();
            Measurement rtt = harness.latency(() -> {
                client.send(server, ping);
                return echoes.tryAcquire(lockTimeout, TimeUnit.SECONDS);
            }, BenchHarness.Window.NONE);
            byte[] all = new byte[8];
            all[0] = multicast;
            Measurement mc = harness.latency(() -> {
                Message m = new BytesMessage(null, all).setFlag(Message.Flag.DONT_BUNDLE)
                        .setFlag(Message.TransientFlag.DONT_LOOPBACK);
                client.channel().send(m);
                return multicastReceived.tryAcquire(n - 1, lockTimeout, TimeUnit.SECONDS);
            }, BenchHarness.Window.NONE);
            long failures = rtt.failures() + mc.failures();
            return List.of(floorRow("unicast-rtt", rtt, failures), floorRow("multicast", mc, failures));
        } finally {
            transports.forEach(JGroupsTransport::close);
        }
    }

    private static Row floorRow(String what, Measurement m, long failures) {
        return new Row("jgroups", "jgroups", what, "floor", 3, 1, 0, m.count(), m.p50Us(), m.p99Us(), m.opsPerSec(), 2,
                Double.NaN, 0, failures);
    }

    // ---- baselines ----

    private static final Pattern FIELD = Pattern.compile("\"(\\w+)\": (\"[^\"]*\"|[-0-9.eE]+|null)");

    /** Runs the baselines jar in its own JVM (bounded) and reads its JSON rows. */
    private List<Row> runBaselines() throws IOException, InterruptedException {
        if (!Files.isRegularFile(baselinesJar)) {
            throw new IllegalStateException("--baselines: no jar at " + baselinesJar.toAbsolutePath()
                    + "; build it with mvn -B -Pbaselines -pl samples/baselines package");
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Row> rows = new ArrayList<>();
        for (String which : List.of("central-lock2", "curator", "curator-nosync")) {
            List<String> cmd = List.of(java, "-jar", baselinesJar.toString(), which, "--seconds", Double.toString(seconds),
                    "--warmup", Double.toString(warmup), "--port", Integer.toString(nextPort.getAndAdd(20)),
                    "--threads", String.join(",", threads.stream().map(String::valueOf).toList()));
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            List<String> lines = new ArrayList<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line = r.readLine(); line != null; line = r.readLine()) {
                        synchronized (lines) {
                            lines.add(line);
                        }
                    }
                } catch (IOException e) {
                    // the process ended
                }
            });
            reader.start();
            try {
                if (!p.waitFor(600, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("baseline " + which + " did not finish within 600 s");
                }
                reader.join(10_000);
            } finally {
                p.destroyForcibly();
            }
            synchronized (lines) {
                for (String line : lines) {
                    parseRow(line).ifPresent(rows::add);
                }
            }
        }
        return rows;
    }

    /** A row from one line of the baselines' JSON (one object per line), if the line holds one. */
    static Optional<Row> parseRow(String line) {
        Map<String, String> f = new LinkedHashMap<>();
        Matcher m = FIELD.matcher(line);
        while (m.find()) {
            String v = m.group(2);
            f.put(m.group(1), v.startsWith("\"") ? v.substring(1, v.length() - 1) : v);
        }
        if (!f.containsKey("system") || !f.containsKey("kind")) {
            return Optional.empty();
        }
        return Optional.of(new Row(f.get("system"), f.getOrDefault("transport", "?"), f.getOrDefault("algorithm", "?"),
                f.get("kind"), (int) num(f, "nodes"), (int) num(f, "threads"), 0, (long) num(f, "samples"),
                num(f, "medianUs"), num(f, "p99Us"), num(f, "opsPerSec"), num(f, "msgsPerEntry"), num(f, "jain"),
                (long) num(f, "maxRun"), (long) num(f, "failures")));
    }

    private static double num(Map<String, String> f, String key) {
        String v = f.get(key);
        return v == null || v.equals("null") ? Double.NaN : Double.parseDouble(v);
    }

    // ---- output ----

    private static String f(double v, String pattern) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, pattern, v);
    }

    private static Optional<Row> find(List<Row> rows, String system, String transport, String algorithm, String kind,
                                      int nodes, int threads) {
        return rows.stream().filter(r -> r.system.equals(system) && r.transport.equals(transport)
                && r.algorithm.equals(algorithm) && r.kind.equals(kind) && r.nodes == nodes && r.threads == threads
                && r.handoff == 0).findFirst();
    }

    String text(List<Row> rows, double took) {
        StringBuilder sb = new StringBuilder();
        Optional<Row> rtt = rows.stream().filter(r -> r.kind.equals("floor") && r.algorithm.equals("unicast-rtt")).findFirst();
        List<Row> floor = rows.stream().filter(r -> r.kind.equals("floor")).toList();
        if (!floor.isEmpty()) {
            sb.append("The floor: JGroups, default TCP stack on 127.0.0.1, 3 channels in this JVM, DONT_BUNDLE\n");
            sb.append(String.format(Locale.ROOT, "%-14s %10s %10s %9s%n", "measure", "median us", "p99 us", "samples"));
            for (Row r : floor) {
                sb.append(String.format(Locale.ROOT, "%-14s %10s %10s %9d%n", r.algorithm, f(r.medianUs, "%.1f"),
                        f(r.p99Us, "%.1f"), r.samples));
            }
            sb.append('\n');
        }
        List<Row> unc = rows.stream().filter(r -> r.system.equals("dlock") && r.kind.equals("uncontended")).toList();
        if (!unc.isEmpty()) {
            sb.append("Uncontended lock+unlock, one thread on node 1, nobody else asks\n");
            sb.append(String.format(Locale.ROOT, "%-9s %-16s %5s %7s %10s %10s %10s %9s%n", "transport", "algorithm",
                    "nodes", "handoff", "median us", "p99 us", "x rtt", "msgs/op"));
            for (Row r : unc) {
                double ratio = rtt.isPresent() && r.transport.equals("jgroups") ? r.medianUs / rtt.get().medianUs : Double.NaN;
                sb.append(String.format(Locale.ROOT, "%-9s %-16s %5d %7d %10s %10s %10s %9s%n", r.transport, r.algorithm,
                        r.nodes, r.handoff, f(r.medianUs, "%.1f"), f(r.p99Us, "%.1f"), f(ratio, "%.2f"),
                        f(r.msgsPerEntry, "%.2f")));
            }
            sb.append('\n');
        }
        List<Row> con = rows.stream().filter(r -> r.system.equals("dlock") && r.kind.equals("contended")).toList();
        if (!con.isEmpty()) {
            sb.append("Contended: every node runs T threads taking the lock in a loop (throughput of the whole cluster)\n");
            sb.append(String.format(Locale.ROOT, "%-9s %-16s %5s %3s %7s %10s %10s %6s %7s %8s%n", "transport",
                    "algorithm", "nodes", "T", "handoff", "ops/s", "msgs/entry", "jain", "maxRun", "failures"));
            for (Row r : con) {
                sb.append(String.format(Locale.ROOT, "%-9s %-16s %5d %3d %7d %10s %10s %6s %7d %8d%n", r.transport,
                        r.algorithm, r.nodes, r.threads, r.handoff, f(r.opsPerSec, "%.0f"), f(r.msgsPerEntry, "%.2f"),
                        f(r.jain, "%.3f"), r.maxRun, r.failures));
            }
            sb.append('\n');
        }
        List<Row> base = rows.stream().filter(r -> !r.system.equals("dlock") && !r.kind.equals("floor")).toList();
        if (!base.isEmpty()) {
            sb.append("Baselines (own JVM) and their ratio to dlock on JGroups: latency ratio = baseline / dlock "
                    + "(> 1: dlock faster); throughput ratio = baseline / dlock (< 1: dlock faster)\n");
            sb.append(String.format(Locale.ROOT, "%-14s %-12s %5s %3s %10s %10s %10s %12s %12s%n", "baseline", "kind",
                    "nodes", "T", "median us", "p99 us", "ops/s", "/centralized", "/ricart-agr."));
            for (Row r : base) {
                String[] ratios = new String[2];
                String[] against = {MutexAlgorithm.CENTRALIZED.configName(), MutexAlgorithm.RICART_AGRAWALA.configName()};
                for (int i = 0; i < 2; i++) {
                    String dlockAlgorithm = against[i];
                    Optional<Row> d = r.kind.equals("uncontended")
                            ? rows.stream().filter(x -> x.system.equals("dlock") && x.transport.equals("jgroups")
                                    && x.algorithm.equals(dlockAlgorithm) && x.kind.equals("uncontended") && x.handoff == 0)
                                    .findFirst()
                            : find(rows, "dlock", "jgroups", dlockAlgorithm, "contended", r.nodes, r.threads);
                    ratios[i] = d.map(x -> r.kind.equals("uncontended") ? f(r.medianUs / x.medianUs, "%.2f")
                            : f(r.opsPerSec / x.opsPerSec, "%.2f")).orElse("-");
                }
                sb.append(String.format(Locale.ROOT, "%-14s %-12s %5d %3d %10s %10s %10s %12s %12s%n", r.system, r.kind,
                        r.nodes, r.threads, f(r.medianUs, "%.1f"), f(r.p99Us, "%.1f"), f(r.opsPerSec, "%.0f"),
                        ratios[0], ratios[1]));
            }
            sb.append('\n');
        }
        sb.append(String.format(Locale.ROOT, "x rtt: median / unicast round-trip median. msgs/entry: messages sent "
                + "(all nodes) / entries, measured window only.%njain: Jain's index over the nodes' entries (1 = even). "
                + "maxRun: longest run of consecutive entries by one node.%nwarm-up %.1f s, measured %.1f s per run; "
                + "total %.0f s.%n", warmup, seconds, took));
        return sb.toString();
    }

    static String json(List<Row> rows) {
        StringBuilder sb = new StringBuilder("[\n");
        for (int i = 0; i < rows.size(); i++) {
            sb.append("  ").append(json(rows.get(i))).append(i + 1 < rows.size() ? ",\n" : "\n");
        }
        return sb.append("]\n").toString();
    }

    /** One row as a one-line JSON object (the baselines print the same shape). */
    static String json(Row r) {
        return String.format(Locale.ROOT, "{\"system\": \"%s\", \"transport\": \"%s\", \"algorithm\": \"%s\", "
                        + "\"kind\": \"%s\", \"nodes\": %d, \"threads\": %d, \"handoff\": %d, \"samples\": %d, "
                        + "\"medianUs\": %s, \"p99Us\": %s, \"opsPerSec\": %s, \"msgsPerEntry\": %s, \"jain\": %s, "
                        + "\"maxRun\": %d, \"failures\": %d}",
                r.system, r.transport, r.algorithm, r.kind, r.nodes, r.threads, r.handoff, r.samples, num(r.medianUs),
                num(r.p99Us), num(r.opsPerSec), num(r.msgsPerEntry), num(r.jain), r.maxRun, r.failures);
    }

    private static String num(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "null" : String.format(Locale.ROOT, "%.3f", v);
    }
}
