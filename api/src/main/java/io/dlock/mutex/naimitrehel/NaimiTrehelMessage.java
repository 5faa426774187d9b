package io.dlock.mutex.naimitrehel;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.mutex.common.CensusCarrier;
import io.dlock.mutex.common.CensusMessage;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.NodeId;
import java.util.Objects;

/**
 * The messages of {@link NaimiTrehel} (docs/algorithms.md A9). A requester numbers every REQUEST it sends
 * ({@code seq}: 1, 2, ... never reused, a re-sent request gets a new number); the recovery messages
 * and their answers carry the number of the request they are about, so that late and duplicated
 * answers are recognised.
 */
public sealed interface NaimiTrehelMessage extends ProtocolMessage {

    /**
     * Rule 2: {@code origin} wants the token; forwarded hop by hop along LAST pointers to the root.
     *
     * @param origin the requesting node
     * @param seq    the origin's number for this REQUEST, at least 1
     */
    record Request(NodeId origin, long seq) implements NaimiTrehelMessage {
        public Request {
            Objects.requireNonNull(origin, "origin");
            requireAtLeast("seq", seq, 1);
        }
    }

    /**
     * Rule 3: the token. {@code (fence, hop)} grows with every send, so a receiver recognises a copy
     * of a token it has already had (a network duplicate) and drops it.
     *
     * @param requestSeq the receiver's REQUEST number this token answers (0: none, a regenerated or
     *                   rebuilt token passed on)
     * @param fence      the highest fencing token granted with this token so far
     * @param hop        how many times this token has been sent since it was created
     * @param generation how many times the token was regenerated in this epoch (rule 15)
     */
    record Token(long requestSeq, long fence, long hop, long generation) implements NaimiTrehelMessage {
        public Token {
            requireAtLeast("requestSeq", requestSeq, 0);
            requireAtLeast("fence", fence, 0);
            requireAtLeast("hop", hop, 1);
            requireAtLeast("generation", generation, 0);
        }
    }

    /**
     * Rule 7: "does any node have NEXT = me?", broadcast by a requester whose Twait expired.
     *
     * @param seq the sender's current REQUEST number
     */
    record Consult(long seq) implements NaimiTrehelMessage {
        public Consult {
            requireAtLeast("seq", seq, 1);
        }
    }

    /**
     * Rule 8: "my NEXT is you": the consulting node's request is recorded by a live node.
     *
     * @param seq the number of the CONSULT answered
     */
    record ConsultReply(long seq) implements NaimiTrehelMessage {
        public ConsultReply {
            requireAtLeast("seq", seq, 1);
        }
    }

    /**
     * Rule 10: "is the token present?", broadcast when nobody answered the CONSULT within Telec.
     *
     * @param seq the sender's current REQUEST number
     */
    record Query(long seq) implements NaimiTrehelMessage {
        public Query {
            requireAtLeast("seq", seq, 1);
        }
    }

    /**
     * Rules 11 and 14: "I hold the token", answer to a QUERY or an ELECTION.
     *
     * @param seq the number of the QUERY or ELECTION answered
     */
    record TokenPresent(long seq) implements NaimiTrehelMessage {
        public TokenPresent {
            requireAtLeast("seq", seq, 1);
        }
    }

    /**
     * Rule 13: the sender is a candidate for regenerating the token; the smallest candidate wins.
     *
     * @param seq the sender's current REQUEST number
     */
    record Election(long seq) implements NaimiTrehelMessage {
        public Election {
            requireAtLeast("seq", seq, 1);
        }
    }

    /**
     * Rule 15: the sender regenerated the token; every node sets LAST to it and NEXT to nil.
     *
     * @param generation the new token's generation, at least 1
     */
    record CandidateElected(long generation) implements NaimiTrehelMessage {
        public CandidateElected {
            requireAtLeast("generation", generation, 1);
        }
    }

    /**
     * Token census (not in the source notes): one of the four {@link CensusMessage}s of
     * {@link io.dlock.mutex.common.TokenCensus}, carried in this algorithm's message type; a member reports its latest REQUEST number; at DONE every node sets LAST to the holder and NEXT to nil.
     *
     * @param message the census message carried
     */
    record Census(CensusMessage message) implements NaimiTrehelMessage, CensusCarrier {
        public Census {
            if (message == null) {
                throw new IllegalArgumentException("census message must not be null");
            }
        }
    }
}
