package io.dlock.baselines;

import io.dlock.bench.BenchHarness;
import io.dlock.bench.Measurement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The baselines' entry point, run in its own JVM by {@code dlock bench --baselines} or by hand:
 * {@code java -jar samples/baselines/target/dlock-baselines.jar central-lock2|curator|curator-nosync [--nodes 3]
 * [--threads 1,4] [--seconds 1] [--warmup 0.5] [--port 24500]}. Prints one JSON row per line
 * (uncontended, then contended per thread count), in the shape of {@code dlock bench --format json}.
 * The measuring loops are {@code dlock bench}'s own ({@link BenchHarness}), so both measure alike.
 */
public final class Baselines {

    private Baselines() {
    }

    /** Runs one baseline; exit code 0, 1 if a lock attempt timed out, 2 for bad arguments. */
    public static void main(String[] args) throws Exception {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        if (args.length == 0 || !List.of("central-lock2", "curator", "curator-nosync").contains(args[0])) {
            System.err.println("usage: central-lock2|curator|curator-nosync [--nodes N] [--threads 1,4] [--seconds S] [--warmup S] "
                    + "[--port P] [--lock-timeout S]");
            System.exit(2);
        }
        int nodes = 3;
        List<Integer> threads = List.of(1, 4);
        double seconds = 1;
        double warmup = 0.5;
        int port = 24_500;
        long lockTimeout = 30;
        for (int i = 1; i + 1 < args.length; i += 2) {
            String v = args[i + 1];
            switch (args[i]) {
                case "--nodes" -> nodes = Integer.parseInt(v);
                case "--threads" -> threads = Arrays.stream(v.split(",")).map(String::trim).map(Integer::valueOf).toList();
                case "--seconds" -> seconds = Double.parseDouble(v);
                case "--warmup" -> warmup = Double.parseDouble(v);
                case "--port" -> port = Integer.parseInt(v);
                case "--lock-timeout" -> lockTimeout = Long.parseLong(v);
                default -> {
                    System.err.println("unknown option " + args[i]);
                    System.exit(2);
                }
            }
        }
        if (nodes < 2 || nodes > 16 || seconds <= 0 || warmup < 0 || threads.stream().anyMatch(t -> t < 1 || t > 64)) {
            System.err.println("--nodes 2..16, --threads 1..64, --seconds > 0, --warmup >= 0");
            System.exit(2);
        }
        BenchHarness harness = new BenchHarness(warmup, seconds, lockTimeout);
        List<String> rows = new ArrayList<>();
        if (args[0].equals("central-lock2")) {
            CentralLock2Baseline.run(harness, nodes, threads, port, rows);
        } else {
            if (args[0].equals("curator-nosync")) {
                // ZooKeeper without an fsync of its transaction log per write: what a RAM-only deployment costs
                System.setProperty("zookeeper.forceSync", "no");
            }
            CuratorBaseline.run(harness, args[0], nodes, threads, rows);
        }
        rows.forEach(System.out::println);
        System.out.flush();
        System.exit(rows.stream().anyMatch(r -> !r.contains("\"failures\": 0,")) ? 1 : 0);
    }

    /**
     * One JSON row of a measurement, in the shape of {@code dlock bench --format json} (which parses it
     * back: {@code BenchCommand.parseRow}); a baseline has no hand-off and no message count.
     */
    static String row(String system, String transport, String algorithm, String kind, int nodes, int threads,
                      Measurement m) {
        return String.format(Locale.ROOT, "{\"system\": \"%s\", \"transport\": \"%s\", \"algorithm\": \"%s\", "
                        + "\"kind\": \"%s\", \"nodes\": %d, \"threads\": %d, \"handoff\": 0, \"samples\": %d, "
                        + "\"medianUs\": %s, \"p99Us\": %s, \"opsPerSec\": %s, \"msgsPerEntry\": null, \"jain\": %s, "
                        + "\"maxRun\": %d, \"failures\": %d, \"cpuUs\": %s}",
                system, transport, algorithm, kind, nodes, threads, m.count(), num(m.p50Us()), num(m.p99Us()),
                num(m.opsPerSec()), num(m.jain()), m.maxRun(), m.failures(), num(m.cpuUsPerOp()));
    }

    private static String num(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "null" : String.format(Locale.ROOT, "%.3f", v);
    }
}
