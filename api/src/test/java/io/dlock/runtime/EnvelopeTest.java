package io.dlock.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dlock.spi.MalformedMessageException;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import org.junit.jupiter.api.Test;

/** The envelope header round-trips and rejects foreign bytes and other versions. */
class EnvelopeTest {

    /** A header round-trips and leaves the reader at the payload. */
    @Test
    void roundTrip() {
        WireWriter w = new WireWriter();
        Envelope e = new Envelope(Envelope.KIND_MUTEX, "ricart-agrawala", "orders", 42);
        e.writeTo(w);
        w.writeByte(7);
        WireReader r = new WireReader(w.toByteArray());
        assertEquals(e, Envelope.readFrom(r));
        assertEquals(7, r.readByte());
    }

    /** The kind is read from a message's bytes without decoding; a message too short has none. */
    @Test
    void kindOfAMessagesBytes() {
        WireWriter w = new WireWriter();
        new Envelope(Envelope.KIND_MEMBERSHIP, "", "", 3).writeTo(w);
        assertEquals(Envelope.KIND_MEMBERSHIP, Envelope.kindOf(w.toByteArray()));
        assertEquals(-1, Envelope.kindOf(new byte[] {(byte) Envelope.MAGIC, 1}));
    }

    /** A wrong magic byte, version or kind is malformed. */
    @Test
    void rejectsForeign() {
        assertThrows(MalformedMessageException.class, () -> Envelope.readFrom(new WireReader(new byte[] {0x00})));
        assertThrows(MalformedMessageException.class,
                () -> Envelope.readFrom(new WireReader(new byte[] {(byte) Envelope.MAGIC, 9})));
        assertThrows(MalformedMessageException.class,
                () -> Envelope.readFrom(new WireReader(new byte[] {(byte) Envelope.MAGIC, 1, 8})));
        assertThrows(MalformedMessageException.class, () -> Envelope.readFrom(new WireReader(new byte[0])));
    }
}
