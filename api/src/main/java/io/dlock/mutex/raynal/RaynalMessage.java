package io.dlock.mutex.raynal;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.mutex.common.PeerState;
import io.dlock.protocol.ProtocolMessage;
import java.util.Objects;

/**
 * The messages of {@link Raynal}: REQUEST and REPLY for the original algorithm, INFORM for the
 * source notes' modification, WAKE for a right parked after an idle round, STATE for the epoch barrier
 * after a view change.
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
     * INFORM modification, rule 10: the sender passed the right on to its successor; its new X.
     *
     * @param x     the sender's new X
     * @param pass  the sender's pass count in this epoch (decision in docs/algorithms.md: receivers keep the newest)
     * @param fence the highest fencing token the sender has seen
     * @param hop   the number of passes of the right in this epoch, this one included (every member keeps the
     *              newest pass it heard of, whoever sent it: that is where the right is)
     * @param idle  how many privileged nodes in a row, the sender included, passed the right without entering
     *              (0 when the sender leaves the CS or answers a WAKE); the successor parks the right when this
     *              reaches N-1 and it does not want the CS either (rule 11)
     * @param hurry the pass answers a WAKE: a node that does not want the CS passes it on with no idle pause
     */
    record Inform(PrimeRatio x, long pass, long fence, long hop, long idle, boolean hurry) implements RaynalMessage {
        public Inform {
            Objects.requireNonNull(x, "x");
            requireAtLeast("pass", pass, 1);
            requireAtLeast("fence", fence, 0);
            requireAtLeast("hop", hop, 1);
            requireAtLeast("idle", idle, 0);
        }
    }

    /**
     * Rule 11 (not in the source notes): a requester asks the node where the right is parked to move it again.
     *
     * @param hop the hop of the parking pass the requester heard of; a WAKE for an older position is ignored
     */
    record Wake(long hop) implements RaynalMessage {
        public Wake {
            requireAtLeast("hop", hop, 1);
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
