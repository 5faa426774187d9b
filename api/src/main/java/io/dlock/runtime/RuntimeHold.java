package io.dlock.runtime;

import io.dlock.LockHold;
import java.time.Duration;

/**
 * The {@link LockHold} handed to applications: an owner key of the lock's {@link LocalLockState}, which does all the
 * work (the hold is the owner its calls name, whichever thread makes them). It keeps the local state it was created
 * for: while it holds the lock, that state's driver is not reclaimed; afterwards its calls find it no longer the
 * owner there, which is all they need to know.
 */
final class RuntimeHold implements LockHold {

    private final String lockName;
    private final LocalLockState local;

    RuntimeHold(String lockName, LocalLockState local) {
        this.lockName = lockName;
        this.local = local;
    }

    @Override
    public String lockName() {
        return lockName;
    }

    @Override
    public long fencingToken() {
        return local.fencingToken(this);
    }

    @Override
    public boolean isHeld() {
        return local.isHeldBy(this);
    }

    @Override
    public void renew(Duration lease) {
        local.renew(this, DurationArguments.leaseNanos("lease", lease));
    }

    @Override
    public void release() {
        local.release(this);
    }

    @Override
    public String toString() {
        return "LockHold@" + Integer.toHexString(System.identityHashCode(this)) + "[" + lockName + "]";
    }
}
