package io.dlock.mutex.raymond;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.mutex.common.CensusMessage;
import io.dlock.mutex.common.CensusOutcome;
import io.dlock.mutex.common.CensusReport;
import io.dlock.protocol.ProtocolMessage;

/**
 * The messages of {@link Raymond}: the paper's REQUEST and PRIVILEGE, between tree neighbours, and
 * the four census messages of {@link io.dlock.mutex.common.TokenCensus}.
 */
public sealed interface RaymondMessage extends ProtocolMessage {

    /**
     * Rule 2: the sender's subtree wants the token (the sender is the receiver's neighbour).
     *
     * @param seq the sender's request number, at least 1, increasing with each REQUEST it sends in an
     *            epoch; the receiver ignores one that is not above the last it took from the sender
     */
    record Request(long seq) implements RaymondMessage {
        public Request {
            requireAtLeast("seq", seq, 1);
        }
    }

    /**
     * Rule 3: the token, to a neighbour.
     *
     * @param epoch the epoch it was sent in (a token of another epoch is ignored)
     * @param hop   number of transfers of the token in this epoch, at least 1; a receiver ignores a
     *              hop not above the last it accepted (a duplicate)
     * @param fence the highest fencing token the sender has seen; the next grant is above it
     */
    record Privilege(long epoch, long hop, long fence) implements RaymondMessage {
        public Privilege {
            requireAtLeast("epoch", epoch, 0);
            requireAtLeast("hop", hop, 1);
            requireAtLeast("fence", fence, 0);
        }
    }

    /** Census: a member created on first use greets the steward. */
    record CensusHello(long epoch) implements RaymondMessage, CensusMessage.Hello {
        public CensusHello {
            requireAtLeast("epoch", epoch, 0);
        }
    }

    /** Census: the steward asks for a report. */
    record CensusQuery(long epoch) implements RaymondMessage, CensusMessage.Query {
        public CensusQuery {
            requireAtLeast("epoch", epoch, 0);
        }
    }

    /** Census: a member's report. */
    record CensusReportMessage(CensusReport report) implements RaymondMessage, CensusMessage.Report {
        public CensusReportMessage {
            if (report == null) {
                throw new IllegalArgumentException("report must not be null");
            }
        }
    }

    /** Census: the steward's decision. */
    record CensusDone(CensusOutcome outcome) implements RaymondMessage, CensusMessage.Done {
        public CensusDone {
            if (outcome == null) {
                throw new IllegalArgumentException("outcome must not be null");
            }
        }
    }
}
