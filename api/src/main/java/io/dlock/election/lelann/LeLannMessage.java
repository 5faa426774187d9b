package io.dlock.election.lelann;

import io.dlock.protocol.ProtocolMessage;
import io.dlock.NodeId;
import java.util.Objects;

/** The messages of {@link LeLann}: only ids travel. */
public sealed interface LeLannMessage extends ProtocolMessage {

    /**
     * An id going round the ring.
     *
     * @param id the id of the node that put it on the ring
     */
    record Id(NodeId id) implements LeLannMessage {
        public Id {
            Objects.requireNonNull(id, "id");
        }
    }
}
