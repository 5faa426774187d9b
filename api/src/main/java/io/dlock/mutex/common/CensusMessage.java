package io.dlock.mutex.common;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.protocol.ProtocolMessage;

/**
 * The four messages of a {@link TokenCensus}, shared by every token algorithm. An algorithm carries
 * them in the one record of its own sealed message type that implements {@link CensusCarrier}
 * ({@code Census(CensusMessage message)}), so that {@link TokenCensus#onMessage} and
 * {@link CensusCodec} recognize them and the algorithm declares no census record of its own.
 */
public sealed interface CensusMessage extends ProtocolMessage
        permits CensusMessage.Hello, CensusMessage.Query, CensusMessage.Report, CensusMessage.Done {

    /**
     * A member created lazily (or unsure the steward has an instance) greets the steward.
     *
     * @param epoch the epoch of the census wanted
     */
    record Hello(long epoch) implements CensusMessage {
        public Hello {
            requireAtLeast("epoch", epoch, 0);
        }
    }

    /**
     * The steward asks a member for its {@link CensusReport}.
     *
     * @param epoch the epoch of the census
     */
    record Query(long epoch) implements CensusMessage {
        public Query {
            requireAtLeast("epoch", epoch, 0);
        }
    }

    /**
     * A member's answer to {@link Query}.
     *
     * @param report what the member reports
     */
    record Report(CensusReport report) implements CensusMessage {
        public Report {
            if (report == null) {
                throw new IllegalArgumentException("report must not be null");
            }
        }
    }

    /**
     * The steward's decision, to every other member.
     *
     * @param outcome the decision
     */
    record Done(CensusOutcome outcome) implements CensusMessage {
        public Done {
            if (outcome == null) {
                throw new IllegalArgumentException("outcome must not be null");
            }
        }
    }
}
