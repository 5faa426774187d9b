package io.dlock.samples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlock.DlockConfig;
import io.dlock.MutexAlgorithm;
import io.dlock.MutexVariant;
import io.dlock.bench.Measurement;
import io.dlock.jgroups.JGroupsTransportFactory;
import io.dlock.samples.MutexVariantConverter;
import io.dlock.samples.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** {@code dlock bench}: option parsing, validation, the row format, one tiny in-memory run and one per-key run. Never timing. */
@Timeout(60)
class BenchCommandTest {

    private static BenchOptions parse(String... args) {
        BenchCommand c = new BenchCommand();
        new CommandLine(c).parseArgs(args);
        c.options.check();
        return c.options;
    }

    /** The defaults are the full matrix: both transports, 3 and 5 nodes, 1 and 4 threads, no hand-off. */
    @Test
    void defaults() {
        BenchOptions o = parse();
        assertEquals(BenchOptions.Transports.BOTH, o.transport);
        assertEquals(List.of("jgroups", "inmemory"), o.transport.names);
        assertEquals(List.of(3, 5), o.nodes.counts());
        assertEquals(List.of(1, 4), o.threads);
        assertEquals(List.of(0), o.handoffs);
        assertNull(o.algorithms.algorithms);
        assertEquals(MutexVariantConverter.registered(), o.algorithms.chosen());
        assertFalse(o.baselines);
        assertFalse(o.format.json());
        assertEquals(List.of(), o.perKeys());
        assertEquals(1000, o.idleExpiryMs);
        assertEquals("default", o.stack);
        assertFalse(o.idle);
        assertEquals(Map.of(), o.mutexOptions());
        assertEquals(1, o.warmPasses);
    }

    /**
     * {@code --idle} and {@code --mutex-option}: repeatable NAME=VALUE pairs, kept in the order given and set on every
     * cluster's configuration as {@code dlock.mutex.NAME}.
     */
    @Test
    void idleAndMutexOptions() {
        BenchOptions o = parse("--idle", "--algorithms", "token-ring", "--mutex-option", "idle-pause-ms=10",
                "--mutex-option", "token-ack-ms=500");
        assertTrue(o.idle);
        assertEquals(List.of("idle-pause-ms", "token-ack-ms"), List.copyOf(o.mutexOptions().keySet()));
        assertEquals("10", o.mutexOptions().get("idle-pause-ms"));
        DlockConfig config = new BenchClusters(o, new BenchPorts(o.port)).config("inmemory",
                MutexVariantConverter.of(MutexAlgorithm.TOKEN_RING), 3, 0).nodeId(1).build();
        assertEquals(Map.of("idle-pause-ms", "10", "token-ack-ms", "500"), config.mutexOptions());
    }

    /** {@code --grant-spin-us} reaches every dlock cluster's configuration; without it, dlock's default stands. */
    @Test
    void grantSpin_configuresTheClusters() {
        BenchOptions o = parse("--grant-spin-us", "100");
        DlockConfig config = new BenchClusters(o, new BenchPorts(o.port)).config("inmemory",
                MutexVariantConverter.of(MutexAlgorithm.CENTRALIZED), 3, 0).nodeId(1).build();
        assertEquals(java.time.Duration.ofNanos(100_000), config.grantSpin());
        BenchOptions none = parse();
        DlockConfig byDefault = new BenchClusters(none, new BenchPorts(none.port)).config("inmemory",
                MutexVariantConverter.of(MutexAlgorithm.CENTRALIZED), 3, 0).nodeId(1).build();
        assertEquals(DlockConfig.builder().build().grantSpin(), byDefault.grantSpin());
    }

