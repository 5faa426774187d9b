package io.dlock.runtime;

/**
 * What a reclamation vote found for one lock name on this node ({@link LockRegistry#forVote}): a live driver,
 * which votes itself; no state, the name now reserved until the round's decision (the vote is "absent"); or no
 * state but a reservation by another undecided round (the vote is "busy": this round must not drop what the
 * other may still recreate).
 */
final class VoteTarget {

    /** No state here; the name is reserved for this round. */
    static final VoteTarget RESERVED = new VoteTarget(null);
    /** No state here; another undecided round reserved the name. */
    static final VoteTarget RESERVED_BEFORE = new VoteTarget(null);

    private final LockDriver<?> driver;

    private VoteTarget(LockDriver<?> driver) {
        this.driver = driver;
    }

    static VoteTarget live(LockDriver<?> driver) {
        return new VoteTarget(driver);
    }

    /** The live driver, or null. */
    LockDriver<?> driver() {
        return driver;
    }
}
