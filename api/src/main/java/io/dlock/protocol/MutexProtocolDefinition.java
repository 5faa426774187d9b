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

    /** The option keys {@link ProtocolOptions} may set for this algorithm. */
    default Set<String> optionKeys() {
        return Set.of();
    }

    /**
     * Option values a live node ({@code LockService}) uses unless the configuration sets the key: the
     * defaults that fit dlock's transports, which are reliable within a view (JGroups retransmits and
     * orders; the in-memory network loses nothing) and report every crash and partition as a view change.
     * An algorithm whose seed adds its own recovery from a token lost <em>within</em> a view turns it off
     * here: on a partition, that recovery regenerates the token on the majority side before the cut-off
     * holder has learned that its view is no longer primary, so two nodes hold the lock in one epoch (found
     * with a link cut below the sockets). The simulator and the unit tests use {@link ProtocolOptions#NONE},
     * the source notes' defaults, where lost messages without a view change are part of the fault model. Empty by
     * default.
     */
    default ProtocolOptions runtimeDefaults() {
        return ProtocolOptions.NONE;
    }

    /**
     * Whether every request is granted in bounded time while the others keep contending (true for most).
     * False for an algorithm whose seed promises mutual exclusion but not starvation freedom, such as the
     * decentralized majority vote with random back-off: one node may win every round for a long time.
     * Tests that require each node to get the lock under sustained contention consult it.
     */
    default boolean starvationFree() {
        return true;
    }

    /**
     * Whether the algorithm falls silent when no node wants the lock (true for most). False for an
     * algorithm whose messages never stop, such as a token or a right that circulates forever (docs/algorithms.md
     * F30): drivers then end a run when its workload is done instead of when no message is left, and
     * {@link #expectedMessagesPerEntry} is a lower bound (the saturated figure), not an identity.
     */
    default boolean quiescentWhenIdle() {
        return true;
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

    /**
     * Whether the protocol created with {@code options} takes a coordinator from the runtime's leader election
     * ({@link MutexProtocol#onLeader}), so that the runtime must run the election of
     * {@code io.dlock.LockService#COORDINATOR_GROUP}. Default: false; the centralized algorithm with option
     * {@code coordinator=leader} says true.
     */
    default boolean followsLeader(ProtocolOptions options) {
        return false;
    }

    /** The codec of the algorithm's messages. */
    MessageCodec<M> codec();

    /**
     * One node's state machine.
     *
     * @throws IllegalArgumentException if an option is unknown or has a bad value
     */
    MutexProtocol<M> create(ProtocolContext<M> context);

    /** The message-count formula as docs/algorithms.md writes it, e.g. {@code 2(N-1)}. */
    String messagesFormula();

    /**
     * Expected messages per critical-section entry for {@code n} nodes when every node makes the same
     * number of requests (the simulator's workload) and no fault occurs.
     */
    double expectedMessagesPerEntry(int n);

    /** Synchronization delay under heavy load in message times T (docs/algorithms.md 0.4), or NaN if unbounded. */
    double expectedSyncDelay();
}