    /**
     * {@code --stack} takes a stack file (a variant of the default stack, to compare stacks): the JGroups clusters and
     * the floor are configured with it, and the text output names it where it names the default stack otherwise.
     */
    @Test
    void stackFile_configuresTheClustersAndIsNamed(@TempDir Path dir) throws Exception {
        Path stack = Files.writeString(dir.resolve("variant.xml"), "<config/>");
        BenchOptions o = parse("--stack", stack.toString());
        assertEquals(stack.toString(), o.stack);
        DlockConfig config = new BenchClusters(o, new BenchPorts(o.port)).config("jgroups",
                MutexVariantConverter.of(MutexAlgorithm.CENTRALIZED), 3, 0).nodeId(1).build();
        assertEquals(stack.toString(), config.values().get(JGroupsTransportFactory.STACK));
        BenchRow floor = new BenchRow("jgroups", "jgroups", BenchFloor.UNICAST_RTT, "floor", 3, 1, 0, 10, 40, 50,
                Double.NaN, Double.NaN, Double.NaN, 0, 0);
        assertTrue(BenchReport.text(List.of(floor), o.stack, 0, 0, 1, 1, List.of()).startsWith("The floor: JGroups, the stack "
                + stack + " on 127.0.0.1"));
        assertTrue(BenchReport.text(List.of(floor), "default", 0, 0, 1, 1, List.of()).startsWith("The floor: JGroups, the default "
                + "stack (TCP_NIO2, no bundler) on 127.0.0.1"));
    }

    /** Lists are comma-separated; every option is read; variants are algorithms too. */
    @Test
    void options() {
        BenchOptions o = parse("--transport", "inmemory", "--algorithms", "centralized,lamport,maekawa-basic",
                "--nodes", "2,7", "--threads", "8", "--handoff", "0,4,16", "--seconds", "2.5", "--warmup", "0",
                "--format", "json", "--no-floor", "--per-key", "10,1000,10000000", "--idle-expiry-ms", "100");
        assertEquals(List.of("inmemory"), o.transport.names);
        assertEquals(List.of("centralized", "lamport", "maekawa-basic"),
                o.algorithms.chosen().stream().map(MutexVariant::name).toList());
        assertEquals(List.of(2, 7), o.nodes.counts());
        assertEquals(List.of(8), o.threads);
        assertEquals(List.of(0, 4, 16), o.handoffs);
        assertEquals(2.5, o.seconds);
        assertTrue(o.noFloor && o.format.json());
        assertEquals(List.of(10, 1000, 10_000_000), o.perKeys());
        assertEquals(100, o.idleExpiryMs);
    }

    /** {@code --nodes} takes the same forms as {@code dlock sweep}. */
    @Test
    void nodes_rangeForm() {
        assertEquals(List.of(2, 4, 8), parse("--nodes", "2..8").nodes.counts());
    }

