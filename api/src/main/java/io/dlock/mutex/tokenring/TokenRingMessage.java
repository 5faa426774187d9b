package io.dlock.mutex.tokenring;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.mutex.common.CensusCarrier;
import io.dlock.mutex.common.CensusMessage;
import io.dlock.protocol.ProtocolMessage;

/**
 * The messages of {@link TokenRing}: the source notes' TOKEN, the optional TOKEN_ACK, PARKED and WAKE (an idle
 * token parks), and {@link Census},
 * which carries the census messages of {@link io.dlock.mutex.common.TokenCensus}.
 */
public sealed interface TokenRingMessage extends ProtocolMessage {

    /**
     * Rules 2-4: the token, passed to the successor.
     *
     * @param epoch the epoch it was passed in (a token of another epoch is ignored)
     * @param hop   number of hops the token has made in this epoch, at least 1; a receiver ignores a
     *              token whose hop is not above the last it accepted (a duplicate)
     * @param fence the highest fencing token the sender has seen; the receiver's grant is above it
     * @param idle  how many holders in a row, the sender included, did not want the token; a holder that
     *              receives N-1 and does not want it either parks it (a whole idle round)
     */
    record Token(long epoch, long hop, long fence, long idle) implements TokenRingMessage {
        public Token {
            requireAtLeast("epoch", epoch, 0);
            requireAtLeast("hop", hop, 1);
            requireAtLeast("fence", fence, 0);
            requireAtLeast("idle", idle, 0);
        }
    }

    /**
     * Parking (not in the source notes; docs/algorithms.md A5 rule 7): the sender keeps the token, which made a
     * whole round unwanted; broadcast once.
     *
     * @param epoch the epoch of the token parked
     * @param hop   the token's hop count when it parked; a receiver keeps the newest parking it heard of
     */
    record Parked(long epoch, long hop) implements TokenRingMessage {
        public Parked {
            requireAtLeast("epoch", epoch, 0);
            requireAtLeast("hop", hop, 1);
        }
    }

    /**
     * A requester asks the node where the token is parked to send it (rule 7); a node without a parked token
     * ignores it (the token is moving and reaches the requester within its round).
     *
     * @param epoch the requester's epoch
     */
    record Wake(long epoch) implements TokenRingMessage {
        public Wake {
            requireAtLeast("epoch", epoch, 0);
        }
    }

    /**
     * Rule 6 (option {@code token-ack-ms}, docs/algorithms.md TR-5): the receiver of a TOKEN confirms it to its
     * sender, which otherwise skips the silent successor after the timeout.
     *
     * @param epoch the epoch of the token confirmed
     * @param hop   the hop of the token confirmed, at least 1
     */
    record TokenAck(long epoch, long hop) implements TokenRingMessage {
        public TokenAck {
            requireAtLeast("epoch", epoch, 0);
            requireAtLeast("hop", hop, 1);
        }
    }

    /**
     * Token census (not in the source notes): one of the four {@link CensusMessage}s of
     * {@link io.dlock.mutex.common.TokenCensus}, carried in this algorithm's message type; a member reports no request number (0).
     *
     * @param message the census message carried
     */
    record Census(CensusMessage message) implements TokenRingMessage, CensusCarrier {
        public Census {
            if (message == null) {
                throw new IllegalArgumentException("census message must not be null");
            }
        }
    }
}
