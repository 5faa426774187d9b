package io.dlock.sharedmemory;

import static io.dlock.sharedmemory.Cells.INTS;

import java.util.Objects;

/**
 * The filter lock: Peterson's algorithm generalised to {@code n} threads, as a {@link java.util.concurrent.locks.Lock}.
 *
 * <p>Source: notes S4 &sect;4.1, "extension to n processes" (docs/algorithms.md C3); Peterson 1981; Herlihy &amp; Shavit,
 * <i>The Art of Multiprocessor Programming</i>, &sect;2.4. Thread {@code i} climbs levels {@code 1..n-1}; at each
 * level it announces itself and makes itself the level's victim, and waits while it is still the victim and some
 * other thread is at that level or higher:
 * <pre>{@code
 * lock:   for (L = 1; L < n; L++) {
 *             level[i] = L; victim[L] = i;
 *             while (victim[L] == i && (exists k != i: level[k] >= L)) { wait }
 *         }
 * unlock: level[i] = 0;
 * }</pre>
 * Each level stops at least one of the threads that reach it, so at most {@code n - L} threads pass level
 * {@code L}, and at most one passes level {@code n-1}.
 *
 * <h2>Corrections to the source notes (docs/algorithms.md F24)</h2>
 * <ul>
 *   <li>The source notes declare {@code flag} and {@code turn} Boolean; they hold a level ({@code 0..n-1}) and a thread
 *       index, so both are integer arrays (here {@code level} and {@code victim}); {@code victim} is indexed by level.</li>
 *   <li>{@code \exist \neq i} lacks its variable: {@code exists k != i}; {@code /geq} is {@code >=};
 *       {@code flag[i] = false} is {@code level[i] = 0}.</li>
 *   <li>The loop bound. The source notes' {@code do { ... j = j + 1; } while (j != n-1)} runs levels {@code 1..n-2}: one
 *       level too few, so two threads can be in the critical section together (n = 3, 4: Lincheck's model checker
 *       finds it for n = 3, a fixed schedule in the tests shows both), and for n = 2 it never ends. Here: levels
 *       {@code 1..n-1}.</li>
 * </ul>
 *
 * <h2>Assumptions</h2>
 * At most {@code capacity} threads; atomic reads and writes of {@code level} and {@code victim} that are not
 * reordered where the proof needs program order ({@code int[]}s accessed through a
 * {@link java.lang.invoke.VarHandle}, every access volatile; see the implementation notes). Reads and writes only:
 * no read-modify-write.
 *
 * <h2>Capacity</h2>
 * Fixed at construction, between 2 and 64. Each thread takes a slot on first use; one thread too many gets an
 * {@link IllegalStateException} that names the slot holders, until one of them calls
 * {@link #unregisterCurrentThread()} (or terminates without holding the lock). An acquisition costs
 * {@code O(capacity^2)} reads even without contention, so choose the capacity close to the number of threads.
 *
 * <h2>Fairness</h2>
 * Starvation-free: every waiting thread eventually enters. Not first-come-first-served: a thread can be
 * overtaken an unbounded number of times (use {@link BakeryLock} for FCFS).
 *
 * <p>Ownership, reentrancy (supported, with a hold count), interruption, timeouts and conditions are as
 * described in {@link SharedMemoryLock}; a waiter that gives up resets its level to 0, which can only let
 * others through.
 */
public final class FilterLock extends SharedMemoryLock {

