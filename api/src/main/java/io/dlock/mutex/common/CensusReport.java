package io.dlock.mutex.common;

import static io.dlock.spi.CodecSupport.requireAtLeast;

/**
 * What one member tells the steward of a {@link TokenCensus}: whether it holds the token, the
 * fencing state it knows, and its own request, so that the steward can decide who keeps the token
 * (or regenerate it) and rebuild the algorithm's token contents for a regenerated token.
 *
 * @param epoch         the epoch of the census answered (the view's epoch); a report of another
 *                      epoch is ignored
 * @param holdsToken    the member holds the token, idle or in the critical section
 * @param inCS          the member is in the critical section (then {@code holdsToken} is true)
 * @param tokenFence    the fencing counter carried by the member's token, 0 if it holds none
 * @param maxFence      the highest fencing token the member has seen or issued
 * @param requestNumber the member's own latest request number as its algorithm counts them (for
 *                      example Suzuki-Kasami's {@code RN[me]}); 0 if the algorithm numbers none
 * @param waiting       the request numbered {@code requestNumber} is outstanding: sent, not granted
 * @param tokenEpoch    the epoch of the last census the member completed (filled in by
 *                      {@link TokenCensus}, 0 from the algorithm): after a partition heals, the token
 *                      confirmed in the later primary epoch is the live one, a token that sat on the
 *                      non-primary side is stale
 */
public record CensusReport(long epoch, boolean holdsToken, boolean inCS, long tokenFence, long maxFence,
                           long requestNumber, boolean waiting, long tokenEpoch) {

    /** A report with {@code tokenEpoch} 0, as an algorithm builds it; the census fills it in. */
    public CensusReport(long epoch, boolean holdsToken, boolean inCS, long tokenFence, long maxFence,
                        long requestNumber, boolean waiting) {
        this(epoch, holdsToken, inCS, tokenFence, maxFence, requestNumber, waiting, 0);
    }

    /** @throws IllegalArgumentException for a negative field or {@code inCS} without the token */
    public CensusReport {
        requireAtLeast("tokenEpoch", tokenEpoch, 0);
        requireAtLeast("epoch", epoch, 0);
        requireAtLeast("tokenFence", tokenFence, 0);
        requireAtLeast("maxFence", maxFence, 0);
        requireAtLeast("requestNumber", requestNumber, 0);
        if (inCS && !holdsToken) {
            throw new IllegalArgumentException("a member in the critical section must hold the token");
        }
    }

    /** This report with {@code tokenEpoch} set. */
    public CensusReport withTokenEpoch(long basis) {
        return new CensusReport(epoch, holdsToken, inCS, tokenFence, maxFence, requestNumber, waiting, basis);
    }
}
