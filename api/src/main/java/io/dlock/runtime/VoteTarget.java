package io.dlock.runtime;

/**
 * What a reclamation vote found for one lock name on this node ({@link LockRegistry#forVote}): a live engine,
 * which votes itself; no state, the name now reserved until the round's decision (the vote is "absent"); or no
 * state but a reservation by another undecided round (the vote is "busy": this round must not drop what the
 * other may still recreate).
 */
final class VoteTarget {

    /** No state here; the name is reserved for this round. */
    static final VoteTarget RESERVED = new VoteTarget(null);
    /** No state here; another undecided round reserved the name. */
    static final VoteTarget RESERVED_BEFORE = new VoteTarget(null);

    private final LockEngine<?> engine;

    private VoteTarget(LockEngine<?> engine) {
        this.engine = engine;
    }

    static VoteTarget live(LockEngine<?> engine) {
        return new VoteTarget(engine);
    }

    /** The live engine, or null. */
    LockEngine<?> engine() {
        return engine;
    }
}
