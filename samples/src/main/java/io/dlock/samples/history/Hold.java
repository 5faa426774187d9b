package io.dlock.samples.history;

/**
 * One grant of the lock to a client and what became of it, as the history recorded it. Times are nanoseconds since
 * the history's first event; {@link #NONE} where the history has no such time.
 *
 * <p>The client certainly held the lock during {@code [grantedAt, heldUntil()]}: from the acquire returning to the
 * unlock being invoked (or to its node being killed). The grant itself happened somewhere in
 * {@code [acquireAt, grantedAt]}, and the hold was certainly over at {@link #overAt()}.
 *
 * @param seq       the hold's place in grant order (0 for the history's first {@code granted}), a stable tie-breaker
 * @param process   the client, {@code <node>.<incarnation>.<thread>}
 * @param node      the client's node
 * @param acquireAt when the client invoked the acquire
 * @param grantedAt when the acquire returned with the lock held
 * @param token     the hold's fencing token
 * @param releaseAt when the client invoked unlock(), or {@link #NONE}
 * @param endAt     when the hold ended ({@code released}, {@code lost}, crash, or the unlock's {@code error}), or
 *                  {@link #NONE} if it had not ended by the end of the history
 * @param end       how it ended
 */
record Hold(int seq, String process, int node, long acquireAt, long grantedAt, long token, long releaseAt,
            long endAt, HoldEnd end) {

    /** No such time in the history. */
    static final long NONE = -1;

    /** The end of the certain interval: the unlock's invocation, else the crash; {@link #NONE} if still held. */
    long heldUntil() {
        if (releaseAt != NONE) {
            return releaseAt;
        }
        return end == HoldEnd.CRASHED ? endAt : NONE;
    }

    /** When the hold was certainly over ({@code released}, {@code lost}, crash), or {@link #NONE} if unknown. */
    long overAt() {
        return end.certainlyOver() ? endAt : NONE;
    }

    /**
     * The hold for a human: {@code hold of 1.1.2 with token 7 (acquire 0.000 ms, granted 0.100 ms, release 2.000 ms,
     * released 2.100 ms)}.
     */
    String describe() {
        StringBuilder s = new StringBuilder("hold of ").append(process).append(" with token ").append(token)
                .append(" (acquire ").append(Millis.of(acquireAt)).append(", granted ").append(Millis.of(grantedAt));
        if (releaseAt != NONE) {
            s.append(", release ").append(Millis.of(releaseAt));
        }
        if (endAt != NONE) {
            s.append(", ").append(end).append(' ').append(Millis.of(endAt));
        } else {
            s.append(", ").append(end);
        }
        return s.append(')').toString();
    }
}
