package io.dlock.sharedmemory.jcstress;

import java.util.concurrent.locks.Lock;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The mutual-exclusion oracle shared by the jcstress tests (after jcstress's {@code Mutex_*} samples): each of two
 * actors increments a plain counter under the lock and reports the value it wrote. Run one after the other, the
 * actors report 1 and 2. Both in the critical section together shows in one of two ways: both report 1 (they read
 * the counter before either wrote it), or an actor's {@code unlock()} finds that the lock's owner is the OTHER
 * thread, which entered while this one was inside and recorded itself as owner; that actor then reports
 * {@value #OWNER_OVERWRITTEN}.
 */
abstract class TwoActorMutex {

    /** Reported by an actor whose unlock() found the other actor recorded as owner. */
    static final int OWNER_OVERWRITTEN = -1;

    private final Lock lock;
    private int counter;

    TwoActorMutex(Lock lock) {
        this.lock = lock;
    }

    final void first(II_Result r) {
        r.r1 = incrementUnderLock();
    }

    final void second(II_Result r) {
        r.r2 = incrementUnderLock();
    }

    private int incrementUnderLock() {
        lock.lock();
        int value = ++counter;
        try {
            lock.unlock();
        } catch (IllegalMonitorStateException otherThreadEnteredMeanwhile) {
            return OWNER_OVERWRITTEN;
        }
        return value;
    }
}
