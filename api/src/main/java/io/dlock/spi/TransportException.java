package io.dlock.spi;

/** Thrown when a transport cannot start: the cluster cannot be joined or its configuration is unusable. */
public final class TransportException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message what failed, naming the offending setting */
    public TransportException(String message) {
        super(message);
    }

    /** @param message what failed; {@code cause} the underlying error */
    public TransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
