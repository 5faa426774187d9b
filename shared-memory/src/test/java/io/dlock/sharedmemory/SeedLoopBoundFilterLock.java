package io.dlock.sharedmemory;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Test fixture (docs/algorithms.md SM-6, F24): the filter lock of notes S4 &sect;4.1 with only its typos fixed, keeping its
 * loop bound {@code do { ... j = j + 1; } while (j != n-1)}. It climbs levels {@code 1..n-2}, one too few, so for
 * n &ge; 3 two threads can be in the critical section together; for n = 2 the loop runs past the last level and
 * the {@code victim} index goes out of bounds. Compare {@link FilterLock}, which climbs {@code 1..n-1}.
 */
public final class SeedLoopBoundFilterLock extends SharedMemoryLock {

    private final int n;
    private final AtomicIntegerArray level;
    private final AtomicIntegerArray victim;

    public SeedLoopBoundFilterLock(int n, int spinsBeforeParking) {
        super("SeedLoopBoundFilterLock", n, true, spinsBeforeParking);
        this.n = n;
        this.level = new AtomicIntegerArray(n);
        this.victim = new AtomicIntegerArray(n);
    }

    @Override
    void enterDoorway(int i) {
        enterLevel(i, 1); // j = 1; do { flag[i] = j; turn[j] = i; ...
    }

    @Override
    boolean mustWait(int i) {
        int j = level.get(i);
        if (victim.get(j) != i) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            if (k != i && level.get(k) >= j) {
                return true;
            }
        }
        return false;
    }

    @Override
    boolean passStage(int i) {
        int j = level.get(i) + 1;  // j = j + 1;
        if (j == n - 1) {          // } while (j != n-1)  -- the source notes' bound
            return true;
        }
        enterLevel(i, j);
        return false;
    }

    @Override
    void exit(int i) {
        level.set(i, 0);
    }

    @Override
    boolean stateAtRest(int i) {
        return level.get(i) == 0;
    }

    private void enterLevel(int i, int j) {
        level.set(i, j);
        victim.set(j, i);
    }
}
