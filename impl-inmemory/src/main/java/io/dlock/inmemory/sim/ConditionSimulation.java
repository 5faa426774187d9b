package io.dlock.inmemory.sim;

import io.dlock.condition.ConditionProtocol;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.NodeId;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A deterministic simulation of a lock's conditions ({@link ConditionProtocol}) beside any mutual-exclusion
 * algorithm: a bounded buffer of {@link #capacity(int) capacity} items, one producer or consumer per node
 * (the roles drawn from the seed, at least one of each when N &gt; 1), producers putting
 * {@link #items(int) items} each, consumers taking them all. Conditions "not full" and "not empty" are
 * awaited and signalled as {@code ArrayBlockingQueue} does, with Mesa semantics: a woken client requests
 * the lock again and checks its predicate when granted.
 *
 * <p>The run is the {@link Simulation} given (algorithm, nodes, delays, think and hold times, faults,
 * limits, seed), whose nodes follow the buffer's clients instead of the workload's entry counts; its
 * checker still checks ME1, fences and grants. On top, {@link ConditionResult} reports: a buffer access
 * by a client that does not hold the lock; a signal at the keeper that does not wake exactly one queued
 * waiter (signalAll: all); a client still waiting at the end while its predicate holds (a lost wake-up);
 * and, in runs without faults, every client done and the condition messages per type equal to
 * {@link ConditionProtocol}'s formulas. With faults, a crashed node's client simply stops; the live ones
 * must not be left waiting while they could proceed.
 *
 * <p>Immutable, like {@link Simulation}: each setter returns a copy. Defaults: capacity 2, 4 items per
 * producer, signal (not signalAll), untimed awaits, timeout 30 when timed.
 */
public final class ConditionSimulation {

    /** Wraps a node's condition effects: a test fixture breaks the protocol with it. */
    @FunctionalInterface
    public interface EffectsDecorator {
        /** The effects {@code self}'s condition number {@code condition} (0 not full, 1 not empty) uses instead. */
        ConditionProtocol.Effects decorate(NodeId self, int condition, ConditionProtocol.Effects effects);
    }

    private static final Supplier<EffectsDecorator> AS_IS = () -> (self, condition, effects) -> effects;

    private final Simulation base;
    private final int capacity;
    private final int items;
    private final boolean signalAll;
    private final boolean timedAwaits;
    private final long awaitTimeout;
    private final Supplier<? extends EffectsDecorator> decorators;

    private ConditionSimulation(Simulation base, int capacity, int items, boolean signalAll, boolean timedAwaits,
                                long awaitTimeout, Supplier<? extends EffectsDecorator> decorators) {
        this.base = Objects.requireNonNull(base, "simulation");
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        if (items < 1) {
            throw new IllegalArgumentException("items per producer must be >= 1, got " + items);
        }
        if (awaitTimeout < 1) {
            throw new IllegalArgumentException("await timeout must be >= 1, got " + awaitTimeout);
        }
        this.capacity = capacity;
        this.items = items;
        this.signalAll = signalAll;
        this.timedAwaits = timedAwaits;
        this.awaitTimeout = awaitTimeout;
        this.decorators = Objects.requireNonNull(decorators, "decorators");
    }

    /** A bounded buffer on the nodes of {@code simulation} (its workload's think and hold times are used). */
    public static ConditionSimulation of(Simulation simulation) {
        return new ConditionSimulation(simulation, 2, 4, false, false, 30, AS_IS);
    }

    /** A copy whose buffer holds at most {@code c} items. */
    public ConditionSimulation capacity(int c) {
        return new ConditionSimulation(base, c, items, signalAll, timedAwaits, awaitTimeout, decorators);
    }

    /** A copy whose producers put {@code p} items each. */
    public ConditionSimulation items(int p) {
        return new ConditionSimulation(base, capacity, p, signalAll, timedAwaits, awaitTimeout, decorators);
    }

    /** A copy whose clients signal with signalAll instead of signal. */
    public ConditionSimulation signalAll(boolean on) {
        return new ConditionSimulation(base, capacity, items, on, timedAwaits, awaitTimeout, decorators);
    }

    /** A copy in which half of the awaits (drawn from the seed) give up after {@code timeout}; 0: none do. */
    public ConditionSimulation timedAwaits(long timeout) {
        return new ConditionSimulation(base, capacity, items, signalAll, timeout > 0, timeout > 0 ? timeout : 30,
                decorators);
    }

    /** A copy whose condition effects each run are wrapped by a decorator from {@code perRun}. */
    public ConditionSimulation decorate(Supplier<? extends EffectsDecorator> perRun) {
        return new ConditionSimulation(base, capacity, items, signalAll, timedAwaits, awaitTimeout, perRun);
    }

    /** A copy with run seed {@code seed}. */
    public ConditionSimulation seed(long seed) {
        return new ConditionSimulation(base.seed(seed), capacity, items, signalAll, timedAwaits, awaitTimeout,
                decorators);
    }

    /** The simulation the buffer runs on. */
    public Simulation base() {
        return base;
    }

    int capacity() {
        return capacity;
    }

    int items() {
        return items;
    }

    boolean signalAll() {
        return signalAll;
    }

    boolean timedAwaits() {
        return timedAwaits;
    }

    long awaitTimeout() {
        return awaitTimeout;
    }

    /** Runs once; never throws for what the protocols do (see {@link Simulation#run()}). */
    public ConditionResult run() {
        return start(base.definition());
    }

    private <M extends ProtocolMessage> ConditionResult start(MutexProtocolDefinition<M> definition) {
        BoundedBuffer buffer = new BoundedBuffer(this, decorators.get());
        SimulationResult result = new Engine<>(base, definition, buffer).run();
        return new ConditionResult(result, buffer.finish(base.faults().isEmpty() && result.error() == null),
                buffer.produced(), buffer.consumed(), buffer.awaits(), buffer.signals(), buffer.wakeUps(),
                buffer.giveUps(), buffer.sent(), toString());
    }

    /** One line of Java that rebuilds this configuration, seed included, and runs it. */
    @Override
    public String toString() {
        String simulation = base.toString();
        simulation = simulation.substring(0, simulation.length() - ".run()".length());
        return "ConditionSimulation.of(" + simulation + ").capacity(" + capacity + ").items(" + items + ").signalAll("
                + signalAll + ").timedAwaits(" + (timedAwaits ? awaitTimeout : 0) + "L)"
                + (decorators == AS_IS ? "" : ".decorate(...)") + ".run()";
    }
}
