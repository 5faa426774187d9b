package io.dlock.spi;

import java.util.function.Supplier;

/**
 * Validation shared by the algorithms' message codecs. Each message record checks its own field
 * ranges in its constructor (throwing {@link IllegalArgumentException}); a codec builds the record
 * through {@link #build} so that a value read from the wire that the record refuses becomes a
 * {@link MalformedMessageException}, the only exception a codec may throw for bad input.
 */
public final class CodecSupport {

    private CodecSupport() {
    }

    /**
     * The exception for a type byte the codec does not know.
     *
     * @param algorithm the algorithm's configuration name, for the message
     * @param tag       the type byte read
     */
    public static MalformedMessageException unknownType(String algorithm, int tag) {
        return new MalformedMessageException("unknown " + algorithm + " message type " + tag);
    }

    /**
     * Constructs a decoded message, turning a field the record refuses into a
     * {@link MalformedMessageException}.
     */
    public static <T> T build(String algorithm, Supplier<T> constructor) {
        try {
            return constructor.get();
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException("bad " + algorithm + " message: " + e.getMessage());
        }
    }

    /**
     * Checks a message field in a record's constructor.
     *
     * @throws IllegalArgumentException naming the field, the value and the minimum
     */
    public static long requireAtLeast(String field, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(field + " must be >= " + min + ", got " + value);
        }
        return value;
    }
}
