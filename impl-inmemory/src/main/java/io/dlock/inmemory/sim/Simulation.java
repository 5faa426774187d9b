package io.dlock.inmemory.sim;

import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A deterministic simulation of N nodes running one mutual-exclusion algorithm for one lock, in
 * virtual time: the configuration of a run, and {@link #run()} to execute it.
 *
 * <p>Builder style on an immutable value: each setter returns a new {@code Simulation}, so one
 * configuration can serve as a template for many seeds ({@link Simulations#runSeeds}). Nodes are
 * {@code NodeId.of(0)} to {@code NodeId.of(N-1)}, the initial view is {@code View.ofRange(1, N)},
 * and node {@code i}'s protocol is created with
 * {@code definition.create(new ProtocolContext<>(self, view, effectsOfThatNode, options))}.
 *
 * <p>Determinism: {@link #run()} uses no thread, no wall clock and no unseeded randomness; the same
 * configuration (including the seed) gives the same {@link SimulationResult}, down to its
 * {@link SimulationResult#traceHash() trace hash}. Virtual time is a {@code long} in the unit of
 * the protocols' timer delays (nominally milliseconds).
 *
 * <p>Defaults: 3 nodes, seed 0, {@link DelayModel#standard()} delays, {@code Workload.perNode(3)},
 * no faults, no options, messages encoded and decoded through the algorithm's codec, FIFO channels
 * exactly when the algorithm requires them, at most 50 million events, and
 * {@link #stopWhenWorkloadDone} exactly when the algorithm is not
 * {@link MutexProtocolDefinition#quiescentWhenIdle() quiescent when idle}.
 *
 * <p>{@link #toString()} is one line of Java that rebuilds this configuration (the replay line of
 * {@link SimulationResult#describeFailure()}); it assumes the definition class has a public no-argument
 * constructor, as the registered ones do.
 */
public final class Simulation extends AbstractSimulation<Simulation> {

    private final MutexProtocolDefinition<?> definition;
    private final Workload workload;
    private final FaultPlan faults;
    private final boolean stopWhenWorkloadDone;
    private final long maxTime;
    /** Invariants checked after the checker's own. */
    private final List<Invariant> invariants;

    private Simulation(MutexProtocolDefinition<?> definition, RunSettings run, Workload workload, FaultPlan faults,
                       boolean stopWhenWorkloadDone, long maxTime, List<Invariant> invariants) {
        super(run);
        this.definition = Objects.requireNonNull(definition, "definition");
        this.workload = Objects.requireNonNull(workload, "workload");
        this.faults = Objects.requireNonNull(faults, "fault plan");
        this.stopWhenWorkloadDone = stopWhenWorkloadDone;
        if (maxTime < 0) {
            throw new IllegalArgumentException("max time must be >= 0, got " + maxTime);
        }
        this.maxTime = maxTime;
        this.invariants = List.copyOf(invariants);
    }

    /** A simulation of {@code definition} with the defaults listed in the class comment. */
    public static Simulation of(MutexProtocolDefinition<?> definition) {
        // a circulating token never drains the queue
        return new Simulation(definition, RunSettings.DEFAULTS, Workload.perNode(3), FaultPlan.none(),
                !Objects.requireNonNull(definition, "definition").quiescentWhenIdle(), Long.MAX_VALUE, List.of());
    }

    /**
     * Runs the simulation once and returns what the checker and the counters saw. Never throws for
     * what the protocol does: an exception from a handler ends the run and is reported in
     * {@link SimulationResult#error()}.
     *
     * @throws IllegalArgumentException if a fault names a node outside {@code 0..N-1}, or the
     *                                  definition rejects the options
     */
    public SimulationResult run() {
        return start(definition, null);
    }

    /**
     * Runs the simulation once like {@link #run()}, handing {@code log} one line per processed event
     * ({@code t=<time> event #<k> <kind> ...}), in order, for debugging a failing seed. The log
     * changes nothing in the run.
     */
    public SimulationResult run(Consumer<String> log) {
        Objects.requireNonNull(log, "log");
        return start(definition, log);
    }

    /**
     * Runs the simulation once like {@link #run()}, telling {@code listener} every message sent and
     * delivered, every request, grant, release and timer, in order (what {@code dlock trace} prints).
     * The listener changes nothing in the run: the result, trace hash included, equals {@link #run()}'s.
     */
    public SimulationResult run(SimulationListener listener) {
        Objects.requireNonNull(listener, "listener");
        return observe(definition, listener);
    }

    private <M extends ProtocolMessage> SimulationResult observe(MutexProtocolDefinition<M> typed,
                                                                 SimulationListener listener) {
        return new Engine<>(this, typed).run(listener);
    }

    private <M extends ProtocolMessage> SimulationResult start(MutexProtocolDefinition<M> typed,
                                                               Consumer<String> log) {
        return new Engine<>(this, typed).run(log);
    }

    @Override
    boolean algorithmRequiresFifo() {
        return definition.requiresFifo();
    }

    /** The algorithm simulated. */
    public MutexProtocolDefinition<?> definition() {
        return definition;
    }

    /** A copy whose nodes follow {@code workload}. */
    public Simulation workload(Workload workload) {
        return new Simulation(definition, run, workload, faults, stopWhenWorkloadDone, maxTime, invariants);
    }

    /** The workload. */
    public Workload workload() {
        return workload;
    }

    /** A copy that injects {@code plan}. */
    public Simulation faults(FaultPlan plan) {
        return new Simulation(definition, run, workload, plan, stopWhenWorkloadDone, maxTime, invariants);
    }

    /** The fault plan. */
    public FaultPlan faults() {
        return faults;
    }

    /**
     * A copy that ends the run as soon as every node has finished its workload, instead of
     * draining the queue (for algorithms whose messages never stop, such as a circulating token).
     */
    public Simulation stopWhenWorkloadDone(boolean on) {
        return new Simulation(definition, run, workload, faults, on, maxTime, invariants);
    }

    /** Whether the run ends when the workload is done. */
    public boolean stopWhenWorkloadDone() {
        return stopWhenWorkloadDone;
    }

    /**
     * A copy that processes no event after virtual time {@code time} (the run is then reported as
     * {@link SimulationResult#truncated() truncated}).
     *
     * @throws IllegalArgumentException if {@code time} is negative
     */
    public Simulation maxTime(long time) {
        return new Simulation(definition, run, workload, faults, stopWhenWorkloadDone, time, invariants);
    }

    /** The last virtual instant processed. */
    public long maxTime() {
        return maxTime;
    }

    /**
     * A copy that also checks {@code invariant} at every grant, after the checker's own (one holder,
     * increasing fences, a grant answers a request) and those added before; a violation counts in
     * {@link SimulationResult#addedViolations()} and fails {@link SimulationResult#ok()}. The replay
     * line ({@link #toString()}) leaves added invariants out: add them again when replaying.
     */
    public Simulation check(Invariant invariant) {
        Objects.requireNonNull(invariant, "invariant");
        List<Invariant> more = new ArrayList<>(invariants);
        more.add(invariant);
        return new Simulation(definition, run, workload, faults, stopWhenWorkloadDone, maxTime, more);
    }

    /** The invariants added with {@link #check}, in order. */
    public List<Invariant> invariants() {
        return invariants;
    }

    /** One line of Java that rebuilds this configuration, seed included, and runs it. */
    @Override
    public String toString() {
        StringBuilder code = new StringBuilder("Simulation.of(new ")
                .append(className(definition.getClass())).append("())")
                .append(".nodes(").append(run.nodes()).append(')')
                .append(".delay(").append(run.delay()).append(')')
                .append(".workload(").append(workload).append(')');
        if (!faults.isEmpty()) {
            code.append(".faults(").append(faults).append(')');
        }
        run.appendOptions(code);
        code.append(".encodeMessages(").append(run.encodeMessages()).append(')');
        if (!run.fifoGuard()) {
            code.append(".fifoGuard(false)");
        }
        if (stopWhenWorkloadDone == definition.quiescentWhenIdle()) {
            code.append(".stopWhenWorkloadDone(").append(stopWhenWorkloadDone).append(")");
        }
        if (maxTime != Long.MAX_VALUE) {
            code.append(".maxTime(").append(maxTime).append("L)");
        }
        run.appendMaxEvents(code);
        return code.append(".seed(").append(run.seed()).append("L).run()").toString();
    }

    private static String className(Class<?> type) {
        String canonical = type.getCanonicalName();
        return canonical != null ? canonical : type.getName();
    }

    @Override
    Simulation with(RunSettings settings) {
        return new Simulation(definition, settings, workload, faults, stopWhenWorkloadDone, maxTime, invariants);
    }
}
