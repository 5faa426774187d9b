package io.dlock.protocol;

import java.util.Set;

/**
 * Names one mutual-exclusion algorithm and declares its characteristics, its codec and its
 * theoretical costs; creates one node's {@link MutexProtocol}. Every algorithm package has exactly
 * one; {@link io.dlock.MutexAlgorithm} lists them, and tests, the CLI and the benchmarks enumerate
 * that list instead of hard-coding algorithms.
 *
 * @param <M> the algorithm's message type
 */
public interface MutexProtocolDefinition<M extends ProtocolMessage> {

    /** The kebab-case name used in configuration, e.g. {@code ricart-agrawala}. */
    String name();

    /** Permission, quorum, token or central. */
    ProtocolFamily family();

    /** Whether the algorithm is only correct on FIFO channels (then it refuses a non-FIFO transport). */
    boolean requiresFifo();

    /**
     * Whether the algorithm's traffic stops when nobody requests (true for most). False for those whose
     * right or token circulates forever (SPEC.md F30: token ring, Raynal's INFORM version): a
     * simulation of them must stop when the workload is done instead of waiting for the network to
     * drain.
     */
    default boolean quiescent() {
        return true;
    }

    /** The option keys {@link ProtocolOptions} may set for this algorithm. */
    default Set<String> optionKeys() {
        return Set.of();
    }

    /**
     * Checks the option values without creating a protocol, so that a bad configuration fails at
     * start. The default accepts only the declared keys, each with the value {@code true} or
     * {@code false}; an algorithm with other kinds of options overrides it.
     *
     * @throws IllegalArgumentException naming the key, the value and what is allowed
     */
    default void validateOptions(ProtocolOptions options) {
        options.requireKeysIn(name(), optionKeys());
        for (String key : options.values().keySet()) {
            options.getBoolean(key, false);
        }
    }

    /** The codec of the algorithm's messages. */
    MessageCodec<M> codec();

    /**
     * One node's state machine.
     *
     * @throws IllegalArgumentException if an option is unknown or has a bad value
     */
    MutexProtocol<M> create(ProtocolContext<M> context);

    /** The message-count formula as SPEC.md writes it, e.g. {@code 2(N-1)}. */
    String messagesFormula();

    /**
     * Expected messages per critical-section entry for {@code n} nodes when every node makes the same
     * number of requests (the simulator's workload) and no fault occurs.
     */
    double expectedMessagesPerEntry(int n);

    /** Synchronization delay under heavy load in message times T (SPEC.md 0.4), or NaN if unbounded. */
    double expectedSyncDelay();
}
