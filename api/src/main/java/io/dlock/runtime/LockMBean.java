package io.dlock.runtime;

import io.dlock.DistributedLock;
import io.dlock.LockMetrics;
import io.dlock.metrics.LockMXBean;

/** {@link LockMXBean} over a lock's {@link DistributedLock#metrics()}, read afresh for every attribute. */
final class LockMBean implements LockMXBean {

    private final DistributedLock lock;

    LockMBean(DistributedLock lock) {
        this.lock = lock;
    }

    private LockMetrics m() {
        return lock.metrics();
    }

    @Override
    public String getAlgorithm() {
        return m().algorithm();
    }

    @Override
    public long getEntries() {
        return m().entries();
    }

    @Override
    public long getMessagesSent() {
        return m().messagesSent();
    }

    @Override
    public long getFramesSent() {
        return m().framesSent();
    }

    @Override
    public long getBytesSent() {
        return m().bytesSent();
    }

    @Override
    public long getMessagesReceived() {
        return m().messagesReceived();
    }

    @Override
    public long getMalformedDropped() {
        return m().malformedDropped();
    }

    @Override
    public long getStaleDropped() {
        return m().staleDropped();
    }

    @Override
    public long getLocalHandoffs() {
        return m().localHandoffs();
    }

    @Override
    public long getWaitingThreads() {
        return m().waitingThreads();
    }

    @Override
    public long getEpochGrants() {
        return m().epochGrants();
    }

    @Override
    public long getAcquireWaitCount() {
        return m().acquireWait().count();
    }

    @Override
    public long getAcquireWaitTotalNanos() {
        return m().acquireWait().totalNanos();
    }

    @Override
    public long getAcquireWaitMaxNanos() {
        return m().acquireWait().maxNanos();
    }

    @Override
    public long getAcquireWaitP50Nanos() {
        return m().acquireWait().percentileNanos(0.5);
    }

    @Override
    public long getAcquireWaitP99Nanos() {
        return m().acquireWait().percentileNanos(0.99);
    }

    @Override
    public long getHoldCount() {
        return m().hold().count();
    }

    @Override
    public long getHoldTotalNanos() {
        return m().hold().totalNanos();
    }

    @Override
    public long getHoldMaxNanos() {
        return m().hold().maxNanos();
    }

    @Override
    public long getHoldP50Nanos() {
        return m().hold().percentileNanos(0.5);
    }

    @Override
    public long getHoldP99Nanos() {
        return m().hold().percentileNanos(0.99);
    }
}
