package io.dlock.inmemory.sim;

import io.dlock.protocol.ProtocolOptions;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The settings {@link Simulation} and {@link ElectionSimulation} share, as one immutable value: each
 * of their setters for these is a one-liner over a {@code with...} method here, which checks the
 * value.
 *
 * @param nodes          number of nodes N, at least 1
 * @param seed           the run seed: every random choice of the run follows from it
 * @param delay          the message delay model
 * @param options        the protocols' options
 * @param encodeMessages whether every network message goes through the algorithm's codec
 * @param fifoGuard      whether an algorithm that requires FIFO gets FIFO channels
 * @param maxEvents      the most events one run processes, positive
 */
record RunSettings(int nodes, long seed, DelayModel delay, ProtocolOptions options, boolean encodeMessages,
                   boolean fifoGuard, long maxEvents) {

    /** The default event limit. */
    static final long MAX_EVENTS = 50_000_000L;

    /** 3 nodes, seed 0, standard delays, no options, messages encoded, FIFO guard on, the default event limit. */
    static final RunSettings DEFAULTS = new RunSettings(3, 0, DelayModel.standard(), ProtocolOptions.NONE, true,
            true, MAX_EVENTS);

    RunSettings {
        if (nodes < 1) {
            throw new IllegalArgumentException("a simulation needs at least 1 node, got " + nodes);
        }
        Objects.requireNonNull(delay, "delay model");
        Objects.requireNonNull(options, "options");
        if (maxEvents <= 0) {
            throw new IllegalArgumentException("max events must be > 0, got " + maxEvents);
        }
    }

    RunSettings withNodes(int n) {
        return new RunSettings(n, seed, delay, options, encodeMessages, fifoGuard, maxEvents);
    }

    RunSettings withSeed(long s) {
        return new RunSettings(nodes, s, delay, options, encodeMessages, fifoGuard, maxEvents);
    }

    RunSettings withDelay(DelayModel model) {
        return new RunSettings(nodes, seed, model, options, encodeMessages, fifoGuard, maxEvents);
    }

    RunSettings withOptions(ProtocolOptions o) {
        return new RunSettings(nodes, seed, delay, o, encodeMessages, fifoGuard, maxEvents);
    }

    RunSettings withEncodeMessages(boolean on) {
        return new RunSettings(nodes, seed, delay, options, on, fifoGuard, maxEvents);
    }

    RunSettings withFifoGuard(boolean on) {
        return new RunSettings(nodes, seed, delay, options, encodeMessages, on, maxEvents);
    }

    RunSettings withMaxEvents(long count) {
        return new RunSettings(nodes, seed, delay, options, encodeMessages, fifoGuard, count);
    }

    /** Appends the replay code of the options ({@code .options(ProtocolOptions.NONE.with(...))}), if any. */
    void appendOptions(StringBuilder code) {
        if (!options.values().isEmpty()) {
            code.append(".options(ProtocolOptions.NONE");
            for (Map.Entry<String, String> e : new TreeMap<>(options.values()).entrySet()) {
                code.append(".with(\"").append(e.getKey()).append("\", \"").append(e.getValue()).append("\")");
            }
            code.append(')');
        }
    }

    /** Appends the replay code of a non-default event limit. */
    void appendMaxEvents(StringBuilder code) {
        if (maxEvents != MAX_EVENTS) {
            code.append(".maxEvents(").append(maxEvents).append("L)");
        }
    }
}
