package io.dlock.spi;

/**
 * Thrown when bytes received from the network cannot be decoded into a message: truncated,
 * corrupt, of an unknown type, or from a different protocol version. The runtime catches it, counts
 * the message as malformed, logs the first occurrence and drops it; it never stops a node.
 */
public final class MalformedMessageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message what was wrong, naming the offending value */
    public MalformedMessageException(String message) {
        super(message);
    }
}
