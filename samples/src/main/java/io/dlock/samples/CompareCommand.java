package io.dlock.samples;

import io.dlock.MutexVariant;
import io.dlock.inmemory.sim.DelayModel;
import io.dlock.inmemory.sim.Simulation;
import io.dlock.inmemory.sim.SimulationResult;
import io.dlock.inmemory.sim.Workload;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dlock compare}: runs each mutual-exclusion algorithm on the deterministic simulator and
 * prints, per algorithm, the measured messages per entry against docs/algorithms.md's formula, the
 * synchronization delay, and what the checker found.
 *
 * <p>Two runs per algorithm: a seeded random run ({@code --entries} entries spread evenly over the
 * nodes, random delays 1-10, channels reordered unless the algorithm needs FIFO, every message
 * encoded) for the message counts and the checks, and a unit-delay run in which every node requests
 * at time 0 with zero hold time, which measures the synchronization delay of docs/algorithms.md 0.4 in message
 * times.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run each algorithm on the simulator and compare messages per entry, synchronization delay and safety.")
final class CompareCommand extends DlockCommand {

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "5", description = "number of nodes N (1-1024, default ${DEFAULT-VALUE})")
    int nodes;

    @Mixin
    MutexRunOptions runs;

    @Mixin
    FormatOption format;

    /** One line of the comparison. */
    record Row(String algorithm, int nodes, long entries, double messagesPerEntry, double theoryMessagesPerEntry,
               double syncDelay, long safetyViolations, long ungranted, String formula, String replay) {
    }

    @Override
    public Integer call() {
        Cli.checkWithin(spec, "--nodes", nodes, 1, 1024);
        long entries = runs.entries();
        List<Row> rows = new ArrayList<>();
        for (MutexVariant variant : runs.chosen()) {
            rows.add(measure(variant, entries, runs.seed()));
        }
        print(format.json() ? json(rows) : table(rows));
        boolean clean = rows.stream().allMatch(r -> r.safetyViolations == 0 && r.ungranted == 0);
        return clean ? 0 : 1;
    }

    /** Runs one algorithm (or variant: the algorithm with some options fixed) twice on the simulator. */
    private Row measure(MutexVariant variant, long entries, long seed) {
        MutexProtocolDefinition<?> definition = AlgorithmDefinitions.mutex(variant.algorithm());
        boolean perpetual = !definition.quiescentWhenIdle(); // its messages never stop: end with the workload
        ProtocolOptions options = new ProtocolOptions(variant.options());
        SimulationResult random = Simulation.of(definition).nodes(nodes).seed(seed).stopWhenWorkloadDone(perpetual)
                .options(options).workload(Workload.total(entries)).encodeMessages(true).run();
        SimulationResult saturated = Simulation.of(definition).nodes(nodes).seed(seed).delay(DelayModel.unit())
                .options(options).stopWhenWorkloadDone(perpetual)
                .workload(Workload.perNode(1).think(0, 0).hold(0, 0)).run();
        long violations = random.safetyViolations() + random.fenceViolations() + random.grantViolations()
                + saturated.safetyViolations() + saturated.fenceViolations() + saturated.grantViolations();
        return new Row(variant.name(), nodes, random.entries(), random.messagesPerEntry(),
                definition.expectedMessagesPerEntry(nodes), saturated.syncDelay(), violations,
                random.ungranted() + saturated.ungranted(), definition.messagesFormula(), random.replay());
    }

    private static String table(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        String header = String.format(Locale.ROOT, "%-18s %5s %7s %10s %10s  %-32s %9s %7s %9s%n", "algorithm", "nodes",
                "entries", "msgs/entry", "theory", "formula", "syncDelay", "safety", "ungranted");
        sb.append(header).append("-".repeat(header.length() - 1)).append('\n');
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "%-18s %5d %7d %10.3f %10.3f  %-32s %9s %7d %9d%n", r.algorithm,
                    r.nodes, r.entries, r.messagesPerEntry, r.theoryMessagesPerEntry, r.formula,
                    Double.isNaN(r.syncDelay) ? "-" : String.format(Locale.ROOT, "%.2f", r.syncDelay),
                    r.safetyViolations, r.ungranted));
        }
        sb.append("\nmsgs/entry: random delays 1-10, non-FIFO unless the algorithm needs FIFO; theory: the formula for\n"
                + "an even load. syncDelay: unit-delay run, all nodes request at t=0, in message times T.\n"
                + "safety: mutual-exclusion, fencing-order and double-grant violations found by the checker.\n");
        return sb.toString();
    }

    private static String json(List<Row> rows) {
        StringBuilder sb = new StringBuilder("[\n");
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            sb.append(String.format(Locale.ROOT,
                    "  {\"algorithm\": \"%s\", \"nodes\": %d, \"entries\": %d, \"messagesPerEntry\": %s, "
                            + "\"theoryMessagesPerEntry\": %s, \"syncDelay\": %s, \"safetyViolations\": %d, \"ungranted\": %d}",
                    r.algorithm, r.nodes, r.entries, Json.number(r.messagesPerEntry, 4),
                    Json.number(r.theoryMessagesPerEntry, 4), Json.number(r.syncDelay, 4), r.safetyViolations, r.ungranted));
            sb.append(i + 1 < rows.size() ? ",\n" : "\n");
        }
        return sb.append("]\n").toString();
    }
}
