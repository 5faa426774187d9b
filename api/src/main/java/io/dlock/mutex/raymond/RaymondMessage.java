package io.dlock.mutex.raymond;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.mutex.common.CensusCarrier;
import io.dlock.mutex.common.CensusMessage;
import io.dlock.protocol.ProtocolMessage;

/**
 * The messages of {@link Raymond}: the paper's REQUEST and PRIVILEGE, between tree neighbours, and
 * {@link Census}, which carries the census messages of {@link io.dlock.mutex.common.TokenCensus}.
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

    /**
     * Token census (not in the source notes): one of the four {@link CensusMessage}s of
     * {@link io.dlock.mutex.common.TokenCensus}, carried in this algorithm's message type; a member reports no request number (0).
     *
     * @param message the census message carried
     */
    record Census(CensusMessage message) implements RaymondMessage, CensusCarrier {
        public Census {
            if (message == null) {
                throw new IllegalArgumentException("census message must not be null");
            }
        }
    }
}
