package io.dlock.election.bully;

import io.dlock.protocol.ProtocolMessage;
import io.dlock.NodeId;
import java.util.Objects;

/** The messages of {@link Bully}. The sender is the transport's {@code from}. */
public sealed interface BullyMessage extends ProtocolMessage {

    /** Rule 1: the sender runs an election and asks every higher id whether it is alive. */
    record Election() implements BullyMessage {
    }

    /** Rule 2: the source notes' "OK": the sender, a higher id, is alive and takes over. */
    record Ok() implements BullyMessage {
    }

    /**
     * Rule 5: the source notes' "I won".
     *
     * @param leader the new coordinator (the sender)
     */
    record Coordinator(NodeId leader) implements BullyMessage {
        public Coordinator {
            Objects.requireNonNull(leader, "leader");
        }
    }
}
