package io.dlock.mutex.common;

/**
 * What a node is doing with respect to one lock, as it announces it in a {@link EpochBarrier}.
 */
public enum PeerState {
    /** No request outstanding. */
    IDLE,
    /** Requested, not yet granted. */
    WAITING,
    /** Granted and not yet released: in the critical section. */
    HOLDING;

    /** Wire code (fixed, independent of the declaration order). */
    public int code() {
        return this == IDLE ? 0 : this == WAITING ? 1 : 2;
    }

    /**
     * The state of wire code {@code code}.
     *
     * @throws IllegalArgumentException for an unknown code
     */
    public static PeerState ofCode(int code) {
        switch (code) {
            case 0:
                return IDLE;
            case 1:
                return WAITING;
            case 2:
                return HOLDING;
            default:
                throw new IllegalArgumentException("unknown peer state code " + code + "; allowed: 0, 1, 2");
        }
    }
}
