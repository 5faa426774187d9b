package io.dlock;

/**
 * A write carried a fencing token older than one a {@link FencedResource} has already accepted: the
 * writer lost the lock (it paused past failure detection, or its grant belongs to an older epoch) and
 * another holder has written since. Nothing was changed.
 */
public final class StaleFencingTokenException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final long token;
    private final long highestAccepted;

    /**
     * @param token           the refused token
     * @param highestAccepted the highest token accepted before
     */
    public StaleFencingTokenException(long token, long highestAccepted) {
        super("fencing token " + token + " is older than " + highestAccepted
                + ", already accepted: the writer no longer holds the lock");
        this.token = token;
        this.highestAccepted = highestAccepted;
    }

    /** The refused token. */
    public long token() {
        return token;
    }

    /** The highest token accepted before the refusal. */
    public long highestAccepted() {
        return highestAccepted;
    }
}