    /**
     * A bad value is refused before anything starts, the uniform way: one line naming the option, the value and
     * what is allowed, then bench's usage, exit code 2, nothing on standard output.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--transport udp|--transport|'udp' is not a transport choice; allowed: jgroups, inmemory, both",
        "--nodes 1|--nodes|node count 1 in '1' is outside 2..64",
        "--nodes 3,x|--nodes|'x' is not a node count; allowed:",
        "--threads 0|--threads|0 is outside 1..64",
        "--handoff 1001|--handoff|1001 is outside 0..1000",
        "--seconds 0|--seconds|0 is outside (0, 3600]",
        "--warmup -1|--warmup|-1 is outside 0..3600",
        "--warm-passes 6|--warm-passes|6 is outside 0..5",
        "--lock-timeout 0|--lock-timeout|0 is less than 1",
        "--port 80|--port|80 is outside 1024..60000",
        "--per-key 0|--per-key|0 is outside 1..10000000",
        "--per-key 10,10000001|--per-key|10000001 is outside 1..10000000",
        "--idle-expiry-ms 99|--idle-expiry-ms|99 is outside 100..86400000",
        "--grant-spin-us 10001|--grant-spin-us|10001 is outside 0..10000",
        "--grant-spin-us -1|--grant-spin-us|-1 is outside 0..10000",
        "--format xml|--format|'xml' is not a format; allowed: text, table, json",
        "--algorithms centralized,nope|--algorithms|dlock.mutex=nope is not a known algorithm; allowed: centralized",
        "--baselines --baselines-jar /nonexistent/baselines.jar|--baselines-jar|no jar at /nonexistent/baselines.jar",
        "--rounds 0|--rounds|0 is outside 1..20",
        "--peers hazelcast|--peers|hazelcast given without --baselines",
        "--stack tcp|--stack|tcp is neither default nor loopback nor a stack file ending in .xml",
        "--stack /nonexistent/stack.xml|--stack|/nonexistent/stack.xml is neither default nor loopback nor a stack file",
        "--idle --per-key 10|--idle|measures only the idle cost; it cannot be combined with --per-key",
        "--idle --baselines|--idle|measures only the idle cost; it cannot be combined with --baselines",
        "--mutex-option idle-pause-ms|--mutex-option|'idle-pause-ms' is not NAME=VALUE; e.g. idle-pause-ms=10",
        "--algorithms token-ring,centralized --mutex-option idle-pause-ms=10|--mutex-option|unknown configuration key"
                + " 'dlock.mutex.idle-pause-ms' for dlock.mutex=centralized; allowed options: dlock.mutex.coordinator,"
                + " dlock.mutex.send-denied",
        "--algorithms token-ring --mutex-option idle-pause-ms=x|--mutex-option|dlock.mutex.idle-pause-ms=x"})
    void badValue_usageErrorExit2(String args, String option, String message) {
        Run r = Run.dlock(("bench " + args).split(" "));
        assertEquals(2, r.code(), r::toString);
        String[] lines = r.err().split("\\R");
        assertTrue(lines[0].startsWith("Invalid value for option '" + option + "'"), r::toString);
        assertTrue(lines[0].contains(message), r::toString);
        assertTrue(lines[1].startsWith("Usage: dlock bench"), r::toString);
        assertEquals("", r.out(), r::toString);
    }

    /** A JSON row round-trips through the parser that reads the baselines' output; other lines are skipped. */
    @Test
    void rowFormat() {
        BenchRow row = new BenchRow("curator", "zookeeper", "InterProcessMutex", "contended", 3, 4, 0,
                100, Double.NaN, Double.NaN, 250.5, Double.NaN, 0.98, 3, 0);
        Optional<BenchRow> back = BenchRow.parse(row.json());
        assertTrue(back.isPresent());
        assertEquals(row.system(), back.get().system());
        assertEquals(row.threads(), back.get().threads());
        assertEquals(250.5, back.get().opsPerSec(), 1e-9);
        assertTrue(Double.isNaN(back.get().medianUs()));
        assertTrue(BenchRow.parse("[main] WARN something").isEmpty());
        assertEquals(BenchRow.PerKey.NONE, back.get().perKey());
        assertEquals("", back.get().pairedWith());
        BenchRow paired = BenchFloor.row(BenchFloor.UNICAST_RTT, new Measurement(10, 40, 50, 10,
                List.of(), Double.NaN, 0, 0, 12.25, 0.125, Double.NaN), 0).pairedWith("lamport");
        assertEquals(paired, BenchRow.parse(paired.json()).orElseThrow());
        assertEquals(12.25, paired.cpuUs(), 1e-9);
        assertEquals(0.125, paired.stolenShare(), 1e-9);
        assertTrue(Double.isNaN(back.get().stolenShare()), "a row without the stolen share reads back as NaN");
        assertTrue(Double.isNaN(back.get().cpuUs()), "a row without CPU time reads back as NaN");
        assertTrue(Double.isNaN(back.get().framesPerEntry()), "a row without frames reads back as NaN");
        assertTrue(Double.isNaN(back.get().unlockUs()), "a row without the unlock's time reads back as NaN");
        BenchRow legs = new BenchRow("central-lock2", "jgroups", "CENTRAL_LOCK2", "uncontended", 3, 1, 0, 100, 230, 400,
                4300, Double.NaN, Double.NaN, 0, 0).withUnlock(112.5);
        assertEquals(112.5, BenchRow.parse(legs.json()).orElseThrow().unlockUs(), 1e-9);
        assertEquals(112.5, legs.inRound(2).pairedWith("centralized").withCpu(3).withStolen(0.1).unlockUs(), 1e-9,
                "every copy keeps the unlock's time");
        BenchRow framed = new BenchRow("dlock", "jgroups", "lamport", "contended", 3, 4, 0, 100, Double.NaN,
                Double.NaN, 2500, 6.0, 1.0, 1, 0).withFrames(4.5);
        assertEquals(4.5, BenchRow.parse(framed.json()).orElseThrow().framesPerEntry(), 1e-9);
        BenchRow handoff = new BenchRow("dlock", "jgroups", "centralized", "contended", 3, 4, 16, 100, Double.NaN,
                Double.NaN, 2500, 0.12, 1.0, 5, 0);
        assertEquals(16, BenchRow.parse(handoff.json()).orElseThrow().handoff());
        assertEquals(1, back.get().round(), "a row without a round (a peer's line) reads back as round 1");
        BenchRow second = handoff.inRound(2);
        assertEquals(second, BenchRow.parse(second.json()).orElseThrow());
        assertEquals(2, second.pairedWith("lamport").withCpu(3).withFrames(1).round(), "every copy keeps the round");
        assertThrows(IllegalArgumentException.class, () -> handoff.inRound(0));
    }

