package io.dlock.samples.bench;

import io.dlock.bench.PeerProtocol;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The peers of {@code dlock bench --baselines}, the locks users would pick instead of dlock: runs the baselines jar
 * ({@code samples/baselines}, built with {@code -Pbaselines}) in a JVM of its own per peer and round, which keeps the
 * peer's cluster up at the smallest {@code --nodes} and runs one workload at a time when asked ({@link PeerSession}),
 * so that {@link BenchPairs} can run it right after dlock's run of the same workload. A peer whose server is not
 * installed prints one line, {@link PeerProtocol#SKIPPED} and why, instead; those lines are kept (once each) for the report. The
 * peers' standard error goes to ours.
 */
final class BenchBaselines {

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
        List<String> known = JarLines.all(JarLines.javaJar(options.baselinesJar.toString(), List.of("--list")),
                        "--list", 600).stream().map(String::trim).filter(l -> !l.isEmpty()).toList();
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

    /**
     * Starts {@code peer}'s cluster in the jar's JVM, kept up to run the workloads asked of it ({@code --serve}), the
     * same unmeasured passes first as the whole-run mode.
     *
     * @return the session; empty if the peer's server is not installed (it is then among {@link #skipped()})
     */
    Optional<PeerSession> open(String peer) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(arguments(peer));
        args.add("--serve");
        List<String> cmd = JarLines.javaJar(options.baselinesJar.toString(), args);
        // one workload: its warm-up and measured window, a lock that times out, the cluster's own pauses
        long answer = (long) Math.ceil(options.warmup + options.seconds) + options.lockTimeout + 60;
        PeerSession.Started started = PeerSession.start(peer, cmd, answer);
        started.skipped().ifPresent(skipped::add);
        return started.session();
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
}
