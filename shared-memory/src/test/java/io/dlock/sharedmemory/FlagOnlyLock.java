package io.dlock.sharedmemory;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Test fixture (docs/algorithms.md C1, SM-1): the first, flag-only attempt of notes S4 &sect;4.1 &mdash;
 * {@code flag[i] = true; while (flag[j]) {}; CS; flag[i] = false;}. Mutual exclusion holds, but if both
 * threads raise their flags before either tests the other's, both wait forever.
 */
public final class FlagOnlyLock extends SharedMemoryLock {

    private final AtomicIntegerArray flag = new AtomicIntegerArray(2);

    public FlagOnlyLock(int spinsBeforeParking) {
        super("FlagOnlyLock", 2, false, spinsBeforeParking);
    }

    @Override
    void enterDoorway(int i) {
        flag.set(i, 1);
    }

    @Override
    boolean mustWait(int i) {
        return flag.get(1 - i) == 1;
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
