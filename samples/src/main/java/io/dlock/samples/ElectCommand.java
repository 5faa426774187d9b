package io.dlock.samples;

import io.dlock.ElectionAlgorithm;
import io.dlock.inmemory.sim.DelayModel;
import io.dlock.inmemory.sim.ElectionResult;
import io.dlock.inmemory.sim.ElectionSimulation;
import io.dlock.inmemory.sim.ElectionSimulation.RingOrder;
import io.dlock.inmemory.sim.ElectionSimulation.Starters;
import io.dlock.protocol.ElectionProtocolDefinition;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code dlock elect}: runs one leader election on the deterministic simulator and prints the
 * leader, the messages (per type), the election time and SPEC.md's exact count for that setting.
 *
 * <p>By default every message takes one time unit, so {@code steps} is the election time of SPEC.md
 * 0.4 (all starters at t = 0); {@code --delay random} draws delays from 1 to 10 instead.
 */
@Command(name = "elect", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run one leader election on the simulator and compare its messages with SPEC.md's formula.")
final class ElectCommand implements Callable<Integer> {

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "5", description = "number of nodes n (1-4096, default ${DEFAULT-VALUE})")
    int nodes;

    @Option(names = "--algorithm", paramLabel = "NAME", defaultValue = "bully",
            description = "bully, ring, lelann, chang-roberts, franklin or peterson (default ${DEFAULT-VALUE})")
    String algorithm;

    @Option(names = "--ring", paramLabel = "ORDER", defaultValue = "increasing",
            description = "ids along the ring: increasing, decreasing or random (default ${DEFAULT-VALUE})")
    String ring;

    @Option(names = "--starters", paramLabel = "WHO", defaultValue = "all",
            description = "who initiates at t=0: all, lowest, highest or random (default ${DEFAULT-VALUE})")
    String starters;

    @Option(names = "--crash-leader", description = "crash the previous leader (node n) before the election")
    boolean crashLeader;

    @Option(names = "--delay", paramLabel = "MODEL", defaultValue = "unit", description = "unit (1 per message) or random (1-10) (default ${DEFAULT-VALUE})")
    String delay;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "seed of the run (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--format", defaultValue = "text", converter = Cli.FormatConverter.class, paramLabel = "FORMAT",
            description = "text (alias: table) or json (default ${DEFAULT-VALUE})")
    Cli.Format format;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintStream out = System.out;
        if (nodes < 1 || nodes > 4096) {
            return fail("--nodes must be between 1 and 4096, got " + nodes);
        }
        ElectionProtocolDefinition<?> definition;
        try {
            ElectionAlgorithm a = ElectionAlgorithm.fromConfigName(algorithm);
            definition = a.definition().orElseThrow(() -> new IllegalArgumentException(
                    "the view election sends no messages; choose a message-passing one"));
        } catch (IllegalArgumentException e) {
            return fail("--algorithm: " + e.getMessage());
        }
        RingOrder order;
        Starters who;
        try {
            order = RingOrder.valueOf(ring.toUpperCase(Locale.ROOT));
            who = starters.equals("random") ? Starters.RANDOM_SUBSET : Starters.valueOf(starters.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return fail("--ring must be increasing, decreasing or random, and --starters all, lowest, highest or random; got --ring "
                    + ring + " --starters " + starters);
        }
        if (!delay.equals("unit") && !delay.equals("random")) {
            return fail("--delay must be unit or random, got " + delay);
        }
        if (crashLeader && nodes < 2) {
            return fail("--crash-leader needs at least 2 nodes");
        }
        ElectionResult r = ElectionSimulation.of(definition).nodes(nodes).ring(order).starters(who)
                .crashLeader(crashLeader).delay(delay.equals("unit") ? DelayModel.unit() : DelayModel.uniform(1, 10))
                .seed(seed).run();
        out.print(format == Cli.Format.JSON ? json(r, definition) : table(r, definition));
        return r.ok() ? 0 : 1;
    }

    private int fail(String message) {
        throw Cli.usage(spec, message);
    }

    private static String theory(ElectionResult r) {
        return r.expectedMessages().isPresent() ? Long.toString(r.expectedMessages().getAsLong()) : "n/a";
    }

    private String table(ElectionResult r, ElectionProtocolDefinition<?> definition) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "algorithm       %s%n", r.algorithm()));
        sb.append(String.format(Locale.ROOT, "nodes           %d%s%n", r.nodes(),
                r.crashed().isEmpty() ? "" : " (node " + nodes + " crashed)"));
        sb.append(String.format(Locale.ROOT, "ring            %s %s%n", ring, ids(r)));
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
                r.algorithm(), r.nodes(), ring, r.leader().map(id -> Long.toString(id.value())).orElse("null"),
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
