package io.dlock;

/**
 * Told when the leader of an election group changes.
 *
 * <p>Called on a library thread (never while an internal lock is held), once per change, in epoch
 * order. A listener that throws is logged and does not stop the others. A listener should return
 * quickly; long work belongs on the application's own executor.
 */
@FunctionalInterface
public interface LeaderListener {

    /** The leader of {@code change.group()} is now {@code change.leader()}. */
    void onLeaderChange(LeaderChange change);
}
