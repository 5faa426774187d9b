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
 * needs program order: here an {@code int[]} and an {@code int} through {@link VarHandle}s, every access volatile
 * (see the implementation notes). Reads and writes only: no read-modify-write. An uncontended lock+unlock costs
 * three full fences on x86, one per store ({@code ReentrantLock}'s costs two).
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
     * jcstress test AcquireReleasePetersonTest shows it. Every access of flag and turn is therefore volatile:
     *   flag[i] = 1   volatile store
     *   turn = i      volatile store: the StoreLoad barrier before the reads
     *   reads         volatile loads of flag[j] and turn
     *   flag[i] = 0   volatile store: exit; the StoreLoad before SpinThenPark.wakeParked()'s read
     * so the proof is Peterson's under sequential consistency: volatile accesses are totally ordered (the
     * synchronization order, JLS 17.4.4) consistently with program order, and each volatile load returns the
     * last volatile store to its variable before it in that order. Suppose both threads are in the critical
     * section; let i be the one whose doorway write of turn came later in that order, j the other. i entered on a
     * check after its own turn = i that read flag[j] == 0 or turn != i. turn != i is impossible (j, in the critical
     * section, does not write turn again), and flag[j] == 0 is impossible too: j's flag[j] = 1 precedes j's
     * turn = j, which precedes i's turn = i and i's read of flag[j], and j resets its flag only when it leaves.
     * (A flag store in release mode would save one fence, but the step "j's two stores become visible in
     * program order" is outside the Java memory model, which defines no release mode: the lock keeps to what the
     * language promises on every platform.)
     *
     * Happens-before between owners (Ownership's notes, two-slot case). The thread k that enters after p's
     * critical section read flag[p] and turn in its last check. If it read flag[p] == 0, that is p's exit store
     * (volatile) or the initial value (p never entered). If it read flag[p] == 1 and turn == p, then turn == p
     * was written after k's own turn = k, so it is p's next doorway store, which follows p's exit in program
     * order (a turn = p written before p's critical section and after k's turn = k would have made p wait for
     * k). Either way a volatile load read a volatile store that follows p's critical section: synchronizes-with.
     *
     * Why wake after enterDoorway: the other thread may be parked in its wait for "turn != j"; our write of
     * turn ends it. exit() ends the wait "flag[i] == 1". Both end with a volatile store (SharedMemoryLock notes).
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
        INTS.setVolatile(flag, i, INTERESTED); // volatile: in the synchronization order with turn (see notes)
        TURN.setVolatile(this, i);            // volatile: the StoreLoad before mustWait's loads (swapping them: SM-4)
    }

    @Override
    boolean mustWait(int i) {
        // Volatile loads: ordered after our volatile turn store, and acquires (happens-before, see notes).
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
