package io.dlock.election.changroberts;

import io.dlock.protocol.ProtocolMessage;
import io.dlock.NodeId;
import java.util.Objects;

/** The messages of {@link ChangRoberts} (the source notes' modes {@code election} and {@code elected}). */
public sealed interface ChangRobertsMessage extends ProtocolMessage {

    /**
     * Rules 1-2: a candidate id.
     *
     * @param id the candidate
     */
    record Election(NodeId id) implements ChangRobertsMessage {
        public Election {
            Objects.requireNonNull(id, "id");
        }
    }

    /**
     * Rule 3: the result, sent by the leader and forwarded once round the ring.
     *
     * @param leader the elected node
     */
    record Elected(NodeId leader) implements ChangRobertsMessage {
        public Elected {
            Objects.requireNonNull(leader, "leader");
        }
    }
}