    /* Implementation notes.
     *
     * Memory modes (issue 19). At each level a thread writes level[i] and victim[L], then reads victim[L] and
     * every level[k]. The counting argument ("of the threads that reach level L, the last to write victim[L]
     * cannot pass while another is at level >= L") needs every thread that wrote victim[L] earlier to have its
     * level[k] >= L visible to that last writer: a store ordered before later loads of other variables
     * (store-load), which acquire/release does not give. Hence:
     *   level[i] = L    volatile store
     *   victim[L] = i   volatile store: the StoreLoad before the reads
     *   reads           volatile loads of victim[L] and level[k]
     *   level[i] = 0    volatile store: exit; the StoreLoad before SpinThenPark.wakeParked()'s read
     * This is PetersonLock's argument level by level (level[i] = L plays flag[i] = 1, victim[L] plays turn), on
     * volatile accesses only, so it rests on the synchronization order alone: the last writer t of victim[L]
     * reads level[k] after its victim store; every earlier writer k of victim[L] stored level[k] = L before its
     * victim store, so t reads level[k] >= L (k lowers its level only on exit). With capacity 2 the lock is
     * Peterson's, and the algorithm's own reads carry the happens-before edge between owners as in
     * PetersonLock; with more, the owner field carries it (Ownership's notes).
     *
     * The thread's own current level is read back from level[i] with a plain read: only this thread writes
     * level[i] while it holds the slot (a new holder of a slot sees the old holder's writes through the CAS
     * that claims the slot).
     *
     * Wake-ups: a victim[L] write can end the wait of the previous victim of L; exit() (level back to 0) can end
     * the wait of anybody. Raising one's own level never ends a wait, but passStage() writes victim[L+1] at the
     * same time, so the lock wakes after it too. Each of these ends with a volatile store (SharedMemoryLock notes).
     *
     * The scan of levels in mustWait reads one level[k] at a time; docs/algorithms.md C3 notes this is still correct.
     *
     * Cost (issue 19): on x86 each volatile store is followed by a StoreLoad fence, about 10 ns on the machine the
     * README's figures come from, and HotSpot's C2 drops that fence when the next memory access is another
     * volatile store, whose own fence follows (two stores stay in order under x86-TSO). enterLevel therefore loads
     * both arrays and does both bounds checks before its two stores: with the load of victim and of its length
     * between them (as the plain code has it), the fence after level[i] = L stayed, and the uncontended
     * FilterLock(2) took 24.7 ns against PetersonLock's 14.4 (whose turn is a field: nothing is loaded between its
     * two stores); with the loads first, 15.6 ns. Only the JIT's fences change: the accesses and their modes, so
     * the argument above, are the same.
     */

    private final int topLevel;
    /** level[i]: the level thread i is at, 0 when it neither holds nor wants the lock (source notes: flag). */
    private final int[] level;
    /** victim[L] for L in 1..n-1: the thread that entered level L last (source notes: turn). Index 0 unused. */
    private final int[] victim;

    /**
     * A filter lock for at most {@code capacity} threads.
     *
     * @param capacity the number of threads that may use the lock, 2 to 64
     * @throws IllegalArgumentException if {@code capacity} is not between 2 and 64
     */
    public FilterLock(int capacity) {
        this(capacity, SpinThenPark.DEFAULT_SPINS_BEFORE_PARKING);
    }

    /** A filter lock whose waiters check {@code spinsBeforeParking} times before parking (tests use few). */
    FilterLock(int capacity, int spinsBeforeParking) {
        super("FilterLock", ThreadSlots.checkCapacity("FilterLock", capacity), true, spinsBeforeParking);
        this.topLevel = capacity - 1;
        this.level = new int[capacity];
        this.victim = new int[capacity];
    }

    @Override
    void enterDoorway(int i) {
        enterLevel(i, 1);
    }

    @Override
    boolean mustWait(int i) {
        int l = level[i];                          // own level: only this thread writes it (see notes)
        if ((int) INTS.getVolatile(victim, l) != i) { // volatile load, ordered after our stores in enterLevel
            return false;
        }
        for (int k = 0; k < level.length; k++) {
            if (k != i && (int) INTS.getVolatile(level, k) >= l) { // volatile loads
                return true;
            }
        }
        return false;
    }

    @Override
    boolean passStage(int i) {
        int l = level[i];
        if (l == topLevel) {
            return true;
        }
        enterLevel(i, l + 1);
        return false;
    }

    @Override
    void exit(int i) {
        INTS.setVolatile(level, i, 0); // volatile: lets every waiter re-evaluate its level condition; StoreLoad before wakeParked()
    }

    @Override
    boolean stateAtRest(int i) {
        return (int) INTS.getVolatile(level, i) == 0;
    }

    private void enterLevel(int i, int l) {
        int[] levels = level;
        int[] victims = victim;
        Objects.checkIndex(i, levels.length); // loads and checks first: nothing between the stores (see notes, Cost)
        Objects.checkIndex(l, victims.length);
        INTS.setVolatile(levels, i, l);  // volatile: in the synchronization order with victim (see notes)
        INTS.setVolatile(victims, l, i); // volatile: the StoreLoad before mustWait's loads; a later arrival sees us at level l
    }
}
