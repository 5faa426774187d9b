package io.dlock.samples.bench;

import io.dlock.bench.Measurement;
import io.dlock.samples.Json;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One measured figure set of {@code dlock bench}. Unused fields are NaN (JSON null): latency rows have no
 * throughput, throughput rows no latency. As JSON, one object per line: the shape the baselines jar prints too,
 * so {@link #parse} reads its output.
 *
 * @param system     dlock, jgroups (the floor), or a baseline's name
 * @param transport  jgroups or inmemory (baselines: what they run on)
 * @param algorithm  algorithm, floor measure, or baseline lock
 * @param kind       uncontended, contended, per-key, idle, or floor
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
 * @param perKey     what a per-key row measured; {@link PerKey#NONE} in other rows
 * @param pairedWith for a floor row measured interleaved with one algorithm's uncontended run (slice by slice, in
 *                   the same minutes), that algorithm's name; for a dlock row run right before a peer's run of the
 *                   same workload ({@link BenchPairs}), the peer's name, and for that peer's row, the algorithm's;
 *                   empty in every other row
 * @param cpuUs      CPU time of the measuring JVM per operation, microseconds (all its nodes, transport, JIT and GC:
 *                   {@code Measurement.cpuUsPerOp}); NaN if not measured
 * @param framesPerEntry transport messages sent per entry ({@link io.dlock.LockMetrics#framesSent()}: the messages
 *                   one event sends to one node leave in one); NaN if not measured
 * @param idle       what an idle row measured; {@link Idle#NONE} in other rows
 * @param round      the round of {@code --rounds} that measured it, from 1
 * @param stolenShare the share of the host's CPU time in the measured window that the hypervisor gave to other
 *                   guests ({@code Measurement.stolenShare}), 0..1; NaN if not measured
 * @param unlockUs   of an uncontended row, the median time of the unlock alone, microseconds
 *                   ({@code Measurement.unlockP50Us}): what the release costs the caller; NaN in other rows
 */
record BenchRow(String system, String transport, String algorithm, String kind, int nodes, int threads, int handoff,
                long samples, double medianUs, double p99Us, double opsPerSec, double msgsPerEntry, double jain,
                long maxRun, long failures, PerKey perKey, String pairedWith, double cpuUs, double framesPerEntry,
                Idle idle, int round, double stolenShare, double unlockUs) {

    private static final Pattern FIELD = Pattern.compile("\"(\\w+)\": (\"[^\"]*\"|[-0-9.eE]+|null)");

    /**
     * The figures of a per-key row ({@code dlock bench --per-key}): each entry took a uniformly random one of
     * {@code keys} names, and after the run the idle names were left to be reclaimed.
     *
     * @param keys         K, the names each entry picked from; 0 in other rows
     * @param names        distinct names the run used (warm-up included)
     * @param bytesPerName heap retained after reclamation per name used (all nodes together); NaN if not measured
     * @param liveEngines  lock engines still live on the nodes when the heap was measured (all nodes together)
     * @param maxNodeShare the largest share of the measured window's messages handled (sent plus received) by one
     *                     node; NaN if not measured
     * @param nodeMsgJain  Jain's index over the nodes' messages handled in the measured window; NaN if not measured
     */
    record PerKey(int keys, long names, double bytesPerName, long liveEngines, double maxNodeShare,
                  double nodeMsgJain) {
        /** The figures of a row that is not a per-key one. */
        static final PerKey NONE = new PerKey(0, 0, Double.NaN, 0);

        /** Figures without the spread of messages over the nodes. */
        PerKey(int keys, long names, double bytesPerName, long liveEngines) {
            this(keys, names, bytesPerName, liveEngines, Double.NaN, Double.NaN);
        }
    }

    /**
     * The figures of an idle row ({@code dlock bench --idle}): a cluster that nobody asks for the lock, after one
     * lock+unlock. As JSON, only an idle row has these fields.
     *
     * @param messagesPerSec messages the nodes sent per second (all their locks; what a perpetual algorithm costs)
     * @param cpuCores       CPU time of the measuring JVM per second (1 = one core busy); NaN if not measured
     */
    record Idle(double messagesPerSec, double cpuCores) {
        /** The figures of a row that is not an idle one. */
        static final Idle NONE = new Idle(Double.NaN, Double.NaN);
    }

    /** A row that is neither a per-key nor an idle one. */
    BenchRow(String system, String transport, String algorithm, String kind, int nodes, int threads, int handoff,
             long samples, double medianUs, double p99Us, double opsPerSec, double msgsPerEntry, double jain,
             long maxRun, long failures) {
        this(system, transport, algorithm, kind, nodes, threads, handoff, samples, medianUs, p99Us, opsPerSec,
                msgsPerEntry, jain, maxRun, failures, PerKey.NONE, "", Double.NaN, Double.NaN, Idle.NONE, 1, Double.NaN, Double.NaN);
    }

    /** A per-key row, or one that is not; paired with no algorithm, not idle. */
    BenchRow(String system, String transport, String algorithm, String kind, int nodes, int threads, int handoff,
             long samples, double medianUs, double p99Us, double opsPerSec, double msgsPerEntry, double jain,
             long maxRun, long failures, PerKey perKey) {
        this(system, transport, algorithm, kind, nodes, threads, handoff, samples, medianUs, p99Us, opsPerSec,
                msgsPerEntry, jain, maxRun, failures, perKey, "", Double.NaN, Double.NaN, Idle.NONE, 1, Double.NaN, Double.NaN);
    }

    /** This row, marked as measured with {@code other}'s run: interleaved with it, or right before or after it. */
    BenchRow pairedWith(String other) {
        return new BenchRow(system, transport, this.algorithm, kind, nodes, threads, handoff, samples, medianUs, p99Us,
                opsPerSec, msgsPerEntry, jain, maxRun, failures, perKey, other, cpuUs, framesPerEntry, idle, round, stolenShare, unlockUs);
    }

    /** This row with the CPU time per operation {@code cpuUs} (NaN: not measured). */
    BenchRow withCpu(double cpuUs) {
        return new BenchRow(system, transport, algorithm, kind, nodes, threads, handoff, samples, medianUs, p99Us,
                opsPerSec, msgsPerEntry, jain, maxRun, failures, perKey, pairedWith, cpuUs, framesPerEntry, idle, round, stolenShare, unlockUs);
    }

    /**
     * This row with what the harness measured besides the operations: the CPU time per operation, the share of the
     * host's CPU time stolen in the measured window and, of a lock+unlock latency run, the median of the unlock alone.
     */
    BenchRow withHost(Measurement m) {
        return withCpu(m.cpuUsPerOp()).withStolen(m.stolenShare()).withUnlock(m.unlockP50Us());
    }

    /** This row with {@code unlockUs}, the median time of the unlock alone (NaN: not measured). */
    BenchRow withUnlock(double unlockUs) {
        return new BenchRow(system, transport, algorithm, kind, nodes, threads, handoff, samples, medianUs, p99Us,
                opsPerSec, msgsPerEntry, jain, maxRun, failures, perKey, pairedWith, cpuUs, framesPerEntry, idle, round,
                stolenShare, unlockUs);
    }

    /** This row with the stolen share {@code stolenShare} of the host's CPU time (NaN: not measured). */
    BenchRow withStolen(double stolenShare) {
        return new BenchRow(system, transport, algorithm, kind, nodes, threads, handoff, samples, medianUs, p99Us,
                opsPerSec, msgsPerEntry, jain, maxRun, failures, perKey, pairedWith, cpuUs, framesPerEntry, idle, round,
                stolenShare, unlockUs);
    }

    /** This row with {@code framesPerEntry} transport messages per entry (NaN: not measured). */
    BenchRow withFrames(double framesPerEntry) {
        return new BenchRow(system, transport, algorithm, kind, nodes, threads, handoff, samples, medianUs, p99Us,
                opsPerSec, msgsPerEntry, jain, maxRun, failures, perKey, pairedWith, cpuUs, framesPerEntry, idle, round, stolenShare, unlockUs);
    }

    /**
     * This row as measured in round {@code round} of {@code --rounds}.
     *
     * @throws IllegalArgumentException if {@code round < 1}
     */
    BenchRow inRound(int round) {
        if (round < 1) {
            throw new IllegalArgumentException("rounds count from 1, got " + round);
        }
        return new BenchRow(system, transport, algorithm, kind, nodes, threads, handoff, samples, medianUs, p99Us,
                opsPerSec, msgsPerEntry, jain, maxRun, failures, perKey, pairedWith, cpuUs, framesPerEntry, idle, round, stolenShare, unlockUs);
    }

    /** This row with the figures of an idle run. */
    BenchRow withIdle(Idle idle) {
        return new BenchRow(system, transport, algorithm, kind, nodes, threads, handoff, samples, medianUs, p99Us,
                opsPerSec, msgsPerEntry, jain, maxRun, failures, perKey, pairedWith, cpuUs, framesPerEntry, idle, round, stolenShare, unlockUs);
    }

    /** This row as a one-line JSON object; an idle row ends with its two figures. */
    String json() {
        String json = String.format(Locale.ROOT, "{\"system\": \"%s\", \"transport\": \"%s\", \"algorithm\": \"%s\", "
                        + "\"kind\": \"%s\", \"nodes\": %d, \"threads\": %d, \"handoff\": %d, \"samples\": %d, "
                        + "\"medianUs\": %s, \"p99Us\": %s, \"opsPerSec\": %s, \"msgsPerEntry\": %s, \"jain\": %s, "
                        + "\"maxRun\": %d, \"failures\": %d, \"keys\": %d, \"names\": %d, \"bytesPerName\": %s, "
                        + "\"liveEngines\": %d, \"maxNodeShare\": %s, \"nodeMsgJain\": %s, \"pairedWith\": \"%s\", "
                        + "\"cpuUs\": %s, \"framesPerEntry\": %s, \"stolenShare\": %s, \"unlockUs\": %s, \"round\": %d}",
                system, transport, algorithm, kind, nodes, threads, handoff, samples, Json.number(medianUs, 3),
                Json.number(p99Us, 3), Json.number(opsPerSec, 3), Json.number(msgsPerEntry, 3), Json.number(jain, 3),
                maxRun, failures, perKey.keys(), perKey.names(), Json.number(perKey.bytesPerName(), 1),
                perKey.liveEngines(), Json.number(perKey.maxNodeShare(), 4), Json.number(perKey.nodeMsgJain(), 4),
                pairedWith, Json.number(cpuUs, 2), Json.number(framesPerEntry, 3), Json.number(stolenShare, 4),
                Json.number(unlockUs, 3), round);
        if (!kind.equals(BenchIdle.KIND)) {
            return json;
        }
        return json.substring(0, json.length() - 1) + String.format(Locale.ROOT, ", \"messagesPerSec\": %s, "
                + "\"cpuCores\": %s}", Json.number(idle.messagesPerSec(), 1), Json.number(idle.cpuCores(), 3));
    }

    /**
     * A row from one line of JSON (one object per line), if the line holds one. The per-key fields are optional
     * (the baselines do not print them): absent counts read as 0 (as NaN cast to a count does), so a line without
     * them is a row that is not a per-key one. {@code handoff} (a count), {@code pairedWith} and {@code cpuUs} are optional
     * too (runs saved before they were written): absent, 0, empty and NaN; so are {@code framesPerEntry},
     * {@code stolenShare} and {@code unlockUs} (NaN), the
     * idle figures, which only an idle row has, and {@code round} (1; the baselines jar does not print it either: the
     * bench sets it).
     */
    static Optional<BenchRow> parse(String line) {
        Map<String, String> f = new LinkedHashMap<>();
        Matcher m = FIELD.matcher(line);
        while (m.find()) {
            String v = m.group(2);
            f.put(m.group(1), v.startsWith("\"") ? v.substring(1, v.length() - 1) : v);
        }
        if (!f.containsKey("system") || !f.containsKey("kind")) {
            return Optional.empty();
        }
        return Optional.of(new BenchRow(f.get("system"), f.getOrDefault("transport", "?"), f.getOrDefault("algorithm", "?"),
                f.get("kind"), (int) num(f, "nodes"), (int) num(f, "threads"), (int) num(f, "handoff"), (long) num(f, "samples"),
                num(f, "medianUs"), num(f, "p99Us"), num(f, "opsPerSec"), num(f, "msgsPerEntry"), num(f, "jain"),
                (long) num(f, "maxRun"), (long) num(f, "failures"), new PerKey((int) num(f, "keys"),
                (long) num(f, "names"), num(f, "bytesPerName"), (long) num(f, "liveEngines"), num(f, "maxNodeShare"),
                num(f, "nodeMsgJain")),
                f.getOrDefault("pairedWith", ""), num(f, "cpuUs"), num(f, "framesPerEntry"),
                new Idle(num(f, "messagesPerSec"), num(f, "cpuCores")), f.containsKey("round") ? (int) num(f, "round") : 1,
                num(f, "stolenShare"), num(f, "unlockUs")));
    }

    private static double num(Map<String, String> f, String key) {
        String v = f.get(key);
        return v == null || v.equals("null") ? Double.NaN : Double.parseDouble(v);
    }
}
