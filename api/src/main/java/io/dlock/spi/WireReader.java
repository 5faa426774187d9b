package io.dlock.spi;

import io.dlock.NodeId;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the format written by {@link WireWriter} from a byte array, checking every bound: a
 * truncated or over-long value raises {@link MalformedMessageException} naming what was wrong,
 * never an {@code ArrayIndexOutOfBoundsException}.
 *
 * <p>Not thread-safe; one reader per message.
 */
public final class WireReader {

    /** Longest string a message may carry (lock names, group names). */
    public static final int MAX_STRING_BYTES = 1024;

    private final byte[] bytes;
    private int position;
    private final int end;

    /** Reads all of {@code bytes}. */
    public WireReader(byte[] bytes) {
        this(bytes, 0, bytes.length);
    }

    /** Reads {@code bytes[offset, offset + length)}. */
    public WireReader(byte[] bytes, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > bytes.length) {
            throw new IllegalArgumentException("range [" + offset + ", " + (offset + length)
                    + ") outside a buffer of " + bytes.length + " bytes");
        }
        this.bytes = bytes;
        this.position = offset;
        this.end = offset + length;
    }

    /** Reads one byte as an unsigned value 0..255. */
    public int readByte() {
        if (position >= end) {
            throw new MalformedMessageException("message truncated: expected a byte at offset " + position);
        }
        return bytes[position++] & 0xFF;
    }

    /** Reads a boolean written by {@link WireWriter#writeBoolean}; any value but 0 or 1 is malformed. */
    public boolean readBoolean() {
        int b = readByte();
        if (b > 1) {
            throw new MalformedMessageException("boolean byte must be 0 or 1, got " + b);
        }
        return b == 1;
    }

    /** Reads a value written by {@link WireWriter#writeVarLong}; it is never negative. */
    public long readVarLong() {
        long raw = readRawVarLong();
        if (raw < 0) {
            throw new MalformedMessageException("varint overflows a non-negative long at offset " + position);
        }
        return raw;
    }

    /** Reads a value written by {@link WireWriter#writeSignedVarLong}. */
    public long readSignedVarLong() {
        long zigzag = readRawVarLong();
        return (zigzag >>> 1) ^ -(zigzag & 1);
    }

    /**
     * Reads a non-negative int written with {@link WireWriter#writeVarLong}, checking it against an
     * upper bound.
     *
     * @param max largest value allowed, inclusive
     */
    public int readVarInt(int max) {
        long value = readVarLong();
        if (value > max) {
            throw new MalformedMessageException("value " + value + " exceeds the allowed maximum " + max);
        }
        return (int) value;
    }

    /**
     * Reads a node id written by {@link WireWriter#writeNodeId}: its value as an unsigned varint.
     *
     * @throws MalformedMessageException if the value is truncated or does not fit a non-negative long
     *                                   (so every value read is a valid id)
     */
    public NodeId readNodeId() {
        return NodeId.of(readVarLong());
    }

    /** Reads a string written by {@link WireWriter#writeString}, at most {@link #MAX_STRING_BYTES} long. */
    public String readString() {
        int len = readVarInt(MAX_STRING_BYTES);
        if (len > end - position) {
            throw new MalformedMessageException("string of " + len + " bytes truncated at offset " + position);
        }
        String s = new String(bytes, position, len, StandardCharsets.UTF_8);
        position += len;
        return s;
    }

    /**
     * A reader of the next {@code length} bytes, which this reader skips: for a value that is itself a whole
     * message (a bundle's parts).
     *
     * @throws MalformedMessageException if fewer than {@code length} bytes are left
     */
    public WireReader slice(int length) {
        if (length < 0 || length > end - position) {
            throw new MalformedMessageException("a part of " + length + " bytes does not fit the " + (end - position)
                    + " bytes left at offset " + position);
        }
        WireReader part = new WireReader(bytes, position, length);
        position += length;
        return part;
    }

    /**
     * A copy of the next {@code length} bytes: a value that is itself a whole message, kept beyond this reader.
     *
     * @throws MalformedMessageException if fewer than {@code length} bytes are left
     */
    public byte[] readBytes(int length) {
        WireReader part = slice(length);
        return Arrays.copyOfRange(bytes, part.position, part.end);
    }

    /** Bytes not yet read. */
    public int remaining() {
        return end - position;
    }

    /** Current absolute offset in the underlying array. */
    public int position() {
        return position;
    }

    /** @throws MalformedMessageException if any byte is left unread (a message must be consumed exactly) */
    public void expectEnd() {
        if (position != end) {
            throw new MalformedMessageException((end - position) + " unexpected trailing bytes at offset " + position);
        }
    }

    private long readRawVarLong() {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = readByte();
            result |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                if (shift == 63 && b > 1) {
                    throw new MalformedMessageException("varint longer than 64 bits at offset " + position);
                }
                return result;
            }
        }
        throw new MalformedMessageException("varint longer than 10 bytes at offset " + position);
    }
}
