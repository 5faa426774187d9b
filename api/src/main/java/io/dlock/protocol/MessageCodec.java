package io.dlock.protocol;

import io.dlock.spi.MalformedMessageException;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;

/**
 * Turns one algorithm's messages into bytes and back. The first byte written is the message type;
 * the rest are the record's fields in the compact format of {@link WireWriter}.
 *
 * @param <M> the algorithm's sealed message type
 */
public interface MessageCodec<M extends ProtocolMessage> {

    /** Appends {@code message} to {@code out}. */
    void encode(M message, WireWriter out);

    /**
     * Reads one message that fills {@code in} exactly.
     *
     * @throws MalformedMessageException if the bytes are truncated, have trailing garbage, an unknown
     *                                   type byte or an out-of-range field
     */
    M decode(WireReader in);

    /** Encodes {@code message} into a fresh array (convenience for tests and byte counting). */
    default byte[] toBytes(M message) {
        WireWriter out = new WireWriter();
        encode(message, out);
        return out.toByteArray();
    }

    /** Decodes a whole array, requiring that every byte is consumed. */
    default M fromBytes(byte[] bytes) {
        WireReader in = new WireReader(bytes);
        M message = decode(in);
        in.expectEnd();
        return message;
    }
}