    /** A per-key row round-trips its per-key figures; a baseline's line, without them, is not a per-key row. */
    @Test
    void perKeyRowFormat() {
        BenchRow row = new BenchRow("dlock", "inmemory", "centralized", BenchPerKey.KIND, 3, 4, 0, 5000, Double.NaN,
                Double.NaN, 2500, 2.5, 0.99, 7, 0, new BenchRow.PerKey(1000, 998, 312.5, 2, 0.3521, 0.9876));
        BenchRow back = BenchRow.parse(row.json()).orElseThrow();
        assertEquals(row.perKey(), back.perKey());
        assertEquals(2.5, back.msgsPerEntry(), 1e-9);
        BenchRow baseline = BenchRow.parse("{\"system\": \"curator\", \"transport\": \"zookeeper\", "
                + "\"algorithm\": \"InterProcessMutex\", \"kind\": \"contended\", \"nodes\": 3, \"threads\": 1, "
                + "\"samples\": 10, \"medianUs\": null, \"p99Us\": null, \"opsPerSec\": 50.0, \"msgsPerEntry\": null, "
                + "\"jain\": 1.0, \"maxRun\": 2, \"failures\": 0}").orElseThrow();
        assertEquals(BenchRow.PerKey.NONE.keys(), baseline.perKey().keys());
        assertEquals(0, baseline.perKey().names());
        assertTrue(Double.isNaN(baseline.perKey().bytesPerName()));
        assertTrue(Double.isNaN(baseline.perKey().maxNodeShare()) && Double.isNaN(baseline.perKey().nodeMsgJain()));
        assertEquals(50.0, baseline.opsPerSec(), 1e-9);
    }

    /** An idle row round-trips its idle figures; only an idle row has them in its JSON. */
    @Test
    void idleRowFormat() {
        BenchRow row = new BenchRow("dlock", "inmemory", "token-ring", BenchIdle.KIND, 3, 0, 0, 0, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, 0).withIdle(new BenchRow.Idle(36000.5, 0.75));
        assertTrue(row.json().endsWith(", \"messagesPerSec\": 36000.5, \"cpuCores\": 0.750}"), row.json());
        assertEquals(row.idle(), BenchRow.parse(row.json()).orElseThrow().idle());
        BenchRow contended = new BenchRow("dlock", "inmemory", "token-ring", "contended", 3, 1, 0, 100, Double.NaN,
                Double.NaN, 2500, 1.5, 1.0, 1, 0);
        assertFalse(contended.json().contains("messagesPerSec"), contended.json());
        assertEquals(BenchRow.Idle.NONE, BenchRow.parse(contended.json()).orElseThrow().idle());
    }

