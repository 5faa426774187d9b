package io.dlock.condition;

import io.dlock.protocol.ProtocolMessage;

/**
 * The messages of a {@link ConditionProtocol}. A waiter is named by its node (the sender or receiver) and
 * a number its node gave it ({@code waiter}, unique on that node for the node's life).
 */
public sealed interface ConditionMessage extends ProtocolMessage {

    /** A waiter's node asks the keeper to queue the waiter. */
    record Await(long waiter) implements ConditionMessage {
        public Await {
            requireWaiter(waiter);
        }
    }

    /** The keeper has queued the waiter: it may now release the lock. */
    record Registered(long waiter) implements ConditionMessage {
        public Registered {
            requireWaiter(waiter);
        }
    }

    /** The waiter gave up (timeout, interrupt) before it was woken: the keeper takes it out of the queue. */
    record Cancel(long waiter) implements ConditionMessage {
        public Cancel {
            requireWaiter(waiter);
        }
    }

    /** A holder of the lock signals: the keeper wakes the first waiter in its queue, or every one if {@code all}. */
    record Signal(boolean all) implements ConditionMessage {
    }

    /** The keeper wakes the waiter. */
    record Wake(long waiter) implements ConditionMessage {
        public Wake {
            requireWaiter(waiter);
        }
    }

    /** The woken waiter had already given up: the keeper passes the signal on to the next waiter. */
    record Declined(long waiter) implements ConditionMessage {
        public Declined {
            requireWaiter(waiter);
        }
    }

    private static void requireWaiter(long waiter) {
        if (waiter < 1) {
            throw new IllegalArgumentException("waiter must be >= 1, got " + waiter);
        }
    }
}
