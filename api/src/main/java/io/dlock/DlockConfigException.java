package io.dlock;

/**
 * A configuration key or value that dlock cannot use. The message names the key, the value given
 * and what is allowed; nothing has been started when it is thrown.
 */
public final class DlockConfigException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** @param message names the key, the bad value and the allowed values */
    public DlockConfigException(String message) {
        super(message);
    }
}
