package io.dlock.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

/**
 * One node's handle on the lock a benchmark measures: a dlock {@code DistributedLock}, a JGroups
 * {@code LockService} lock, a Curator {@code InterProcessMutex}, or a plain {@code ReentrantLock} in tests.
 * The harness calls it from several threads of the same node at once, so the lock must be usable by
 * all of them (ownership per thread, as {@link Lock} has it).
 */
public interface NodeLock {

    /**
     * Acquires the lock for the calling thread, waiting at most {@code seconds}.
     *
     * @param seconds the longest wait
     * @return true if the lock is held, false if the time ran out (the harness counts a failure)
     * @throws Exception if the lock cannot be taken; the harness counts a failure
     */
    boolean tryLock(long seconds) throws Exception;

    /**
     * Releases the lock the calling thread holds.
     *
     * @throws Exception if the release fails; the harness counts a failure
     */
    void unlock() throws Exception;

    /**
     * A {@link Lock} as a NodeLock: {@code tryLock(seconds, SECONDS)} and {@code unlock()}. Fits dlock's
     * {@code DistributedLock} and JGroups' {@code LockService} locks, whose ownership is per thread, so
     * one per node serves all of that node's threads.
     */
    static NodeLock of(Lock lock) {
        return new NodeLock() {
            @Override
            public boolean tryLock(long seconds) throws InterruptedException {
                return lock.tryLock(seconds, TimeUnit.SECONDS);
            }

            @Override
            public void unlock() {
                lock.unlock();
            }
        };
    }
}
