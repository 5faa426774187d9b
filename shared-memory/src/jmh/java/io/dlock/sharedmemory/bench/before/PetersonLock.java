package io.dlock.sharedmemory.bench.before;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Peterson's mutual-exclusion algorithm for two threads, as a {@link java.util.concurrent.locks.Lock}.
 * (Not to be confused with Peterson's 1982 ring election algorithm.)
 *
 * <p>Source: notes S4 &sect;4.1, second code block (docs/algorithms.md C2); G. L. Peterson, "Myths about the mutual
 * exclusion problem", IPL 12(3), 1981; Herlihy &amp; Shavit, <i>The Art of Multiprocessor Programming</i>, &sect;2.3.
 * Each thread {@code i} (the other is {@code j = 1 - i}):
 * <pre>{@code
 * lock:   flag[i] = true; turn = i; while (flag[j] && turn == i) { wait }
 * unlock: flag[i] = false;
 * }</pre>
 *
 * <h2>Correction to the source notes (docs/algorithms.md F23)</h2>
 * None needed: the source notes write its <em>own</em> index to {@code turn} and waits while it is still the last
 * writer ("the process that updated turn waits itself") &mdash; the victim form of Herlihy &amp; Shavit,
 * equivalent to Peterson's {@code turn = j; while (flag[j] && turn == j)}. Only its missing semicolons were
 * fixed. Two tempting edits are wrong, and the tests show them failing: mixing the conventions
 * ({@code turn = j} with the wait {@code turn == i}), and writing {@code turn} before {@code flag[i]}
 * (docs/algorithms.md SM-3, SM-4). The source notes' first, flag-only version can deadlock and is kept only as a test fixture (SM-1).
 *
 * <h2>Assumptions</h2>
 * Two threads; atomic, sequentially consistent reads and writes of {@code flag} and {@code turn} (here
 * {@link AtomicIntegerArray} and {@link AtomicInteger} with volatile accesses; see the implementation notes).
 *
 * <h2>Capacity</h2>
 * The first two threads that use the lock take slots 0 and 1. A third thread gets an
 * {@link IllegalStateException} naming the two holders, until one of them calls
 * {@link #unregisterCurrentThread()} (or terminates without holding the lock).
 *
 * <h2>Fairness</h2>
 * Starvation-free with bounded bypass 1: once a waiting thread has written {@code turn}, the other thread can
 * enter at most once before it. Not affected by parking: a thread that parked is woken by the other's writes.
 *
 * <p>Ownership, reentrancy (supported, with a hold count), interruption, timeouts and conditions are as
 * described in {@link SharedMemoryLock}.
 */
public final class PetersonLock extends SharedMemoryLock {

    /* Implementation notes.
     *
     * Why volatile (sequentially consistent) accesses. Thread i writes flag[i] and turn, then reads flag[j]
     * and turn: a store followed by a load of a DIFFERENT variable. Mutual exclusion rests on "if both threads
     * are in, the later writer of turn must have seen the other's flag = 1", i.e. on the store of flag[i] being
     * ordered before the load of flag[j]. Acquire/release (getAcquire/setRelease) orders load->load,
     * load->store and store->store but NOT store->load: a release store may still sit in the store buffer when
     * the acquire load executes (x86-TSO does exactly this), so both threads can read the other's flag as 0 and
     * enter. The jcstress test AcquireReleasePetersonTest shows it. AtomicIntegerArray.get/set and
     * AtomicInteger.get/set are volatile accesses: totally ordered and consistent with program order.
     *
     * Why wake after enterDoorway: the other thread may be parked in its wait for "turn != j"; our write of
     * turn ends it. exit() ends the wait "flag[i] == 1".
     */

    private static final int INTERESTED = 1;
    private static final int NOT_INTERESTED = 0;

    /** flag[i] of the source notes: 1 while thread i wants or holds the lock. */
    private final AtomicIntegerArray flag = new AtomicIntegerArray(2);
    /** turn of the source notes, used as the victim: the thread that wrote it last waits. */
    private final AtomicInteger turn = new AtomicInteger();

    /** A Peterson lock for two threads. */
    public PetersonLock() {
        this(SpinThenPark.DEFAULT_SPINS_BEFORE_PARKING);
    }

    /** A Peterson lock whose waiters check {@code spinsBeforeParking} times before parking (tests use few). */
    PetersonLock(int spinsBeforeParking) {
        super("PetersonLock", 2, false, spinsBeforeParking);
    }

    @Override
    void enterDoorway(int i) {
        flag.set(i, INTERESTED); // volatile: must be ordered before the loads in mustWait (store-load)
        turn.set(i);             // volatile: after the flag write (swapping them breaks mutual exclusion, SM-4)
    }

    @Override
    boolean mustWait(int i) {
        // Volatile loads: ordered after our own stores in enterDoorway.
        return flag.get(1 - i) == INTERESTED && turn.get() == i;
    }

    @Override
    boolean passStage(int i) {
        return true; // a single stage
    }

    @Override
    void exit(int i) {
        flag.set(i, NOT_INTERESTED); // volatile: releases the critical section to the other thread
    }

    @Override
    boolean stateAtRest(int i) {
        return flag.get(i) == NOT_INTERESTED;
    }
}
