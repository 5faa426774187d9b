package io.dlock.inmemory.sim;

import io.dlock.condition.ConditionMessage;
import io.dlock.protocol.ProtocolMessage;
import java.util.Objects;

/**
 * A condition message on the simulated network, with the number of the condition it belongs to (a
 * condition simulation runs several conditions of one lock). It travels beside the algorithm's own
 * messages, with the same delays, faults and epochs, but is never passed through the algorithm's codec.
 *
 * @param condition which condition of the lock, from 0
 * @param message   the condition protocol's message
 */
record ConditionEnvelope(int condition, ConditionMessage message) implements ProtocolMessage {

    ConditionEnvelope {
        if (condition < 0) {
            throw new IllegalArgumentException("condition must be >= 0, got " + condition);
        }
        Objects.requireNonNull(message, "message");
    }
}
