package io.dlock.mutex.raynal;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.mutex.common.PeerState;
import io.dlock.protocol.ProtocolMessage;
import java.util.Objects;

/**
 * The messages of {@link Raynal}: REQUEST and REPLY for the original algorithm, INFORM for the
 * source notes' modification, STATE for the epoch barrier after a view change.
 */
public sealed interface RaynalMessage extends ProtocolMessage {

    /**
     * Original rule 1: a node asks every other node for its X.
     *
     * @param attempt the sender's attempt number (never reused), at least 1
     */
    record Request(long attempt) implements RaynalMessage {
        public Request {
            requireAtLeast("attempt", attempt, 1);
        }
    }

    /**
     * Original rule 2: the sender's current X, sent at once (even from the CS).
     *
     * @param attempt the attempt answered
     * @param x       the sender's X
     * @param fence   the highest fencing token the sender has seen
     */
    record Reply(long attempt, PrimeRatio x, long fence) implements RaynalMessage {
        public Reply {
            requireAtLeast("attempt", attempt, 1);
            Objects.requireNonNull(x, "x");
            requireAtLeast("fence", fence, 0);
        }
    }

    /**
     * INFORM modification, rule 10: the sender passed the right on; its new X.
     *
     * @param x     the sender's new X
     * @param pass  the sender's pass count in this epoch (decision in docs/algorithms.md: receivers keep the newest)
     * @param fence the highest fencing token the sender has seen
     */
    record Inform(PrimeRatio x, long pass, long fence) implements RaynalMessage {
        public Inform {
            Objects.requireNonNull(x, "x");
            requireAtLeast("pass", pass, 1);
            requireAtLeast("fence", fence, 0);
        }
    }

    /**
     * Epoch-barrier announcement after a view change or a start on first use (not in the source notes).
     *
     * @param state the sender's state
     * @param fence the highest fencing token the sender has seen
     */
    record State(PeerState state, long fence) implements RaynalMessage {
        public State {
            Objects.requireNonNull(state, "state");
            requireAtLeast("fence", fence, 0);
        }
    }
}
