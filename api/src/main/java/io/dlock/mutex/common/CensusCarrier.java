package io.dlock.mutex.common;

import io.dlock.protocol.ProtocolMessage;

/**
 * Implemented by the one record of a token algorithm's sealed message type that carries a
 * {@link CensusMessage} ({@code record Census(CensusMessage message)}): {@link TokenCensus#onMessage}
 * and {@link CensusCodec} unwrap it, so the census messages are declared once, here, for all.
 */
public interface CensusCarrier extends ProtocolMessage {

    /** The census message carried. */
    CensusMessage message();
}
