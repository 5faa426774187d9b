package io.dlock.election.franklin;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.protocol.ProtocolMessage;
import io.dlock.NodeId;
import java.util.Objects;

/** The messages of {@link Franklin}. */
public sealed interface FranklinMessage extends ProtocolMessage {

    /**
     * Rules 1-3: an active node's id for one phase, travelling in one direction until the next
     * active node.
     *
     * @param id        the active node's id
     * @param phase     the phase, at least 1
     * @param clockwise whether it travels in the ring's direction (towards successors); the
     *                  receiver's side cannot be told from the sender when both neighbours are the
     *                  same node (n = 2)
     */
    record Probe(NodeId id, long phase, boolean clockwise) implements FranklinMessage {
        public Probe {
            Objects.requireNonNull(id, "id");
            requireAtLeast("phase", phase, 1);
        }
    }

    /**
     * Rule 4: the result, travelling clockwise once round the ring.
     *
     * @param leader the elected node
     */
    record Elected(NodeId leader) implements FranklinMessage {
        public Elected {
            Objects.requireNonNull(leader, "leader");
        }
    }
}
