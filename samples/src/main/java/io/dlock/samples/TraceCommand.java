package io.dlock.samples;

import io.dlock.MutexVariant;
import io.dlock.inmemory.sim.Simulation;
import io.dlock.inmemory.sim.SimulationListener;
import io.dlock.inmemory.sim.SimulationResult;
import io.dlock.inmemory.sim.Workload;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dlock trace}: every event of one simulated run, one line each, in the order the simulator
 * processed them: requests, each network message when it is delivered (who sent what to whom, its
 * fields, when it was sent), grants with their fencing token, releases, timers, and who holds the lock
 * at that moment. Messages still in flight when the run ends are listed at the end, so every message
 * of the run appears exactly once. {@code --mermaid} prints the same run as a Mermaid
 * {@code sequenceDiagram} instead.
 */
@Command(name = "trace", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Print every event of one simulated run: who sent what to whom and when, and who held the lock.",
                "--mermaid prints the same run as a Mermaid sequence diagram (paste it into any Mermaid viewer)."})
final class TraceCommand extends DlockCommand {

    /** Largest N worth reading as a trace. */
    static final int MAX_NODES = 64;

    @Option(names = "--algorithm", paramLabel = "NAME", defaultValue = "ricart-agrawala",
            converter = MutexVariantConverter.class,
            description = "mutual-exclusion algorithm or variant (default ${DEFAULT-VALUE})")
    MutexVariant algorithm;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "3", description = "number of nodes N (1-" + MAX_NODES + ", default ${DEFAULT-VALUE})")
    int nodes;

    @Option(names = "--entries", paramLabel = "E", defaultValue = "2",
            description = "critical-section entries, spread evenly over the nodes from node 0 on (default ${DEFAULT-VALUE})")
    long entries;

    @Option(names = "--delay", defaultValue = "random", paramLabel = "MODEL", converter = MessageDelay.Converter.class,
            description = "random (1-10 per message) or unit (1 per message) (default ${DEFAULT-VALUE})")
    MessageDelay delay;

    @Mixin
    SeedOption seed;

    @Option(names = "--mermaid", description = "print a Mermaid sequenceDiagram of the run instead of the event lines")
    boolean mermaid;

    @Override
    public Integer call() {
        Cli.checkWithin(spec, "--nodes", nodes, 1, MAX_NODES);
        Cli.checkAtLeast(spec, "--entries", entries, 0);
        Recorder recorder = new Recorder(nodes);
        SimulationResult result = record(algorithm, nodes, entries, seed.seed, delay, recorder);
        print(mermaid ? recorder.mermaid(result) : recorder.text(result));
        return result.ok() ? 0 : 1;
    }

    /** Runs the simulation with {@code recorder} listening. */
    static SimulationResult record(MutexVariant variant, int nodes, long entries, long seed, MessageDelay delay,
                                   Recorder recorder) {
        MutexProtocolDefinition<?> definition = AlgorithmDefinitions.mutex(variant.algorithm());
        return Simulation.of(definition).nodes(nodes).seed(seed).options(new ProtocolOptions(variant.options()))
                .delay(delay.model())
                .stopWhenWorkloadDone(!definition.quiescentWhenIdle()).workload(Workload.total(entries))
                .run(recorder);
    }

    /** One event, as the recorder keeps it. */
    record Line(long time, String holder, String from, String to, long id, long sentAt, String what, boolean message) {
    }

    /**
     * Keeps the run's events in order; a message becomes a line when it is delivered (or, if it never
     * is, at the end).
     */
    static final class Recorder implements SimulationListener {

        private final int nodes;
        private final List<Line> lines = new ArrayList<>();
        private final Map<Long, Line> inFlight = new LinkedHashMap<>();
        private String holder = "-";

        Recorder(int nodes) {
            this.nodes = nodes;
        }

        @Override
        public void sent(long time, long id, NodeId from, NodeId to, ProtocolMessage message) {
            inFlight.put(id, new Line(time, null, from.toString(), to.toString(), id, time, String.valueOf(message), true));
        }

        @Override
        public void delivered(long time, long id, NodeId from, NodeId to, ProtocolMessage message) {
            Line sent = inFlight.remove(id);
            long sentAt = sent == null ? time : sent.sentAt();
            lines.add(new Line(time, holder, from.toString(), to.toString(), id, sentAt, String.valueOf(message), true));
        }

        @Override
        public void requested(long time, NodeId node) {
            lines.add(new Line(time, holder, node.toString(), null, -1, time, "requests the lock", false));
        }

        @Override
        public void granted(long time, NodeId node, long fence, boolean counted) {
            if (counted) {
                holder = node.toString();
            }
            lines.add(new Line(time, holder, node.toString(), null, -1, time,
                    "ENTERS (granted, fencing token " + fence + ")" + (counted ? "" : " REFUSED by the checker"), false));
        }

        @Override
        public void released(long time, NodeId node) {
            holder = "-";
            lines.add(new Line(time, holder, node.toString(), null, -1, time, "EXITS (releases the lock)", false));
        }

        @Override
        public void timer(long time, NodeId node, String name) {
            lines.add(new Line(time, holder, node.toString(), null, -1, time, "timer '" + name + "' fires", false));
        }

        /** Every line in processing order, then the messages never delivered. */
        List<Line> lines() {
            List<Line> all = new ArrayList<>(lines);
            all.addAll(inFlight.values());
            return all;
        }

        String text(SimulationResult r) {
            StringBuilder sb = new StringBuilder();
            sb.append(String.format(Locale.ROOT, "# %s, %d nodes, %d entries, seed %d%n# replay: %s%n", r.algorithm(),
                    nodes, r.requests(), r.seed(), r.replay()));
            sb.append(String.format(Locale.ROOT, "%7s  %-6s  %s%n", "time", "holder", "event"));
            for (Line l : lines) {
                sb.append(String.format(Locale.ROOT, "%7d  %-6s  %s%n", l.time(), l.holder(), describe(l)));
            }
            for (Line l : inFlight.values()) {
                sb.append(String.format(Locale.ROOT, "%7s  %-6s  %s%n", "-", "", describe(l) + " NOT DELIVERED (the run ended)"));
            }
            sb.append(String.format(Locale.ROOT, "# %d messages %s, %d entries, %.3f messages per entry; checker: %s%n",
                    r.messages(), r.messagesByType(), r.entries(), r.messagesPerEntry(),
                    r.ok() ? "ok" : r.describeFailure()));
            return sb.toString();
        }

        private static String describe(Line l) {
            if (!l.message()) {
                return l.from() + " " + l.what();
            }
            if (l.id() == 0) {
                return l.from() + " -> " + l.to() + "  (local) " + l.what();
            }
            return l.from() + " -> " + l.to() + "  #" + l.id() + " " + l.what() + "  (sent t=" + l.sentAt() + ")";
        }

        String mermaid(SimulationResult r) {
            StringBuilder sb = new StringBuilder("sequenceDiagram\n");
            sb.append("    %% ").append(r.algorithm()).append(", ").append(nodes).append(" nodes, seed ").append(r.seed())
                    .append(": ").append(r.messages()).append(" messages, ").append(r.entries()).append(" entries\n");
            for (int i = 0; i < nodes; i++) {
                sb.append("    participant ").append(NodeId.of(i)).append('\n');
            }
            for (Line l : lines) {
                if (l.message()) {
                    sb.append("    ").append(l.from()).append(l.id() == 0 ? "-->>" : "->>").append(l.to()).append(": ")
                            .append(l.id() == 0 ? "local " : "m" + l.id() + " ").append(safe(l.what()))
                            .append(" (t=").append(l.sentAt()).append(" to ").append(l.time()).append(")\n");
                } else {
                    sb.append("    Note over ").append(l.from()).append(": t=").append(l.time()).append(' ')
                            .append(safe(l.what())).append('\n');
                }
            }
            for (Line l : inFlight.values()) {
                sb.append("    ").append(l.from()).append("-x").append(l.to()).append(": m").append(l.id()).append(' ')
                        .append(safe(l.what())).append(" (t=").append(l.sentAt()).append(", not delivered)\n");
            }
            return sb.toString();
        }

        /** Mermaid reads ';' as a statement end and '#' as an entity: keep them out of labels. */
        private static String safe(String s) {
            return s.replace(';', ',').replace('#', 'n').replace('\n', ' ');
        }
    }
}
