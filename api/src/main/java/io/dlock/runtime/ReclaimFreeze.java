package io.dlock.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * One freeze of a lock during a reclamation round ({@link ReclaimDriver}): from its at-rest vote (or its creation
 * while its name was reserved by an undecided round) until the round's decision, the lock's events wait here
 * instead of running; a thaw, or a commit that does not bury the lock, runs them in order. The lock's driver makes
 * one when it freezes and lets it go when the freeze ends, so a lock that is not frozen (almost every live lock)
 * keeps none. Confined to the lock's loop (a freeze made before the driver is published is handed over with it).
 */
final class ReclaimFreeze {

    /** What waits for the decision; null while nothing does. */
    private List<Runnable> held;

    /** Keeps {@code event} for the decision. */
    void hold(Runnable event) {
        if (held == null) {
            held = new ArrayList<>();
        }
        held.add(event);
    }

    /** Whether no event waits. */
    boolean nothingHeld() {
        return held == null;
    }

    /** Runs what waited, in order (the freeze is over). */
    void runHeld() {
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
