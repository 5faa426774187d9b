package io.dlock.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * One lock's freeze during a reclamation round ({@link ReclaimDriver}): from its at-rest vote (or its creation
 * while its name was reserved by an undecided round) until the round's decision, the lock's events wait here
 * instead of running; a thaw, or a commit that does not bury the lock, replays them in order. Confined to the
 * lock's loop, except {@link #freezeUntilDecided()}, called before the lock's driver is published.
 */
final class ReclaimFreeze {

    private boolean frozen;
    /** Created while its name was reserved by a reclamation round; set before publication, never changed. */
    private boolean createdFrozen;
    /** What waits for the decision; null while nothing does (every live lock has a freeze, seldom frozen). */
    private List<Runnable> held;

    /** Runs {@code event} now, or keeps it for the decision while frozen. */
    void runOrHold(Runnable event) {
        if (frozen) {
            if (held == null) {
                held = new ArrayList<>();
            }
            held.add(event);
        } else {
            event.run();
        }
    }

    /** The lock starts frozen: its name is reserved by an undecided round this node voted absent in. */
    void freezeUntilDecided() {
        frozen = true;
        createdFrozen = true;
    }

    /** Whether the lock started frozen ({@link #freezeUntilDecided()}). */
    boolean createdFrozen() {
        return createdFrozen;
    }

    /** The lock voted at rest: its events wait from now on. */
    void freeze() {
        frozen = true;
    }

    boolean frozen() {
        return frozen;
    }

    /** Whether no event waits. */
    boolean nothingHeld() {
        return held == null;
    }

    /** Ends the freeze without running what waited (a commit decides what comes next). */
    void unfreeze() {
        frozen = false;
    }

    /** Ends the freeze and runs what waited, in order. */
    void thaw() {
        frozen = false;
        List<Runnable> due = held;
        held = null;
        if (due == null) {
            return;
        }
        for (Runnable event : due) {
            event.run();
        }
    }

    /** Drops what waited (the lock stops). */
    void dropHeld() {
        held = null;
    }
}
