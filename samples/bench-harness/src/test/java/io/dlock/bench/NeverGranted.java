package io.dlock.bench;

/** A lock that is never granted (every tryLock times out at once); unlocking it is a caller's mistake. */
final class NeverGranted implements NodeLock {

    @Override
    public boolean tryLock(long seconds) {
        return false;
    }

    @Override
    public void unlock() {
        throw new IllegalMonitorStateException("never held");
    }
}
