package io.dlock.mutex.suzukikasami;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.mutex.common.CensusCarrier;
import io.dlock.mutex.common.CensusMessage;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.NodeId;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The messages of {@link SuzukiKasami}: the source notes' REQUEST and TOKEN, and {@link Census}, which
 * carries the census messages of {@link io.dlock.mutex.common.TokenCensus}.
 */
public sealed interface SuzukiKasamiMessage extends ProtocolMessage {

    /**
     * Rule 1: a node asks every other member for the token.
     *
     * @param sn the sender's request number {@code RN[me]}, at least 1
     */
    record Request(long sn) implements SuzukiKasamiMessage {
        public Request {
            requireAtLeast("sn", sn, 1);
        }
    }

    /**
     * Rules 2 and 4: the token, sent to the node whose request it answers.
     *
     * @param epoch   the epoch it was sent in (a token of another epoch is ignored)
     * @param hop     number of transfers of the token in this epoch, at least 1; a receiver ignores a
     *                hop not above the last it accepted (a duplicate)
     * @param fence   the highest fencing token the sender has seen; the receiver's grant is above it
     * @param last    the token's {@code LN}: per member, the number of its last request served
     *                (members absent are 0); sorted by member
     * @param queue   the token's FIFO queue {@code Q} of members with a pending request, distinct
     */
    record Token(long epoch, long hop, long fence, Map<NodeId, Long> last, List<NodeId> queue)
            implements SuzukiKasamiMessage {
        public Token {
            requireAtLeast("epoch", epoch, 0);
            requireAtLeast("hop", hop, 1);
            requireAtLeast("fence", fence, 0);
            last = new TreeMap<>(last);
            for (Map.Entry<NodeId, Long> e : last.entrySet()) {
                requireAtLeast("last[" + e.getKey() + "]", e.getValue(), 0);
            }
            last = java.util.Collections.unmodifiableMap(last);
            queue = List.copyOf(queue);
            if (queue.stream().distinct().count() != queue.size()) {
                throw new IllegalArgumentException("token queue has a duplicate member: " + queue);
            }
        }
    }

    /**
     * Token census (not in the source notes): one of the four {@link CensusMessage}s of
     * {@link io.dlock.mutex.common.TokenCensus}, carried in this algorithm's message type; a member reports {@code RN[me]} as its request number, from which the steward rebuilds {@code LN} of a regenerated token.
     *
     * @param message the census message carried
     */
    record Census(CensusMessage message) implements SuzukiKasamiMessage, CensusCarrier {
        public Census {
            if (message == null) {
                throw new IllegalArgumentException("census message must not be null");
            }
        }
    }
}
