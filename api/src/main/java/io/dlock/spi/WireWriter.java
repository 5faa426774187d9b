package io.dlock.spi;

import io.dlock.NodeId;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Appends primitive values to a growable byte array in dlock's compact wire format: unsigned
 * LEB128 variable-length integers ({@link #writeVarLong}), zig-zag for signed values, and
 * length-prefixed UTF-8 strings. {@link WireReader} reads the same format back.
 *
 * <p>Not thread-safe; one writer per message.
 */
public final class WireWriter {

    private byte[] buffer;
    private int length;

    /** A writer with a small initial buffer that grows as needed. */
    public WireWriter() {
        this(32);
    }

    /** @param initialCapacity bytes to allocate up front, at least 1 */
    public WireWriter(int initialCapacity) {
        buffer = new byte[Math.max(1, initialCapacity)];
    }

    /** Writes the low 8 bits of {@code value}. */
    public WireWriter writeByte(int value) {
        ensure(1);
        buffer[length++] = (byte) value;
        return this;
    }

    /** Writes {@code true} as 1 and {@code false} as 0. */
    public WireWriter writeBoolean(boolean value) {
        return writeByte(value ? 1 : 0);
    }

    /**
     * Writes a non-negative {@code long} in 1 to 10 bytes (7 bits per byte, high bit = more).
     *
     * @throws IllegalArgumentException if {@code value} is negative (use {@link #writeSignedVarLong})
     */
    public WireWriter writeVarLong(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("writeVarLong needs a value >= 0, got " + value);
        }
        ensure(10);
        while ((value & ~0x7FL) != 0) {
            buffer[length++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        buffer[length++] = (byte) value;
        return this;
    }

    /** Writes any {@code long}, small magnitudes in few bytes (zig-zag encoding). */
    public WireWriter writeSignedVarLong(long value) {
        long zigzag = (value << 1) ^ (value >> 63);
        ensure(10);
        while ((zigzag & ~0x7FL) != 0) {
            buffer[length++] = (byte) ((zigzag & 0x7F) | 0x80);
            zigzag >>>= 7;
        }
        buffer[length++] = (byte) zigzag;
        return this;
    }

    /** Appends a node id: its value as an unsigned varint (read by {@link WireReader#readNodeId}). */
    public WireWriter writeNodeId(NodeId id) {
        return writeVarLong(id.value());
    }

    /** Writes a string as its UTF-8 length ({@link #writeVarLong}) followed by its bytes. */
    public WireWriter writeString(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        writeVarLong(utf8.length);
        ensure(utf8.length);
        System.arraycopy(utf8, 0, buffer, length, utf8.length);
        length += utf8.length;
        return this;
    }

    /** Appends raw bytes without a length prefix. */
    public WireWriter writeBytes(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buffer, length, bytes.length);
        length += bytes.length;
        return this;
    }

    /** Number of bytes written so far. */
    public int length() {
        return length;
    }

    /** A copy of the bytes written so far. */
    public byte[] toByteArray() {
        return Arrays.copyOf(buffer, length);
    }

    private void ensure(int extra) {
        if (length + extra > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + extra));
        }
    }
}
