package io.dlock.spi;

import io.dlock.NodeId;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The compact wire format: values round-trip, and every malformed input fails with MalformedMessageException. */
class WireFormatTest {

    /** Varints, signed varints, strings, booleans and bytes round-trip, including the extremes. */
    @Test
    void roundTrip() {
        long[] values = {0, 1, 127, 128, 300, Integer.MAX_VALUE, Long.MAX_VALUE};
        WireWriter w = new WireWriter(1);
        for (long v : values) {
            w.writeVarLong(v).writeSignedVarLong(v).writeSignedVarLong(-v);
        }
        w.writeSignedVarLong(Long.MIN_VALUE).writeString("orders-é").writeBoolean(true).writeByte(0xFF);
        WireReader r = new WireReader(w.toByteArray());
        for (long v : values) {
            assertEquals(v, r.readVarLong());
            assertEquals(v, r.readSignedVarLong());
            assertEquals(-v, r.readSignedVarLong());
        }
        assertEquals(Long.MIN_VALUE, r.readSignedVarLong());
        assertEquals("orders-é", r.readString());
        assertEquals(true, r.readBoolean());
        assertEquals(0xFF, r.readByte());
        r.expectEnd();
    }

    /** A node id is written as its unsigned varint, the same bytes as writeVarLong(id.value()), and read back. */
    @Test
    void nodeIdIsItsVarint() {
        for (long v : new long[] {0, 1, 127, 128, Long.MAX_VALUE}) {
            byte[] id = new WireWriter().writeNodeId(NodeId.of(v)).toByteArray();
            assertArrayEquals(new WireWriter().writeVarLong(v).toByteArray(), id);
            WireReader r = new WireReader(id);
            assertEquals(NodeId.of(v), r.readNodeId());
            r.expectEnd();
        }
    }

    /** A varint that would be a negative id (-1 in ten bytes) is a malformed message, not an IllegalArgumentException. */
    @Test
    void negativeNodeIdIsMalformed() {
        byte[] minusOne = {-1, -1, -1, -1, -1, -1, -1, -1, -1, 1};
        assertThrows(MalformedMessageException.class, () -> new WireReader(minusOne).readNodeId());
    }

    /** Every truncated prefix of a message fails cleanly, never with an index exception. */
    @Test
    void truncation() {
        byte[] full = new WireWriter().writeVarLong(Long.MAX_VALUE).writeString("abc").toByteArray();
        for (int len = 0; len < full.length; len++) {
            WireReader r = new WireReader(full, 0, len);
            assertThrows(MalformedMessageException.class, () -> {
                r.readVarLong();
                r.readString();
            });
        }
    }

    /** Random garbage never escapes as anything but MalformedMessageException. */
    @Test
    void garbage() {
        SplittableRandom rnd = new SplittableRandom(42);
        for (int i = 0; i < 10_000; i++) {
            byte[] junk = new byte[rnd.nextInt(20)];
            for (int j = 0; j < junk.length; j++) {
                junk[j] = (byte) rnd.nextInt(256);
            }
            WireReader r = new WireReader(junk);
            try {
                r.readVarLong();
                r.readString();
                r.readBoolean();
                r.expectEnd();
            } catch (MalformedMessageException expected) {
                // fine
            }
        }
    }

    /** Overlong varints, oversized strings and trailing bytes are rejected. */
    @Test
    void rejects() {
        byte[] eleven = new byte[11];
        java.util.Arrays.fill(eleven, (byte) 0x80);
        assertThrows(MalformedMessageException.class, () -> new WireReader(eleven).readVarLong());
        byte[] huge = new WireWriter().writeVarLong(WireReader.MAX_STRING_BYTES + 1).toByteArray();
        assertThrows(MalformedMessageException.class, () -> new WireReader(huge).readString());
        WireReader r = new WireReader(new byte[] {1, 2});
        r.readByte();
        assertThrows(MalformedMessageException.class, r::expectEnd);
        assertThrows(MalformedMessageException.class, () -> new WireReader(new byte[] {2}).readBoolean());
        assertArrayEquals(new byte[] {5}, new WireWriter().writeVarLong(5).toByteArray());
    }

    /** Views are sorted, reject duplicates and empty member lists, and rank members. */
    @Test
    void views() {
        View v = new View(3, java.util.List.of(NodeId.of(5), NodeId.of(1), NodeId.of(3)));
        assertEquals(java.util.List.of(NodeId.of(1), NodeId.of(3), NodeId.of(5)), v.members());
        assertEquals(1, v.indexOf(NodeId.of(3)));
        assertEquals(NodeId.of(5), v.highest());
        assertThrows(IllegalArgumentException.class, () -> new View(1, java.util.List.of(NodeId.of(1), NodeId.of(1))));
        assertThrows(IllegalArgumentException.class, () -> new View(1, java.util.List.of()));
        assertThrows(IllegalArgumentException.class, () -> NodeId.of(-1));
    }
}
