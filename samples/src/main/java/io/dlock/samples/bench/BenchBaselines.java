package io.dlock.samples.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The peers of {@code dlock bench --baselines}, the locks users would pick instead of dlock: runs the baselines jar
 * ({@code samples/baselines}, built with {@code -Pbaselines}) in a JVM of its own per peer and round, each bounded to
 * 600 s, on the same workloads as dlock's (uncontended, contended per {@code --threads}, per-key per {@code --per-key}
 * and {@code --threads}) at the smallest {@code --nodes}, and reads the {@link BenchRow}s it prints, one JSON object
 * per line. A peer whose server is not installed prints one line, {@link #SKIPPED} and why, instead; those lines are
 * kept (once each) for the report. The peers' standard error goes to ours.
 */
final class BenchBaselines {

    /** The line a peer that cannot run prints instead of its rows (the jar's {@code Baselines.SKIPPED}). */
    static final String SKIPPED = "# skipped ";

    /** The TCP ports reserved for each peer's run from its first (the jar's {@code Peer.PORTS}). */
    static final int PORTS_PER_PEER = 20;

    private final BenchOptions options;
    private final BenchPorts ports;
    private final List<String> peers;
    private final Set<String> skipped = new LinkedHashSet<>();

    private BenchBaselines(BenchOptions options, BenchPorts ports, List<String> peers) {
        this.options = options;
        this.ports = ports;
        this.peers = peers;
    }

    /**
     * The peers of this run: asks the jar which it has ({@code --list}), keeps those of {@code --peers}.
     *
     * @throws picocli.CommandLine.ParameterException for a peer of {@code --peers} the jar does not have
     */
    static BenchBaselines of(BenchOptions options, BenchPorts ports) throws IOException, InterruptedException {
        List<String> known = output(options, List.of("--list"), "--list").stream().map(String::trim)
                .filter(l -> !l.isEmpty()).toList();
        if (known.isEmpty()) {
            throw new IllegalStateException(options.baselinesJar + " --list named no peer; rebuild it with "
                    + "mvn -B -Pbaselines -pl samples/baselines -am package");
        }
        return new BenchBaselines(options, ports, options.peers(known));
    }

    /** The peers this run measures, in order. */
    List<String> peers() {
        return peers;
    }

    /** Every peer's rows of one round, in peer order, marked with the round. */
    List<BenchRow> run(int round) throws IOException, InterruptedException {
        List<BenchRow> rows = new ArrayList<>();
        for (String peer : peers) {
            for (String line : output(options, arguments(peer), peer)) {
                if (line.startsWith(SKIPPED)) {
                    skipped.add(line.substring(SKIPPED.length()));
                } else {
                    BenchRow.parse(line).ifPresent(r -> rows.add(r.inRound(round)));
                }
            }
        }
        return rows;
    }

    /** The peers skipped, each once: "name: why, and how to install its server". */
    List<String> skipped() {
        return List.copyOf(skipped);
    }

    private List<String> arguments(String peer) {
        List<String> args = new ArrayList<>(List.of(peer, "--nodes", Integer.toString(options.nodes.counts().get(0)),
                "--seconds", Double.toString(options.seconds), "--warmup", Double.toString(options.warmup),
                "--warm-passes", Integer.toString(options.warmPasses),
                "--lock-timeout", Integer.toString(options.lockTimeout),
                "--port", Integer.toString(ports.reserve(PORTS_PER_PEER)),
                "--threads", String.join(",", options.threads.stream().map(String::valueOf).toList())));
        if (!options.perKeys().isEmpty()) {
            args.addAll(List.of("--per-key", String.join(",", options.perKeys().stream().map(String::valueOf).toList())));
        }
        return args;
    }

    /** The standard output lines of the jar run with {@code args} in a JVM of its own. */
    private static List<String> output(BenchOptions options, List<String> args, String what)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-jar", options.baselinesJar.toString()));
        cmd.addAll(args);
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
                throw new IllegalStateException("baseline " + what + " did not finish within 600 s");
            }
            reader.join(10_000);
        } finally {
            p.destroyForcibly();
        }
        synchronized (lines) {
            return new ArrayList<>(lines);
        }
    }
}