    /**
     * {@code --idle}, in memory, very short: one idle row per algorithm and size, nothing else; a quiescent algorithm
     * (centralized) sends nothing once its lock is free, and the text output has the idle table. Never timing.
     */
    @Test
    void idleRun() throws Exception {
        Run r = Run.dlock("bench", "--idle", "--transport", "inmemory", "--algorithms", "centralized,token-ring",
                "--nodes", "2,3", "--seconds", "0.2", "--warmup", "0.1", "--lock-timeout", "10", "--format", "json");
        assertEquals(0, r.code(), r::toString);
        List<JsonNode> rows = new ArrayList<>();
        new ObjectMapper().readTree(r.out()).forEach(rows::add);
        assertEquals(List.of("centralized 2", "centralized 3", "token-ring 2", "token-ring 3"), rows.stream()
                .map(n -> n.get("kind").asText() + " " + n.get("algorithm").asText() + " " + n.get("nodes").asInt())
                .map(k -> k.substring((BenchIdle.KIND + " ").length())).toList(), r::toString);
        assertTrue(rows.stream().allMatch(n -> n.get("kind").asText().equals(BenchIdle.KIND)), r::toString);
        for (JsonNode row : rows) {
            assertEquals(0, row.get("failures").asLong(), r::toString);
            assertTrue(row.get("messagesPerSec").asDouble() >= 0, r::toString);
            assertTrue(row.get("cpuCores").isNull() || row.get("cpuCores").asDouble() >= 0, r::toString);
        }
        assertEquals(0, rows.get(0).get("messagesPerSec").asDouble(), r::toString);
        Run text = Run.dlock("bench", "--idle", "--transport", "inmemory", "--algorithms", "token-ring",
                "--mutex-option", "idle-pause-ms=10", "--nodes", "2", "--seconds", "0.1", "--warmup", "0");
        assertEquals(0, text.code(), text::toString);
        assertTrue(text.out().startsWith("Idle: after one lock+unlock on node 1, nobody asks"), text::toString);
        assertTrue(text.out().lines().anyMatch(l -> l.matches("inmemory +token-ring +2 +0 +\\d+ +[-0-9.]+ +0")),
                text::toString);
        assertTrue(text.out().contains("dlock.mutex options of every cluster: {idle-pause-ms=10}"), text::toString);
    }

    /** One algorithm, in memory, very short: exit 0 and a JSON row per measure. */
    @Test
    void tinyRun() {
        Run r = Run.dlock("bench", "--transport", "inmemory", "--algorithms", "centralized", "--nodes", "2",
                "--threads", "1,2", "--seconds", "0.1", "--warmup", "0", "--lock-timeout", "10", "--format", "json");
        assertEquals(0, r.code(), r::toString);
        assertTrue(r.out().contains("\"kind\": \"uncontended\""), r::toString);
        assertEquals(2, r.out().split("\"kind\": \"contended\"", -1).length - 1, r::toString);
        assertTrue(r.out().contains("\"algorithm\": \"centralized\""), r::toString);
    }

    /**
     * The per-key workload, in memory, very short: one per-key row with entries, messages, the names used and a
     * finite heap per name; the other rows have no per-key figures. Never timing or speed.
     */
    @Test
    void perKeyRun() throws Exception {
        Run r = Run.dlock("bench", "--transport", "inmemory", "--algorithms", "centralized", "--nodes", "3",
                "--threads", "1", "--per-key", "10", "--seconds", "0.2", "--warmup", "0.1", "--no-uncontended",
                "--idle-expiry-ms", "200", "--lock-timeout", "10", "--format", "json");
        assertEquals(0, r.code(), r::toString);
        List<JsonNode> rows = new ArrayList<>();
        new ObjectMapper().readTree(r.out()).forEach(rows::add);
        List<JsonNode> perKey = rows.stream().filter(n -> n.get("kind").asText().equals("per-key")).toList();
        assertEquals(1, perKey.size(), r::toString);
        JsonNode row = perKey.get(0);
        assertEquals(10, row.get("keys").asInt(), r::toString);
        assertEquals(3, row.get("nodes").asInt(), r::toString);
        assertTrue(row.get("samples").asLong() > 0, r::toString);
        assertTrue(row.get("msgsPerEntry").isNumber() && row.get("msgsPerEntry").asDouble() > 0, r::toString);
        long names = row.get("names").asLong();
        assertTrue(names >= 1 && names <= 10, r::toString);
        assertTrue(row.get("bytesPerName").isNumber() && Double.isFinite(row.get("bytesPerName").asDouble()),
                r::toString);
        assertTrue(row.get("liveEngines").asLong() >= 0, r::toString);
        double share = row.get("maxNodeShare").asDouble();
        assertTrue(share >= 1.0 / 3 - 1e-9 && share <= 1, "one node's share of the messages: " + r);
        double jain = row.get("nodeMsgJain").asDouble();
        assertTrue(jain >= 1.0 / 3 - 1e-9 && jain <= 1 + 1e-9, "Jain's index over the nodes' messages: " + r);
        assertTrue(rows.stream().filter(n -> n.get("kind").asText().equals("contended"))
                .allMatch(n -> n.get("keys").asInt() == 0 && n.get("bytesPerName").isNull()), r::toString);
    }
}
