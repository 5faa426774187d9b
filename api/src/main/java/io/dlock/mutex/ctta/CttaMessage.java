package io.dlock.mutex.ctta;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.mutex.common.CensusCarrier;
import io.dlock.mutex.common.CensusMessage;
import io.dlock.protocol.ProtocolMessage;
import java.util.List;

/**
 * The messages of {@link Ctta} (docs/algorithms.md A6). Site indices are ranks in the current view (docs/algorithms.md's site {@code i} is rank {@code i-1}); ages and request numbers are docs/algorithms.md's.
 */
public sealed interface CttaMessage extends ProtocolMessage {

    /**
     * Rule 1: the sender's request number {@code n} (docs/algorithms.md's {@code CRREQ(i, j, n)}, with
     * {@code i} the sender and {@code j} the receiver). Sent again with the same number after a
     * suspected loss (F9's re-request).
     *
     * @param n the request number, at least 1
     */
    record CrReq(long n) implements CttaMessage {
        public CrReq {
            requireAtLeast("n", n, 1);
        }
    }

    /**
     * Rule 3: the token. {@code (fence, hop)} grows with every send, so a receiver recognises a copy
     * of a token it has already had (a network duplicate) and drops it.
     *
     * @param hr    {@code HR[j]}, per rank: how many times site {@code j} has entered the CS
     * @param tg    the token age {@code TG}
     * @param fence the highest fencing token granted with this token so far
     * @param hop   how many times this token has been sent since it was (re)generated, at least 1
     */
    record Token(List<Long> hr, long tg, long fence, long hop) implements CttaMessage {
        public Token {
            hr = List.copyOf(hr);
            for (long h : hr) {
                requireAtLeast("HR entry", h, 0);
            }
            requireAtLeast("TG", tg, 0);
            requireAtLeast("fence", fence, 0);
            requireAtLeast("hop", hop, 1);
        }
    }

    /**
     * Rule 7: "raise your site age to {@code g}": the sender tries to regenerate the token. Carries
     * the sender's current request number {@code n}, which the receiver merges as a CRREQ (so a
     * holder that missed the CRREQ learns of the request: F9's re-request, piggybacked).
     *
     * @param g the candidate age, at least 1
     * @param n the sender's current request number, at least 1
     */
    record Jdcg(long g, long n) implements CttaMessage {
        public Jdcg {
            requireAtLeast("g", g, 1);
            requireAtLeast("n", n, 1);
        }
    }

    /**
     * Rule 8: the receiver of {@code JDCG(g)} accepts it.
     *
     * @param g     the age of the JDCG answered
     * @param hr    the acknowledging site's own {@code HR} ({@code HRown})
     * @param fence the highest fencing token the acknowledging site has seen (so the regenerated
     *              token's fences exceed every earlier one)
     */
    record Ack(long g, long hr, long fence) implements CttaMessage {
        public Ack {
            requireAtLeast("g", g, 1);
            requireAtLeast("hr", hr, 0);
            requireAtLeast("fence", fence, 0);
        }
    }

    /**
     * Rule 8: the receiver of {@code JDCG(g)} refuses it (its age is not below {@code g}, or it
     * holds the token).
     *
     * @param g the age of the JDCG answered
     */
    record Nack(long g) implements CttaMessage {
        public Nack {
            requireAtLeast("g", g, 1);
        }
    }

    /**
     * Muro et al. §5: a link failure split the sites; the sender (an end of the failed link) tells every
     * site it still reaches. The receiver enters partition mode: no REGENERATE, NACK to every JDCG.
     */
    record Partition() implements CttaMessage {
    }

    /**
     * Token census (not in the source notes): one of the four {@link CensusMessage}s of
     * {@link io.dlock.mutex.common.TokenCensus}, carried in this algorithm's message type; a site reports {@code LR_i[i]} as its request number, from which the steward rebuilds {@code HR(i)} of a regenerated token ({@code LR_i[i]}, minus 1 while waiting: CT-3).
     *
     * @param message the census message carried
     */
    record Census(CensusMessage message) implements CttaMessage, CensusCarrier {
        public Census {
            if (message == null) {
                throw new IllegalArgumentException("census message must not be null");
            }
        }
    }
}
