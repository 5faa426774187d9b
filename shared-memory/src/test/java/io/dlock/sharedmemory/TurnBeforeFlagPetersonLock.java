package io.dlock.sharedmemory;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Test fixture (docs/algorithms.md C2, SM-4): the source notes' Peterson lock with its two entry writes swapped &mdash;
 * {@code turn = i; flag[i] = true;}. It breaks mutual exclusion: thread i can write turn, thread j can then
 * write turn and read flag[i] == false and enter, and thread i, now not the victim, enters too.
 */
public final class TurnBeforeFlagPetersonLock extends SharedMemoryLock {

    private final AtomicIntegerArray flag = new AtomicIntegerArray(2);
    private final AtomicInteger turn = new AtomicInteger();

    public TurnBeforeFlagPetersonLock(int spinsBeforeParking) {
        super("TurnBeforeFlagPetersonLock", 2, false, spinsBeforeParking);
    }

    @Override
    void enterDoorway(int i) {
        turn.set(i);
        flag.set(i, 1);
    }

    @Override
    boolean mustWait(int i) {
        return flag.get(1 - i) == 1 && turn.get() == i;
    }

    @Override
    boolean passStage(int i) {
        return true;
    }

    @Override
    void exit(int i) {
        flag.set(i, 0);
    }

    @Override
    boolean stateAtRest(int i) {
        return flag.get(i) == 0;
    }
}
