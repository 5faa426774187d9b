package io.dlock.sharedmemory;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * jcstress fixture: {@link PetersonLock}'s algorithm with its shared accesses deliberately weakened from volatile
 * to acquire/release ({@code setRelease} / {@code getAcquire}). Everything else, including the runtime, is the same.
 *
 * <p>It is wrong: acquire/release does not order a store before a later load of another variable, so each thread
 * can read the other's {@code flag} as 0 while its own {@code flag = 1} is still in its core's store buffer, and
 * both enter. {@code AcquireReleasePetersonTest} must observe that.
 */
public final class AcquireReleasePetersonLock extends SharedMemoryLock {

    private final AtomicIntegerArray flag = new AtomicIntegerArray(2);
    private final AtomicInteger turn = new AtomicInteger();

    public AcquireReleasePetersonLock() {
        super("AcquireReleasePetersonLock", 2, false, SpinThenPark.DEFAULT_SPINS_BEFORE_PARKING);
    }

    @Override
    void enterDoorway(int i) {
        flag.setRelease(i, 1); // WEAKENED: may still be invisible to the other thread when we read its flag below
        turn.setRelease(i);
    }

    @Override
    boolean mustWait(int i) {
        return flag.getAcquire(1 - i) == 1 && turn.getAcquire() == i; // WEAKENED: may pass our own stores
    }

    @Override
    boolean passStage(int i) {
        return true;
    }

    @Override
    void exit(int i) {
        flag.setRelease(i, 0);
    }

    @Override
    boolean stateAtRest(int i) {
        return flag.getAcquire(i) == 0;
    }
}
