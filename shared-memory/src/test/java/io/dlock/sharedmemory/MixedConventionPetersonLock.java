package io.dlock.sharedmemory;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Test fixture (docs/algorithms.md C2, SM-3): a tempting "fix" of the source notes' Peterson lock that mixes the two
 * conventions &mdash; Peterson's {@code turn = j} with the source notes' wait {@code while (flag[j] && turn == i)}.
 * It breaks mutual exclusion. Compare {@link PetersonLock}: {@code turn = i} with {@code turn == i}.
 */
public final class MixedConventionPetersonLock extends SharedMemoryLock {

    private final AtomicIntegerArray flag = new AtomicIntegerArray(2);
    private final AtomicInteger turn = new AtomicInteger();

    public MixedConventionPetersonLock(int spinsBeforeParking) {
        super("MixedConventionPetersonLock", 2, false, spinsBeforeParking);
    }

    @Override
    void enterDoorway(int i) {
        flag.set(i, 1);
        turn.set(1 - i); // Peterson 1981 writes j ...
    }

    @Override
    boolean mustWait(int i) {
        return flag.get(1 - i) == 1 && turn.get() == i; // ... but the source notes wait while turn == i
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
