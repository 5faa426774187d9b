package io.dlock.samples;

import io.dlock.ElectionAlgorithm;
import io.dlock.inmemory.sim.ElectionResult;
import io.dlock.inmemory.sim.ElectionSimulation;
import io.dlock.inmemory.sim.ElectionSimulation.RingOrder;
import io.dlock.inmemory.sim.ElectionSimulation.Starters;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.ElectionProtocolDefinition;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code dlock elect}: runs one leader election on the deterministic simulator and prints the
 * leader, the messages (per type), the election time and docs/algorithms.md's exact count for that setting.
 *
 * <p>By default every message takes one time unit, so {@code steps} is the election time of docs/algorithms.md
 * 0.4 (all starters at t = 0); {@code --delay random} draws delays from 1 to 10 instead.
 */
@Command(name = "elect", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run one leader election on the simulator and compare its messages with docs/algorithms.md's formula.")
final class ElectCommand extends DlockCommand {

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "5", description = "number of nodes n (1-4096, default ${DEFAULT-VALUE})")
    int nodes;

    @Option(names = "--algorithm", paramLabel = "NAME", defaultValue = "bully", converter = AlgorithmConverter.class,
            description = "bully, ring, lelann, chang-roberts, franklin or peterson (default ${DEFAULT-VALUE})")
    ElectionAlgorithm algorithm;

    @Option(names = "--ring", paramLabel = "ORDER", defaultValue = "increasing", converter = RingConverter.class,
            description = "ids along the ring: increasing, decreasing or random (default ${DEFAULT-VALUE})")
    RingOrder ring;

    @Option(names = "--starters", paramLabel = "WHO", defaultValue = "all", converter = StartersConverter.class,
            description = "who initiates at t=0: all, lowest, highest or random (default ${DEFAULT-VALUE})")
    Starters starters;

    @Option(names = "--crash-leader", description = "crash the previous leader (node n) before the election")
    boolean crashLeader;

    @Option(names = "--delay", paramLabel = "MODEL", defaultValue = "unit", converter = MessageDelay.Converter.class,
            description = "unit (1 per message) or random (1-10) (default ${DEFAULT-VALUE})")
    MessageDelay delay;

    @Mixin
    SeedOption seed;

    @Mixin
    FormatOption format;

    @Override
    public Integer call() {
        Cli.checkWithin(spec, "--nodes", nodes, 1, 4096);
        if (crashLeader && nodes < 2) {
            throw Cli.invalid(spec, "--crash-leader", "needs at least 2 nodes, got --nodes " + nodes);
        }
        ElectionProtocolDefinition<?> definition = AlgorithmDefinitions.election(algorithm).orElseThrow();
        ElectionResult r = ElectionSimulation.of(definition).nodes(nodes).ring(ring).starters(starters)
                .crashLeader(crashLeader).delay(delay.model()).seed(seed.seed).run();
        print(format.json() ? json(r, definition) : table(r, definition));
        return r.ok() ? 0 : 1;
    }

    /** A message-passing election by its configuration name (the view election sends no messages to count). */
    static final class AlgorithmConverter implements ITypeConverter<ElectionAlgorithm> {
        @Override
        public ElectionAlgorithm convert(String value) {
            ElectionAlgorithm a;
            try {
                a = ElectionAlgorithm.fromConfigName(value.trim());
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
            if (AlgorithmDefinitions.election(a).isEmpty()) {
                throw new TypeConversionException("the " + value + " election sends no messages; choose a message-passing one: "
                        + ElectionAlgorithm.messagePassing().stream().map(ElectionAlgorithm::configName)
                        .collect(Collectors.joining(", ")));
            }
            return a;
        }
    }

    /** {@code increasing}, {@code decreasing} or {@code random}. */
    static final class RingConverter extends ChoiceConverter<RingOrder> {
        /** The converter picocli instantiates. */
        RingConverter() {
            super("a ring order", byName(RingOrder.class));
        }
    }

    /** {@code all}, {@code lowest}, {@code highest} or {@code random} (a random subset). */
    static final class StartersConverter extends ChoiceConverter<Starters> {
        /** The converter picocli instantiates. */
        StartersConverter() {
            super("a choice of starters", names());
        }

        private static Map<String, Starters> names() {
            Map<String, Starters> m = new LinkedHashMap<>(byName(Starters.class));
            m.remove("random-subset");
            m.put("random", Starters.RANDOM_SUBSET);
            return m;
        }
    }

    private static String theory(ElectionResult r) {
        return r.expectedMessages().isPresent() ? Long.toString(r.expectedMessages().getAsLong()) : "n/a";
    }

    private String table(ElectionResult r, ElectionProtocolDefinition<?> definition) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "algorithm       %s%n", r.algorithm()));
        sb.append(String.format(Locale.ROOT, "nodes           %d%s%n", r.nodes(),
                r.crashed().isEmpty() ? "" : " (node " + nodes + " crashed)"));
        sb.append(String.format(Locale.ROOT, "ring            %s %s%n", ChoiceConverter.nameOf(ring), ids(r)));
        sb.append(String.format(Locale.ROOT, "starters        %s%n", r.starters().stream().map(id -> Long.toString(id.value()))
                .collect(Collectors.joining(",", "[", "]"))));
        sb.append(String.format(Locale.ROOT, "leader          %s%n", r.leader().map(id -> Long.toString(id.value())).orElse("none")));
        sb.append(String.format(Locale.ROOT, "messages        %d %s%n", r.messages(), r.messagesByType()));
        sb.append(String.format(Locale.ROOT, "steps           %d (%s delays)%n", r.steps(), delay));
        sb.append(String.format(Locale.ROOT, "theoryMessages  %s   formula: %s%n", theory(r), definition.messagesFormula()));
        sb.append(String.format(Locale.ROOT, "checker         %s%n", r.ok() ? "ok" : String.join("; ", r.violations())));
        return sb.toString();
    }

    private String json(ElectionResult r, ElectionProtocolDefinition<?> definition) {
        String byType = r.messagesByType().entrySet().stream()
                .map((Map.Entry<String, Long> e) -> "\"" + e.getKey() + "\": " + e.getValue())
                .collect(Collectors.joining(", ", "{", "}"));
        return String.format(Locale.ROOT,
                "{\"algorithm\": \"%s\", \"nodes\": %d, \"ring\": \"%s\", \"leader\": %s, \"messages\": %d, "
                        + "\"steps\": %d, \"theoryMessages\": %s, \"messagesByType\": %s, \"starters\": %d, "
                        + "\"crashedLeader\": %s, \"formula\": \"%s\", \"ok\": %s}%n",
                r.algorithm(), r.nodes(), ChoiceConverter.nameOf(ring), r.leader().map(id -> Long.toString(id.value())).orElse("null"),
                r.messages(), r.steps(), r.expectedMessages().isPresent() ? theory(r) : "null", byType,
                r.starters().size(), crashLeader, definition.messagesFormula(), r.ok());
    }

    private static String ids(ElectionResult r) {
        if (r.ring().size() > 16) {
            return "(" + r.ring().size() + " ids)";
        }
        return r.ring().stream().map(id -> Long.toString(id.value())).collect(Collectors.joining(",", "[", "]"));
    }
}
