package io.dlock;

/**
 * The calling thread (or the {@link LockHold}) held a {@link DistributedLock} and lost it: its node fell out of the
 * primary component while it held the lock (a partition, or an exclusion after a long pause), so the majority
 * side may already have granted the lock to another node, with a higher fencing token; or the hold's lease ran out
 * before it was released, and the lock went on to the next holder (see {@link DistributedLock}'s "Leases").
 *
 * <p>Thrown by {@link DistributedLock#fencingToken()} and {@link DistributedLock#unlock()} when called
 * by the thread whose hold was lost. {@code unlock()} still counts down that thread's hold and ends the
 * local hold with the last one (so that other local threads can lock again); it throws to tell the
 * caller that what it did under the lock may have overlapped with another holder. A subclass of
 * {@link IllegalMonitorStateException}: code that handles the usual "not the owner" error handles this
 * one too.
 */
public class LockOwnershipLostException extends IllegalMonitorStateException {

    private static final long serialVersionUID = 1L;

    private final String lockName;
    private final long fencingToken;

    /**
     * @param lockName     the lock whose hold was lost
     * @param fencingToken the fencing token of the lost hold
     * @param message      what the caller tried and why it fails
     */
    public LockOwnershipLostException(String lockName, long fencingToken, String message) {
        super(message);
        this.lockName = lockName;
        this.fencingToken = fencingToken;
    }

    /** The lock whose hold was lost. */
    public String lockName() {
        return lockName;
    }

    /** The fencing token of the lost hold: writes that carry it may now be refused as stale. */
    public long fencingToken() {
        return fencingToken;
    }
}
