package io.dlock.protocol;

/**
 * Marker for the messages of one algorithm. Each algorithm declares a sealed sub-interface whose
 * permitted subtypes are records, one per message type, and a {@link MessageCodec} for them.
 */
public interface ProtocolMessage {
}
