package io.dlock.election.ring;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.protocol.ProtocolMessage;
import io.dlock.NodeId;
import java.util.List;
import java.util.Objects;

/**
 * The messages of {@link Ring}. Every ELECTION and COORDINATOR carries a hop number, chosen by its
 * sender and never reused by it, which the receiver's ACK names: a late or duplicated ACK cannot
 * acknowledge another hop.
 */
public sealed interface RingMessage extends ProtocolMessage {

    /**
     * Rules 1-2: an election started by {@code initiator}, with the ids it has passed so far.
     *
     * @param hop       the sender's hop number, at least 1
     * @param initiator the node that started this circulation
     * @param list      the live ids in ring order from the initiator; copied, not empty
     */
    record Election(long hop, NodeId initiator, List<NodeId> list) implements RingMessage {
        public Election {
            requireAtLeast("hop", hop, 1);
            Objects.requireNonNull(initiator, "initiator");
            list = List.copyOf(list);
            if (list.isEmpty()) {
                throw new IllegalArgumentException("list must not be empty");
            }
        }
    }

    /**
     * Rule 3: the result of {@code initiator}'s circulation.
     *
     * @param hop       the sender's hop number, at least 1
     * @param initiator the node that started this circulation
     * @param list      the live ids in ring order; copied, not empty
     */
    record Coordinator(long hop, NodeId initiator, List<NodeId> list) implements RingMessage {
        public Coordinator {
            requireAtLeast("hop", hop, 1);
            Objects.requireNonNull(initiator, "initiator");
            list = List.copyOf(list);
            if (list.isEmpty()) {
                throw new IllegalArgumentException("list must not be empty");
            }
        }
    }

    /**
     * Rules 2-3: the receiver is alive ("the receiver returns a reply showing it is alive").
     *
     * @param hop the hop acknowledged
     */
    record Ack(long hop) implements RingMessage {
        public Ack {
            requireAtLeast("hop", hop, 1);
        }
    }
}
