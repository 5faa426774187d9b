package io.dlock.inmemory.sim;

import io.dlock.protocol.ProtocolOptions;

/**
 * The settings both simulation modes share, {@link Simulation} (mutual exclusion) and
 * {@link ElectionSimulation} (leader election), with their fluent setters: each setter returns a new
 * simulation of the same kind ({@code S}) that differs in that one setting, so one configuration
 * serves as a template for many seeds. The values live in one immutable {@code RunSettings}; a
 * subclass adds its own settings and runs.
 *
 * @param <S> the simulation kind the setters return
 */
public abstract sealed class AbstractSimulation<S extends AbstractSimulation<S>> permits Simulation, ElectionSimulation {

    /** The shared settings. */
    final RunSettings run;

    AbstractSimulation(RunSettings run) {
        this.run = run;
    }

    /** A copy of this simulation with {@code settings} instead of its shared settings. */
    abstract S with(RunSettings settings);

    /** Whether the algorithm simulated is only correct on FIFO channels. */
    abstract boolean algorithmRequiresFifo();

    /**
     * A copy with {@code n} nodes.
     *
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public S nodes(int n) {
        return with(run.withNodes(n));
    }

    /** Number of nodes N (in an election, a crashed previous leader included). */
    public int nodes() {
        return run.nodes();
    }

    /** A copy with run seed {@code seed}: every random choice of the run follows from it. */
    public S seed(long seed) {
        return with(run.withSeed(seed));
    }

    /** The run seed. */
    public long seed() {
        return run.seed();
    }

    /** A copy whose messages take delays from {@code model}. */
    public S delay(DelayModel model) {
        return with(run.withDelay(model));
    }

    /** The delay model. */
    public DelayModel delay() {
        return run.delay();
    }

    /** A copy whose protocols are created with {@code options}. */
    public S options(ProtocolOptions options) {
        return with(run.withOptions(options));
    }

    /** The protocol options as set (an election adds its timeout defaults to them, see its class comment). */
    public ProtocolOptions options() {
        return run.options();
    }

    /**
     * A copy that does (or does not) pass every network message through the algorithm's codec:
     * encode, count the bytes, and deliver the decoded copy. A codec that throws or whose round trip
     * changes the message is reported as a violation. Costs time; the benchmark turns it off.
     */
    public S encodeMessages(boolean on) {
        return with(run.withEncodeMessages(on));
    }

    /** Whether messages go through the codec. */
    public boolean encodeMessages() {
        return run.encodeMessages();
    }

    /**
     * With the guard on (the default), an algorithm that requires FIFO gets FIFO channels: each
     * ordered pair of nodes delivers in send order. Turned off, it runs on the same reordering
     * channels as every other algorithm, to show why it needs FIFO. Algorithms that do not require
     * FIFO always get reordering channels.
     */
    public S fifoGuard(boolean on) {
        return with(run.withFifoGuard(on));
    }

    /** Whether the FIFO guard is on. */
    public boolean fifoGuard() {
        return run.fifoGuard();
    }

    /** Whether this run has FIFO channels (the algorithm requires FIFO and the guard is on). */
    public boolean fifoChannels() {
        return algorithmRequiresFifo() && run.fifoGuard();
    }

    /**
     * A copy that processes at most {@code count} events (then reports the run as truncated).
     *
     * @throws IllegalArgumentException if {@code count} is not positive
     */
    public S maxEvents(long count) {
        return with(run.withMaxEvents(count));
    }

    /** The most events one run processes. */
    public long maxEvents() {
        return run.maxEvents();
    }
}
