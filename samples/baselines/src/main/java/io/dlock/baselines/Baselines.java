package io.dlock.baselines;

import io.dlock.bench.BenchHarness;
import io.dlock.bench.PeerProtocol;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The baselines' entry point, run in its own JVM per peer by {@code dlock bench --baselines}, or by hand:
 * {@code java -jar samples/baselines/target/dlock-baselines.jar PEER [--nodes 3] [--threads 1,4] [--per-key 1000]
 * [--seconds 1] [--warmup 0.5] [--warm-passes 0] [--port 24500] [--lock-timeout 30] [--serve]}, PEER one of
 * {@link Peers#names()} (which {@code --list} prints, one a line). Starts the peer's cluster on 127.0.0.1, runs
 * {@code dlock bench}'s workloads on it ({@link PeerWorkloads}), first {@code --warm-passes} times unmeasured on other
 * names (as {@code dlock bench} runs whole rounds unmeasured before it measures dlock), and prints one JSON row per
 * measured run, in the shape of {@code dlock bench --format json}. A peer whose server is not installed prints one line
 * {@code # skipped PEER: why, and how to install it} instead, and exits 0: the bench goes on with the others.
 *
 * <p>With {@code --serve}, the cluster stays up after the unmeasured passes and runs the workloads that standard input
 * asks for, one line each ({@link PeerServer}): how {@code dlock bench --baselines} pairs each of dlock's runs with the
 * peer's run of the same workload right after it.
 */
public final class Baselines {

    /** The most unmeasured passes of {@code --warm-passes} (as {@code dlock bench} allows). */
    static final int MAX_WARM_PASSES = 5;

    private Baselines() {
    }

    /** Runs one peer; exit code 0 (also when skipped), 1 if a lock attempt failed or timed out, 2 for bad arguments. */
    public static void main(String[] args) throws Exception {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        for (String noisy : List.of("org.apache.curator", "com.hazelcast")) {
            // their start and stop in quick succession warn about what is expected then (leaving peers, closed sockets)
            System.getProperties().putIfAbsent("org.slf4j.simpleLogger.log." + noisy, "error");
        }
        // a ZooKeeper ensemble closing logs every follower's closed connection as an error, with its stack trace; a
        // failure while measuring shows as the run's failures instead
        System.getProperties().putIfAbsent("org.slf4j.simpleLogger.log.org.apache.zookeeper", "off");
        if (args.length == 1 && args[0].equals("--list")) {
            Peers.names().forEach(System.out::println);
            return;
        }
        Optional<Peer> peer = args.length == 0 ? Optional.empty() : Peers.named(args[0]);
        if (peer.isEmpty()) {
            usage(args.length == 0 ? "no peer given" : "unknown peer " + args[0]);
        }
        int nodes = 3;
        List<Integer> threads = List.of(1, 4);
        List<Integer> perKeys = List.of();
        double seconds = 1;
        double warmup = 0.5;
        int warmPasses = 0;
        int port = 24_500;
        long lockTimeout = 30;
        boolean serve = false;
        for (int i = 1; i < args.length; i += 2) {
            if (args[i].equals("--serve")) {
                serve = true;
                i--;
                continue;
            }
            if (i + 1 >= args.length) {
                usage("option " + args[i] + " needs a value");
            }
            String v = args[i + 1];
            switch (args[i]) {
                case "--nodes" -> nodes = Integer.parseInt(v);
                case "--threads" -> threads = integers(v);
                case "--per-key" -> perKeys = v.isBlank() ? List.of() : integers(v);
                case "--seconds" -> seconds = Double.parseDouble(v);
                case "--warmup" -> warmup = Double.parseDouble(v);
                case "--warm-passes" -> warmPasses = Integer.parseInt(v);
                case "--port" -> port = Integer.parseInt(v);
                case "--lock-timeout" -> lockTimeout = Long.parseLong(v);
                default -> usage("unknown option " + args[i]);
            }
        }
        if (nodes < 2 || nodes > 16 || seconds <= 0 || warmup < 0 || warmPasses < 0 || warmPasses > MAX_WARM_PASSES
                || port < 1024 || port > 65_535 - Peer.PORTS
                || threads.stream().anyMatch(t -> t < 1 || t > 64) || perKeys.stream().anyMatch(k -> k < 1)) {
            usage("out of range: --nodes 2..16, --threads 1..64, --per-key >= 1, --seconds > 0, --warmup >= 0, "
                    + "--warm-passes 0.." + MAX_WARM_PASSES + ", --port 1024.." + (65_535 - Peer.PORTS));
        }
        Optional<String> unavailable = peer.get().unavailable();
        if (unavailable.isPresent()) {
            System.out.println(PeerProtocol.SKIPPED + peer.get().name() + ": " + unavailable.get());
            System.out.flush();
            System.exit(0);
        }
        List<String> rows;
        BenchHarness harness = new BenchHarness(warmup, seconds, lockTimeout);
        try (PeerCluster cluster = peer.get().start(nodes, port)) {
            for (int pass = 1; pass <= warmPasses; pass++) {
                // unmeasured: the JIT compiles what the measured pass runs; its rows are dropped
                new PeerWorkloads(peer.get(), cluster, harness, nodes, "warm-" + pass + "-").run(threads, perKeys);
            }
            if (serve) {
                boolean clean = new PeerServer(peer.get(), cluster, harness, nodes)
                        .serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), System.out);
                cluster.close();
                System.exit(clean ? 0 : 1);
            }
            rows = new PeerWorkloads(peer.get(), cluster, harness, nodes, "").run(threads, perKeys);
        }
        rows.forEach(System.out::println);
        System.out.flush();
        System.exit(rows.stream().anyMatch(r -> !r.contains("\"failures\": 0,")) ? 1 : 0);
    }

    private static List<Integer> integers(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).map(Integer::valueOf).toList();
    }

    private static void usage(String problem) {
        System.err.println(problem + "\nusage: " + String.join("|", Peers.names()) + " [--nodes N] [--threads 1,4] "
                + "[--per-key K,...] [--seconds S] [--warmup S] [--warm-passes N] [--port P] [--lock-timeout S] [--serve]\n"
                + "   or: --list");
        System.exit(2);
    }
}
