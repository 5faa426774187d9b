package io.dlock.mutex.decentralized;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.mutex.common.PeerState;
import io.dlock.protocol.ProtocolMessage;

/**
 * The messages of {@link Decentralized}. Every message names the client's attempt it concerns (a
 * number the client increments for every attempt and never reuses), so duplicated and late messages
 * are recognised.
 */
public sealed interface DecentralizedMessage extends ProtocolMessage {

    /**
     * Rule 2: a client asks a replica coordinator for its vote.
     *
     * @param attempt the client's attempt number, at least 1
     * @param tries   which attempt of the current request this is, at least 1: a client refused now waits a
     *                back-off whose window grows with it, and a holder that refused it waits as long (courtesy)
     */
    record Request(long attempt, int tries) implements DecentralizedMessage {
        public Request {
            requireAtLeast("attempt", attempt, 1);
            requireAtLeast("tries", tries, 1);
        }
    }

    /**
     * Rule 3: the coordinator votes for the attempt.
     *
     * @param attempt the attempt voted for
     * @param fence   the highest fencing token the coordinator has seen
     */
    record Grant(long attempt, long fence) implements DecentralizedMessage {
        public Grant {
            requireAtLeast("attempt", attempt, 1);
            requireAtLeast("fence", fence, 0);
        }
    }

    /**
     * Rule 3: the coordinator's vote is taken; it answers at once and never queues.
     *
     * @param attempt  the attempt refused
     * @param reserved the coordinator keeps its vote for this client (the ageing rule, docs/algorithms.md A2
     *                 rule 11): the client retries after a short back-off instead of its exponential one
     */
    record Deny(long attempt, boolean reserved) implements DecentralizedMessage {
        public Deny {
            requireAtLeast("attempt", attempt, 1);
        }
    }

    /**
     * Rules 4 and 6: the client gives a vote back (after a failed attempt, or after the CS).
     *
     * @param attempt the attempt whose vote is returned
     * @param fence   the highest fencing token the client has seen
     */
    record Release(long attempt, long fence) implements DecentralizedMessage {
        public Release {
            requireAtLeast("attempt", attempt, 1);
            requireAtLeast("fence", fence, 0);
        }
    }

    /**
     * Epoch-barrier announcement after a view change or a start on first use (not in the source notes).
     *
     * @param attempt the client's current attempt if holding, else its last one (0 if none)
     * @param state   {@code HOLDING} if in the CS, {@code WAITING} if it has a request outstanding,
     *                else {@code IDLE}
     * @param fence   the highest fencing token the sender has seen
     */
    record State(long attempt, PeerState state, long fence) implements DecentralizedMessage {
        public State {
            requireAtLeast("attempt", attempt, 0);
            requireAtLeast("fence", fence, 0);
            if (state == null) {
                throw new IllegalArgumentException("state must not be null");
            }
            if (state == PeerState.HOLDING && attempt == 0) {
                throw new IllegalArgumentException("a HOLDING State needs an attempt, got 0");
            }
        }
    }
}
