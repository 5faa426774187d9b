package io.dlock.inmemory.sim;

import io.dlock.election.bully.BullyDefinition;
import io.dlock.election.ring.RingDefinition;
import io.dlock.protocol.ElectionProtocolDefinition;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.spi.NodeId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A deterministic simulation of one leader election among N nodes, in virtual time: the election
 * mode of the simulator, on the same {@link EventQueue}, {@link DelayModel} and seeded random
 * sources as {@link Simulation}. Builder style on an immutable value, like {@link Simulation}.
 *
 * <p>Nodes are {@code NodeId.of(1)} to {@code NodeId.of(N)} (SPEC.md B1 numbers processes 1..n),
 * all in one view of epoch 1. The ring order is {@link RingOrder#INCREASING} (ids increase along the
 * direction of travel, as in the runtime), {@link RingOrder#DECREASING} or {@link RingOrder#RANDOM}
 * (a permutation drawn from the seed). With {@link #crashLeader(boolean)} the previous leader, node
 * N, is crashed before the election starts (fail-stop: it handles nothing, and messages to it are
 * counted and lost). The starters initiate at time 0.
 *
 * <p>Defaults: 3 nodes, seed 0, {@link DelayModel#standard()}, increasing ring, every live node
 * starts, no crash, messages encoded through the codec, FIFO channels exactly when the algorithm
 * requires them. Bully's and the ring's timeouts default to multiples of the largest delay
 * (T_ok = 3&middot;max, T_coord = 6&middot;max, T_ack = 3&middot;max) so that "timeouts exceed all
 * delays" (SPEC.md B1, B2) holds; options set explicitly win.
 */
public final class ElectionSimulation {

    /** Order of the ids along the ring's direction of travel. */
    public enum RingOrder {
        /** 1, 2, ..., N: Chang-Roberts' best case, the runtime's order. */
        INCREASING,
        /** N, N-1, ..., 1: Chang-Roberts' worst case. */
        DECREASING,
        /** A uniformly random permutation drawn from the run's seed. */
        RANDOM
    }

    /** Who initiates, at time 0. */
    public enum Starters {
        /** Every live node. */
        ALL,
        /** The live node with the lowest id (bully's worst case). */
        LOWEST,
        /** The live node with the highest id (with the old leader crashed: bully's best case, SPEC.md BU-1). */
        HIGHEST,
        /** A random non-empty subset of the live nodes, drawn from the run's seed. */
        RANDOM_SUBSET
    }

    private final ElectionProtocolDefinition<?> definition;
    private int nodes = 3;
    private long seed;
    private DelayModel delay = DelayModel.standard();
    private RingOrder ring = RingOrder.INCREASING;
    private Starters starters = Starters.ALL;
    private boolean crashLeader;
    private long crashStarterAt = -1;
    private ProtocolOptions options = ProtocolOptions.NONE;
    private boolean encodeMessages = true;
    private boolean fifoGuard = true;
    private long maxEvents = 50_000_000L;

    private ElectionSimulation(ElectionProtocolDefinition<?> definition) {
        this.definition = Objects.requireNonNull(definition, "definition");
    }

    /** A simulation of {@code definition} with the defaults listed in the class comment. */
    public static ElectionSimulation of(ElectionProtocolDefinition<?> definition) {
        return new ElectionSimulation(definition);
    }

    /**
     * Runs the election once. Never throws for what the protocol does: an exception from a handler
     * ends the run and is reported as a violation.
     *
     * @throws IllegalArgumentException if the definition rejects the options, or the crash leaves
     *                                  no live node
     */
    public ElectionResult run() {
        return start(definition);
    }

    private <M extends ProtocolMessage> ElectionResult start(ElectionProtocolDefinition<M> typed) {
        return new ElectionEngine<>(this, typed).run();
    }

    /** The algorithm simulated. */
    public ElectionProtocolDefinition<?> definition() {
        return definition;
    }

    /**
     * A copy with {@code n} nodes.
     *
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public ElectionSimulation nodes(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("an election needs at least 1 node, got " + n);
        }
        ElectionSimulation c = copy();
        c.nodes = n;
        return c;
    }

    /** Number of nodes N, the crashed one included. */
    public int nodes() {
        return nodes;
    }

    /** A copy with run seed {@code seed}. */
    public ElectionSimulation seed(long seed) {
        ElectionSimulation c = copy();
        c.seed = seed;
        return c;
    }

    /** The run seed. */
    public long seed() {
        return seed;
    }

    /** A copy whose messages take delays from {@code model}. */
    public ElectionSimulation delay(DelayModel model) {
        ElectionSimulation c = copy();
        c.delay = Objects.requireNonNull(model, "delay model");
        return c;
    }

    /** The delay model. */
    public DelayModel delay() {
        return delay;
    }

    /** A copy with ring order {@code order}. */
    public ElectionSimulation ring(RingOrder order) {
        ElectionSimulation c = copy();
        c.ring = Objects.requireNonNull(order, "ring order");
        return c;
    }

    /** The ring order. */
    public RingOrder ring() {
        return ring;
    }

    /** A copy with initiators {@code who}. */
    public ElectionSimulation starters(Starters who) {
        ElectionSimulation c = copy();
        c.starters = Objects.requireNonNull(who, "starters");
        return c;
    }

    /** The initiators. */
    public Starters starters() {
        return starters;
    }

    /** A copy in which the previous leader (node N) is (or is not) crashed before the election. */
    public ElectionSimulation crashLeader(boolean on) {
        ElectionSimulation c = copy();
        c.crashLeader = on;
        return c;
    }

    /** Whether node N is crashed. */
    public boolean crashLeader() {
        return crashLeader;
    }

    /**
     * A copy in which the lowest initiator crashes at virtual time {@code time}, in the middle of the
     * election: it processes nothing more, messages to it are lost, and the run must end
     * with every other live node knowing the highest live id. Only the algorithms that tolerate
     * crashes during a run (bully, ring with list) are expected to survive it.
     *
     * @throws IllegalArgumentException if {@code time} is negative
     */
    public ElectionSimulation crashStarterAt(long time) {
        if (time < 0) {
            throw new IllegalArgumentException("virtual time must be >= 0, got " + time);
        }
        ElectionSimulation c = copy();
        c.crashStarterAt = time;
        return c;
    }

    /** When the lowest initiator crashes, or -1 if it does not. */
    public long crashStarterAt() {
        return crashStarterAt;
    }

    /** A copy whose protocols are created with {@code options}. */
    public ElectionSimulation options(ProtocolOptions options) {
        ElectionSimulation c = copy();
        c.options = Objects.requireNonNull(options, "options");
        return c;
    }

    /** The options as set (without the timeout defaults of the class comment). */
    public ProtocolOptions options() {
        return options;
    }

    /** The options the protocols get: {@link #options()} plus the timeout defaults. */
    ProtocolOptions effectiveOptions() {
        ProtocolOptions o = options;
        long max = Math.max(1, delay.max());
        if (definition instanceof BullyDefinition) {
            o = withDefault(o, BullyDefinition.OK_TIMEOUT, 3 * max);
            o = withDefault(o, BullyDefinition.COORDINATOR_TIMEOUT, 6 * max);
        } else if (definition instanceof RingDefinition) {
            o = withDefault(o, RingDefinition.ACK_TIMEOUT, 3 * max);
        }
        return o;
    }

    private static ProtocolOptions withDefault(ProtocolOptions o, String key, long value) {
        return o.values().containsKey(key) ? o : o.with(key, Long.toString(value));
    }

    /** A copy that does (or does not) pass every message through the codec and check the round trip. */
    public ElectionSimulation encodeMessages(boolean on) {
        ElectionSimulation c = copy();
        c.encodeMessages = on;
        return c;
    }

    /** Whether messages go through the codec. */
    public boolean encodeMessages() {
        return encodeMessages;
    }

    /**
     * A copy with the FIFO guard on (the default: an algorithm that requires FIFO gets FIFO channels)
     * or off (it runs on reordering channels, to show why it needs FIFO).
     */
    public ElectionSimulation fifoGuard(boolean on) {
        ElectionSimulation c = copy();
        c.fifoGuard = on;
        return c;
    }

    /** Whether this run has FIFO channels. */
    public boolean fifoChannels() {
        return definition.requiresFifo() && fifoGuard;
    }

    /**
     * A copy that processes at most {@code count} events.
     *
     * @throws IllegalArgumentException if {@code count} is not positive
     */
    public ElectionSimulation maxEvents(long count) {
        if (count <= 0) {
            throw new IllegalArgumentException("max events must be > 0, got " + count);
        }
        ElectionSimulation c = copy();
        c.maxEvents = count;
        return c;
    }

    /** The most events one run processes. */
    public long maxEvents() {
        return maxEvents;
    }

    /** The ring of this run, drawn from {@code random} when the order is random. */
    List<NodeId> ringOrder(SplittableRandom random) {
        List<NodeId> r = new ArrayList<>(nodes);
        for (int i = 1; i <= nodes; i++) {
            r.add(NodeId.of(i));
        }
        if (ring == RingOrder.DECREASING) {
            Collections.reverse(r);
        } else if (ring == RingOrder.RANDOM) {
            for (int i = nodes - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                NodeId t = r.get(i);
                r.set(i, r.get(j));
                r.set(j, t);
            }
        }
        return r;
    }

    /** The initiators of this run among {@code live} (ascending), drawn from {@code random} if random. */
    List<NodeId> starterSet(List<NodeId> live, SplittableRandom random) {
        switch (starters) {
            case LOWEST:
                return List.of(live.get(0));
            case HIGHEST:
                return List.of(live.get(live.size() - 1));
            case RANDOM_SUBSET:
                List<NodeId> chosen = new ArrayList<>();
                while (chosen.isEmpty()) {
                    for (NodeId id : live) {
                        if (random.nextBoolean()) {
                            chosen.add(id);
                        }
                    }
                }
                return chosen;
            default:
                return live;
        }
    }

    /** One line of Java that rebuilds this configuration, seed included, and runs it. */
    @Override
    public String toString() {
        StringBuilder code = new StringBuilder("ElectionSimulation.of(new ")
                .append(definition.getClass().getCanonicalName()).append("())")
                .append(".nodes(").append(nodes).append(')')
                .append(".delay(").append(delay).append(')')
                .append(".ring(ElectionSimulation.RingOrder.").append(ring).append(')')
                .append(".starters(ElectionSimulation.Starters.").append(starters).append(')');
        if (crashLeader) {
            code.append(".crashLeader(true)");
        }
        if (crashStarterAt >= 0) {
            code.append(".crashStarterAt(").append(crashStarterAt).append("L)");
        }
        if (!options.values().isEmpty()) {
            code.append(".options(ProtocolOptions.NONE");
            for (Map.Entry<String, String> e : new TreeMap<>(options.values()).entrySet()) {
                code.append(".with(\"").append(e.getKey()).append("\", \"").append(e.getValue()).append("\")");
            }
            code.append(')');
        }
        if (!encodeMessages) {
            code.append(".encodeMessages(false)");
        }
        if (!fifoGuard) {
            code.append(".fifoGuard(false)");
        }
        if (maxEvents != 50_000_000L) {
            code.append(".maxEvents(").append(maxEvents).append("L)");
        }
        return code.append(".seed(").append(seed).append("L).run()").toString();
    }

    private ElectionSimulation copy() {
        ElectionSimulation c = new ElectionSimulation(definition);
        c.nodes = nodes;
        c.seed = seed;
        c.delay = delay;
        c.ring = ring;
        c.starters = starters;
        c.crashLeader = crashLeader;
        c.crashStarterAt = crashStarterAt;
        c.options = options;
        c.encodeMessages = encodeMessages;
        c.fifoGuard = fifoGuard;
        c.maxEvents = maxEvents;
        return c;
    }

    static String ids(Collection<NodeId> ids) {
        return ids.stream().map(id -> Long.toString(id.value())).collect(Collectors.joining(",", "[", "]"));
    }

    static String sortedIds(Collection<NodeId> ids) {
        return ids(new TreeSet<>(ids));
    }
}
