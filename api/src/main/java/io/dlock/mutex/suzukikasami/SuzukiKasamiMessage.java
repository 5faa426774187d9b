package io.dlock.mutex.suzukikasami;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.mutex.common.CensusMessage;
import io.dlock.mutex.common.CensusOutcome;
import io.dlock.mutex.common.CensusReport;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.spi.NodeId;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The messages of {@link SuzukiKasami}: the seed's REQUEST and TOKEN, and the four census messages
 * of {@link io.dlock.mutex.common.TokenCensus}.
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

    /** Census: a member created on first use greets the steward (see {@link io.dlock.mutex.common.TokenCensus}). */
    record CensusHello(long epoch) implements SuzukiKasamiMessage, CensusMessage.Hello {
        public CensusHello {
            requireAtLeast("epoch", epoch, 0);
        }
    }

    /** Census: the steward asks for a report. */
    record CensusQuery(long epoch) implements SuzukiKasamiMessage, CensusMessage.Query {
        public CensusQuery {
            requireAtLeast("epoch", epoch, 0);
        }
    }

    /** Census: a member's report; {@code requestNumber} is its {@code RN[me]}. */
    record CensusReportMessage(CensusReport report) implements SuzukiKasamiMessage, CensusMessage.Report {
        public CensusReportMessage {
            if (report == null) {
                throw new IllegalArgumentException("report must not be null");
            }
        }
    }

    /** Census: the steward's decision. */
    record CensusDone(CensusOutcome outcome) implements SuzukiKasamiMessage, CensusMessage.Done {
        public CensusDone {
            if (outcome == null) {
                throw new IllegalArgumentException("outcome must not be null");
            }
        }
    }
}
