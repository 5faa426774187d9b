package io.dlock.inmemory.sim;

import io.dlock.protocol.ElectionProtocolDefinition;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
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
 * <p>Nodes are {@code NodeId.of(1)} to {@code NodeId.of(N)} (docs/algorithms.md B1 numbers processes 1..n),
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
 * delays" (docs/algorithms.md B1, B2) holds; options set explicitly win.
 */
public final class ElectionSimulation extends AbstractSimulation<ElectionSimulation> {

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
        /** The live node with the highest id (with the old leader crashed: bully's best case, docs/algorithms.md BU-1). */
        HIGHEST,
        /** A random non-empty subset of the live nodes, drawn from the run's seed. */
        RANDOM_SUBSET
    }

    private final ElectionProtocolDefinition<?> definition;
    private final RingOrder ring;
    private final Starters starters;
    private final boolean crashLeader;
    private final long crashStarterAt;
    private final ElectionFaults faults;

    private ElectionSimulation(ElectionProtocolDefinition<?> definition, RunSettings run, RingOrder ring,
                               Starters starters, boolean crashLeader, long crashStarterAt, ElectionFaults faults) {
        super(run);
        this.definition = Objects.requireNonNull(definition, "definition");
        this.ring = Objects.requireNonNull(ring, "ring order");
        this.starters = Objects.requireNonNull(starters, "starters");
        this.crashLeader = crashLeader;
        this.crashStarterAt = crashStarterAt;
        this.faults = Objects.requireNonNull(faults, "faults");
    }

    /** A simulation of {@code definition} with the defaults listed in the class comment. */
    public static ElectionSimulation of(ElectionProtocolDefinition<?> definition) {
        return new ElectionSimulation(definition, RunSettings.DEFAULTS, RingOrder.INCREASING, Starters.ALL, false, -1, ElectionFaults.none());
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

    @Override
    boolean algorithmRequiresFifo() {
        return definition.requiresFifo();
    }

    /** The algorithm simulated. */
    public ElectionProtocolDefinition<?> definition() {
        return definition;
    }

    /** A copy with ring order {@code order}. */
    public ElectionSimulation ring(RingOrder order) {
        return new ElectionSimulation(definition, run, order, starters, crashLeader, crashStarterAt, faults);
    }

    /** The ring order. */
    public RingOrder ring() {
        return ring;
    }

    /** A copy with initiators {@code who}. */
    public ElectionSimulation starters(Starters who) {
        return new ElectionSimulation(definition, run, ring, who, crashLeader, crashStarterAt, faults);
    }

    /** The initiators. */
    public Starters starters() {
        return starters;
    }

    /** A copy in which the previous leader (node N) is (or is not) crashed before the election. */
    public ElectionSimulation crashLeader(boolean on) {
        return new ElectionSimulation(definition, run, ring, starters, on, crashStarterAt, faults);
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
        return new ElectionSimulation(definition, run, ring, starters, crashLeader, time, faults);
    }

    /** When the lowest initiator crashes, or -1 if it does not. */
    public long crashStarterAt() {
        return crashStarterAt;
    }

    /**
     * A copy with {@code faults}: crashes, view changes, partitions and message loss, with each node
     * driven per view as the runtime's election driver does (see {@link ElectionFaults}).
     */
    public ElectionSimulation faults(ElectionFaults faults) {
        return new ElectionSimulation(definition, run, ring, starters, crashLeader, crashStarterAt, faults);
    }

    /** The faults ({@link ElectionFaults#none()} by default). */
    public ElectionFaults faults() {
        return faults;
    }

    /**
     * The options the protocols get: {@link #options()} plus the timeout defaults, which the
     * definition gives ({@link ElectionProtocolDefinition#timeoutsFor}).
     */
    ProtocolOptions effectiveOptions() {
        ProtocolOptions o = run.options();
        Map<String, Long> timeouts = new TreeMap<>(definition.timeoutsFor(Math.max(1, run.delay().max())));
        for (Map.Entry<String, Long> timeout : timeouts.entrySet()) {
            if (!o.values().containsKey(timeout.getKey())) {
                o = o.with(timeout.getKey(), Long.toString(timeout.getValue()));
            }
        }
        return o;
    }

    /** The ring of this run, drawn from {@code random} when the order is random. */
    List<NodeId> ringOrder(SplittableRandom random) {
        int nodes = run.nodes();
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
                .append(".nodes(").append(run.nodes()).append(')')
                .append(".delay(").append(run.delay()).append(')')
                .append(".ring(ElectionSimulation.RingOrder.").append(ring).append(')')
                .append(".starters(ElectionSimulation.Starters.").append(starters).append(')');
        if (crashLeader) {
            code.append(".crashLeader(true)");
        }
        if (crashStarterAt >= 0) {
            code.append(".crashStarterAt(").append(crashStarterAt).append("L)");
        }
        if (!faults.isEmpty()) {
            code.append(".faults(").append(faults).append(')');
        }
        run.appendOptions(code);
        if (!run.encodeMessages()) {
            code.append(".encodeMessages(false)");
        }
        if (!run.fifoGuard()) {
            code.append(".fifoGuard(false)");
        }
        run.appendMaxEvents(code);
        return code.append(".seed(").append(run.seed()).append("L).run()").toString();
    }

    @Override
    ElectionSimulation with(RunSettings settings) {
        return new ElectionSimulation(definition, settings, ring, starters, crashLeader, crashStarterAt, faults);
    }

    static String ids(Collection<NodeId> ids) {
        return ids.stream().map(id -> Long.toString(id.value())).collect(Collectors.joining(",", "[", "]"));
    }

    static String sortedIds(Collection<NodeId> ids) {
        return ids(new TreeSet<>(ids));
    }
}
