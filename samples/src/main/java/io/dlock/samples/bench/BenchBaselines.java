package io.dlock.samples.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The baselines of {@code dlock bench --baselines}: runs the baselines jar (JGroups CENTRAL_LOCK2, Curator on an
 * embedded ZooKeeper) in a JVM of its own per baseline, each bounded to 600 s, and reads the {@link BenchRow}s it
 * prints, one JSON object per line; its standard error goes to ours.
 */
final class BenchBaselines {

    /** The baselines the jar runs, in order. */
    static final List<String> NAMES = List.of("central-lock2", "curator", "curator-nosync");

    private final BenchOptions options;
    private final BenchPorts ports;

    BenchBaselines(BenchOptions options, BenchPorts ports) {
        this.options = options;
        this.ports = ports;
    }

    /** Every baseline's rows. */
    List<BenchRow> run() throws IOException, InterruptedException {
        List<BenchRow> rows = new ArrayList<>();
        for (String which : NAMES) {
            for (String line : output(which)) {
                BenchRow.parse(line).ifPresent(rows::add);
            }
        }
        return rows;
    }

    /** The standard output lines of one baseline's JVM. */
    private List<String> output(String which) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = List.of(java, "-jar", options.baselinesJar.toString(), which, "--seconds",
                Double.toString(options.seconds), "--warmup", Double.toString(options.warmup), "--port",
                Integer.toString(ports.reserve(20)), "--threads",
                String.join(",", options.threads.stream().map(String::valueOf).toList()));
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
            return new ArrayList<>(lines);
        }
    }
}
