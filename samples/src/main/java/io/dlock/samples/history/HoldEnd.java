package io.dlock.samples.history;

/** How a {@link Hold} ended, as far as the history tells. */
enum HoldEnd {
    /** {@code released}: unlock() returned normally. */
    RELEASED("released", true, false),
    /** {@code lost}: unlock() threw "ownership lost"; the holder was told it may have overlapped another holder. */
    LOST("lost", true, true),
    /** The node's JVM was killed ({@code crash}) while the client held the lock or was releasing it. */
    CRASHED("crashed", true, true),
    /** unlock() threw an unexpected exception ({@code error} while releasing): whether the hold is over is unknown. */
    UNLOCK_FAILED("unlock failed", false, false),
    /** unlock() was invoked but had not returned by the end of the history. */
    UNLOCK_PENDING("unlock pending at the end", false, false),
    /** Still held at the end of the history: unlock() was never invoked. */
    OPEN("held at the end", false, false);

    private final String label;
    private final boolean certainlyOver;
    private final boolean excusesOverlap;

    HoldEnd(String label, boolean certainlyOver, boolean excusesOverlap) {
        this.label = label;
        this.certainlyOver = certainlyOver;
        this.excusesOverlap = excusesOverlap;
    }

    /** Whether the hold was certainly over at its end time. */
    boolean certainlyOver() {
        return certainlyOver;
    }

    /** Whether a hold that ended so excuses a later-granted hold overlapping it (rule 1). */
    boolean excusesOverlap() {
        return excusesOverlap;
    }

    @Override
    public String toString() {
        return label;
    }
}
