package io.dlock.mutex.common;

import io.dlock.protocol.ProtocolMessage;

/**
 * The four census messages of a {@link TokenCensus}, as interfaces: each token algorithm declares its
 * own records in its sealed message type and lets them implement these, so that
 * {@link TokenCensus#onMessage} recognizes them.
 */
public interface CensusMessage extends ProtocolMessage {

    /** A member created lazily (or unsure the steward has an instance) greets the steward. */
    interface Hello extends CensusMessage {
        /** The epoch of the census wanted. */
        long epoch();
    }

    /** The steward asks a member for its {@link CensusReport}. */
    interface Query extends CensusMessage {
        /** The epoch of the census. */
        long epoch();
    }

    /** A member's answer to {@link Query}. */
    interface Report extends CensusMessage {
        /** What the member reports. */
        CensusReport report();
    }

    /** The steward's decision, to every other member. */
    interface Done extends CensusMessage {
        /** The decision. */
        CensusOutcome outcome();
    }
}
