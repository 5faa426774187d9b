package io.dlock.sharedmemory;

import static io.dlock.sharedmemory.Cells.INTS;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

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
 * Two threads; atomic reads and writes of {@code flag} and {@code turn} that are not reordered where the proof
 * needs program order: here an {@code int[]} and an {@code int} through {@link VarHandle}s. {@code flag[i] = 1}
 * is a release store, {@code turn = i} an atomic swap (a volatile read and write in one), every other access
 * volatile (see the implementation notes). An uncontended lock+unlock costs two full fences on x86, as
 * {@code ReentrantLock}'s does: the swap of {@code turn} and the exit store {@code flag[i] = 0}.
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
     * Memory modes (issue 19). Thread i writes flag[i] and turn, then reads flag[j] and turn: a store followed by
     * a load of a DIFFERENT variable. Acquire/release (getAcquire/setRelease) orders load->load, load->store and
     * store->store but NOT store->load: a release store may still sit in the store buffer when a later acquire
     * load executes (x86-TSO does exactly this), so both threads can read the other's flag as 0 and enter. The
     * jcstress test AcquireReleasePetersonTest shows it. The accesses are therefore:
     *   flag[i] = 1   release store
     *   turn = i      getAndSet (volatile read + volatile write, atomically): the StoreLoad before the reads,
     *                 and a READ of the previous writer's turn, which is what orders its flag store before ours
     *   reads         volatile loads of flag[j] and turn
     *   flag[i] = 0   volatile store: exit; the StoreLoad before SpinThenPark.wakeParked()'s read
     *
     * Mutual exclusion. Every write of turn is a getAndSet, so the writes of turn are totally ordered (the
     * synchronization order, JLS 17.4.4) and each getAndSet reads the write just before it. Suppose both threads
     * are in the critical section; let i be the one whose doorway getAndSet of turn came later, j the other.
     * j does not write turn between its doorway and its exit, so i's getAndSet read j's: a volatile write read
     * by a volatile read synchronizes-with it, so j's flag[j] = 1 (before j's getAndSet in program order)
     * happens-before i's later reads of flag[j]. Those reads return 1 or a later write of flag[j], and j writes
     * flag[j] again only when it leaves. So i entered on a check that read turn != i, which needs a write of
     * turn after i's, by j: impossible, j is in the critical section. (This is Peterson's proof; the one step
     * that needed flag[j] = 1 to be a volatile store, "j's flag store is visible to the thread whose turn write
     * came later", is carried by the getAndSet's read instead. A plain release store of turn would not do: two
     * writes, unlike a write and a read, create no happens-before edge, and "j's two stores become visible in
     * program order" is not a promise of the Java memory model.)
     *
     * Happens-before between owners (Ownership's notes, two-slot case). Let k enter after p's critical section.
     * k's doorway getAndSet came after p's (if it came before, p's getAndSet read k's, so p saw flag[k] == 1
     * until k left, and p could only have entered after k, by the argument above). So k's getAndSet read p's
     * (or a later one of p's), and k's last check reads flag[p] == 1 or a later write. If k read flag[p] == 0,
     * that is p's exit store (volatile) or a later one. If it read turn == p, that is a getAndSet of p's after
     * k's own, so a doorway of p's after p's exit. Either way a volatile load read a volatile write that
     * follows p's critical section: synchronizes-with.
     *
     * Why wake after enterDoorway: the other thread may be parked in its wait for "turn != j"; our write of
     * turn ends it. exit() ends the wait "flag[i] == 1". Both end with a full fence (the getAndSet, the volatile
     * exit store) before wakeParked()'s read (SharedMemoryLock notes).
     */

    private static final int INTERESTED = 1;
    private static final int NOT_INTERESTED = 0;

    /** flag[i] of the source notes: 1 while thread i wants or holds the lock. */
    private final int[] flag = new int[2];
    /** turn of the source notes, used as the victim: the thread that wrote it last waits. */
    @SuppressWarnings("unused") // accessed through TURN only
    private int turn;

    private static final VarHandle TURN;

    static {
        try {
            TURN = MethodHandles.lookup().findVarHandle(PetersonLock.class, "turn", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

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
        INTS.setRelease(flag, i, INTERESTED); // release: ordered before the getAndSet, which publishes it (see notes)
        int unused = (int) TURN.getAndSet(this, i); // reads the other's turn write (see notes); the StoreLoad before
                                                    // mustWait's loads (SM-4); the exact (int) type keeps the call direct
    }

    @Override
    boolean mustWait(int i) {
        // Volatile loads: ordered after our getAndSet of turn, and acquires (happens-before, see notes).
        return (int) INTS.getVolatile(flag, 1 - i) == INTERESTED && (int) TURN.getVolatile(this) == i;
    }

    @Override
    boolean passStage(int i) {
        return true; // a single stage
    }

    @Override
    void exit(int i) {
        INTS.setVolatile(flag, i, NOT_INTERESTED); // volatile: releases the critical section; StoreLoad before wakeParked()
    }

    @Override
    boolean stateAtRest(int i) {
        return (int) INTS.getVolatile(flag, i) == NOT_INTERESTED;
    }
}
