package io.dlock.protocol;

import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Names one leader-election algorithm, declares its characteristics, codec and theoretical costs,
 * and creates one node's {@link ElectionProtocol}. {@link io.dlock.ElectionAlgorithm} lists them;
 * tests and the {@code elect} command enumerate that list.
 *
 * @param <M> the algorithm's message type
 */
public interface ElectionProtocolDefinition<M extends ProtocolMessage> {

    /** The kebab-case name used in configuration, e.g. {@code chang-roberts}. */
    String name();

    /** Whether the algorithm is only correct on FIFO channels. */
    boolean requiresFifo();

    /** The links the algorithm uses. */
    ElectionTopology topology();

    /**
     * Whether no message reaches a node after it learned the leader (docs/algorithms.md NV-1, PE-3): the
     * simulator checks it for the algorithms that declare it.
     */
    default boolean quietAfterLeader() {
        return false;
    }

    /** The option keys (all durations in milliseconds) {@link ProtocolOptions} may set. */
    default Set<String> optionKeys() {
        return Set.of();
    }

    /**
     * The timeout options (keys of {@link #optionKeys()}, values in milliseconds) a simulator gives
     * the algorithm, unless set explicitly, when no message takes longer than {@code maxDelay}
     * milliseconds: long enough that every timeout exceeds every delay, which the algorithm's message
     * counts assume. Empty (the default) for an algorithm without timeouts.
     *
     * @param maxDelay the largest message delay, at least 1
     */
    default Map<String, Long> timeoutsFor(long maxDelay) {
        return Map.of();
    }

    /** The codec of the algorithm's messages. */
    MessageCodec<M> codec();

    /**
     * One node's state machine for one run.
     *
     * @throws IllegalArgumentException if an option is unknown or has a bad value
     */
    ElectionProtocol<M> create(ElectionContext<M> context);

    /** The message-count formula as docs/algorithms.md writes it, e.g. {@code n^2}. */
    String messagesFormula();

    /**
     * The exact number of messages (all types, messages to crashed nodes included, docs/algorithms.md 0.4) the
     * algorithm sends in {@code scenario} when every live message is delivered and timeouts exceed all
     * delays, or empty when docs/algorithms.md gives no exact count for that setting.
     */
    OptionalLong expectedMessages(ElectionScenario scenario);
}
