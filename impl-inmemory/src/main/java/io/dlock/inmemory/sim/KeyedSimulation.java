package io.dlock.inmemory.sim;

import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import java.util.Objects;

/**
 * A simulation of one lock per business key with reclamation on: N nodes, M lock names, each node's client
 * takes and releases names drawn from a Zipf distribution (a few hot keys, a long tail of cold ones), while
 * every node sweeps its idle locks and the cluster reclaims them with the runtime's own reclamation protocol
 * ({@link io.dlock.reclaim.Reclamation}); a name used again after it was reclaimed starts from nothing on every
 * node, as on first use, fenced above the node's floor. Deterministic: a run is a function of its settings and
 * its seed.
 *
 * <p>What a run checks, for every name, across every incarnation of its state: at most one holder at a time,
 * fencing tokens strictly increasing in grant order, and every request granted. It also checks that the
 * reclamation converges: once the clients are done and the locks have been idle for the expiry, every node's
 * state for every name is gone. What it leaves out: membership changes and message faults (the view is fixed
 * and the network reliable; the single-lock {@link Simulation} covers those).
 *
 * <pre>{@code
 * KeyedResult r = KeyedSimulation.of(AlgorithmDefinitions.mutex(MutexAlgorithm.RICART_AGRAWALA)).nodes(4).names(200).zipf(1.0)
 *         .seed(7).run();
 * assert r.passed() : r.describe();
 * }</pre>
 */
public final class KeyedSimulation {

    private final MutexProtocolDefinition<?> definition;
    private ProtocolOptions options = ProtocolOptions.NONE;
    private int nodes = 3;
    private int names = 100;
    private double zipf = 1.0;
    private int requestsPerNode = 20;
    private long thinkMax = 20;
    private long holdMax = 5;
    private DelayModel delay = DelayModel.standard();
    private long idleExpiry = 60;
    private long sweepEvery = 20;
    private long seed;
    private long maxTime = 2_000_000;

    private KeyedSimulation(MutexProtocolDefinition<?> definition) {
        this.definition = Objects.requireNonNull(definition, "definition");
    }

    /** A keyed simulation of {@code definition} with the defaults: 3 nodes, 100 names, Zipf 1.0, 20 requests each. */
    public static KeyedSimulation of(MutexProtocolDefinition<?> definition) {
        return new KeyedSimulation(definition);
    }

    /** The algorithm's options (validated when the run starts). */
    public KeyedSimulation options(ProtocolOptions value) {
        this.options = Objects.requireNonNull(value, "options");
        return this;
    }

    /** Number of nodes, 1 to 64. */
    public KeyedSimulation nodes(int value) {
        this.nodes = within("nodes", value, 1, 64);
        return this;
    }

    /** Number of distinct lock names, 1 to 1 000 000. */
    public KeyedSimulation names(int value) {
        this.names = within("names", value, 1, 1_000_000);
        return this;
    }

    /** The Zipf exponent of the key distribution, 0 (uniform) to 4: name k (from 1) has weight {@code 1/k^s}. */
    public KeyedSimulation zipf(double value) {
        if (!(value >= 0 && value <= 4)) {
            throw new IllegalArgumentException("zipf exponent must be within [0, 4], got " + value);
        }
        this.zipf = value;
        return this;
    }

    /** Requests each node's client makes, one at a time, 0 to 100 000. */
    public KeyedSimulation requestsPerNode(int value) {
        this.requestsPerNode = within("requests per node", value, 0, 100_000);
        return this;
    }

    /** Longest think time before a request and longest hold, in time units (each drawn uniformly from 0). */
    public KeyedSimulation thinkAndHold(long think, long hold) {
        this.thinkMax = within("think", think, 0, 1_000_000);
        this.holdMax = within("hold", hold, 0, 1_000_000);
        return this;
    }

    /** The message delay model. */
    public KeyedSimulation delay(DelayModel value) {
        this.delay = Objects.requireNonNull(value, "delay");
        return this;
    }

    /**
     * How long a name must be unused on a node before it nominates it, and how often it looks, in time units
     * (expiry at least 1; sweep period 1 to the expiry).
     */
    public KeyedSimulation idleExpiry(long expiry, long sweepPeriod) {
        this.idleExpiry = within("idle expiry", expiry, 1, 1_000_000);
        this.sweepEvery = within("sweep period", sweepPeriod, 1, expiry);
        return this;
    }

    /** The seed: the same settings and seed give the same run. */
    public KeyedSimulation seed(long value) {
        this.seed = value;
        return this;
    }

    /** Virtual time after which a run that has not finished stops and fails (at least 1). */
    public KeyedSimulation maxTime(long value) {
        this.maxTime = within("max time", value, 1, Long.MAX_VALUE);
        return this;
    }

    /** Runs the simulation. */
    public KeyedResult run() {
        definition.validateOptions(options);
        return start(definition);
    }

    private <M extends ProtocolMessage> KeyedResult start(MutexProtocolDefinition<M> d) {
        KeyedRunSettings settings = new KeyedRunSettings(nodes, names, zipf, requestsPerNode, thinkMax, holdMax, delay,
                idleExpiry, sweepEvery, seed, maxTime);
        return new KeyedRun<>(d, options, settings).run();
    }

    /** This simulation as code that replays it. */
    @Override
    public String toString() {
        return "KeyedSimulation.of(new " + definition.getClass().getSimpleName() + "()).nodes(" + nodes + ").names("
                + names + ").zipf(" + zipf + ").requestsPerNode(" + requestsPerNode + ").thinkAndHold(" + thinkMax
                + ", " + holdMax + ").delay(" + delay + ").idleExpiry(" + idleExpiry + ", " + sweepEvery + ").seed("
                + seed + "L).run()";
    }

    private static int within(String what, int value, int min, int max) {
        return (int) within(what, (long) value, min, max);
    }

    private static long within(String what, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(what + " must be within [" + min + ", " + max + "], got " + value);
        }
        return value;
    }
}
