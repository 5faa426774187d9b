package io.dlock;

/**
 * Told at once when a thread or a {@link LockHold} of this node loses its hold of a {@link DistributedLock}: the
 * node fell out of the primary component while it held the lock, so another node may be granted it (see
 * {@link LockOwnershipLostException}), or the hold's lease ran out ({@link OwnershipLoss#cause()}). A holder
 * that works for a long time under the lock uses it
 * to stop that work, for example by interrupting {@link OwnershipLoss#holder()} or setting a flag.
 *
 * <p>Called on a library thread (never the holder's, never while an internal lock is held), once per
 * lost hold. A listener that throws is logged and does not stop the others. A listener should return
 * quickly; long work belongs on the application's own executor.
 */
@FunctionalInterface
public interface OwnershipListener {

    /** The hold described by {@code loss} is lost. */
    void ownershipLost(OwnershipLoss loss);
}
