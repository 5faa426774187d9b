package io.dlock.sharedmemory;

import static io.dlock.sharedmemory.Cells.LONGS;

/**
 * Lamport's bakery algorithm: a first-come-first-served lock for {@code n} threads, as a
 * {@link java.util.concurrent.locks.Lock}. (Not to be confused with Lamport's 1978 distributed mutual exclusion.)
 *
 * <p>Source: not in the source notes; L. Lamport, "A new solution of Dijkstra's concurrent programming problem",
 * CACM 17(8), 1974; Herlihy &amp; Shavit, <i>The Art of Multiprocessor Programming</i>, &sect;2.6. It is here so
 * that users can compare it with {@link FilterLock}, which is not first-come-first-served. Thread {@code i}
 * takes a ticket one higher than every ticket it sees, then waits for every thread with a smaller
 * {@code (ticket, index)} pair:
 * <pre>{@code
 * lock:   choosing[i] = true; ticket[i] = 1 + max(ticket[0..n-1]); choosing[i] = false;   // doorway
 *         for each k != i: wait while choosing[k];
 *                          wait while ticket[k] != 0 && (ticket[k], k) < (ticket[i], i)
 * unlock: ticket[i] = 0;
 * }</pre>
 *
 * <h2>Assumptions</h2>
 * At most {@code capacity} threads; atomic reads and writes of {@code choosing} and {@code ticket} that are not
 * reordered where the proof needs program order: every access is volatile, and thread {@code i}'s
 * {@code choosing[i]} and {@code ticket[i]} are the low bit and the other 63 bits of one {@code long}, so that the
 * doorway's last two writes are one store (see the implementation notes). An uncontended lock+unlock costs three
 * full fences on x86 ({@code ReentrantLock}'s costs two). Tickets grow while the lock is never free; 62 bits of
 * them cannot overflow in practice (2<sup>62</sup> acquisitions).
 *
 * <h2>Capacity</h2>
 * Fixed at construction, between 2 and 64; one thread too many gets an {@link IllegalStateException} that names
 * the slot holders, until one of them calls {@link #unregisterCurrentThread()} (or terminates without holding the
 * lock). An acquisition costs {@code O(capacity)} reads.
 *
 * <h2>Fairness</h2>
 * First-come-first-served: if thread A finishes its doorway before thread B starts its own, A enters before B.
 * Hence starvation-free, with bounded bypass. A waiter that gives up withdraws its ticket.
 *
 * <p>Ownership, reentrancy (supported, with a hold count), interruption, timeouts and conditions are as
 * described in {@link SharedMemoryLock}.
 */
public final class BakeryLock extends SharedMemoryLock {

    /* Implementation notes.
     *
     * One word per thread (issue 19). state[i] = ticket[i] << 1 | choosing[i]. The doorway's last two writes,
     * ticket[i] = t and choosing[i] = 0, become the one store state[i] = t << 1, and a waiter reads choosing[k]
     * and ticket[k] in one load. Every execution of this code is an execution of Lamport's algorithm in which
     * those two writes (and those two reads) happen to be adjacent, with no other step between them, so
     * Lamport's proof applies unchanged; it saves the full fence of one volatile store.
     *
     * Memory modes (issue 19). Two store-load orders carry the proof:
     * (1) choosing[i] = 1 must be visible before i reads the tickets, so that a thread k that reads ticket[i]
     *     as 0 (or old) while i is choosing is made to wait by choosing[i] == 1;
     * (2) ticket[i] must be visible before i reads choosing[k] and ticket[k] in the wait, so that of two
     *     threads with overlapping doorways at least one sees the other's ticket.
     * Acquire/release would allow the loads to pass the earlier stores. Hence:
     *   state[i] = CHOOSING   volatile store: StoreLoad (1) before the ticket loads
     *   state[i] = t << 1     volatile store (ticket t, choosing 0): StoreLoad (2) before the loads in the wait,
     *                         and the StoreLoad before SpinThenPark.wakeParked()'s read (it can end a wait)
     *   state[i] = 0          volatile store: exit, and the StoreLoad before wakeParked()
     *   all loads             volatile
     * Every access is volatile, so Lamport's proof holds on the synchronization order (JLS 17.4.4) as under
     * sequential consistency: a thread k that reads ticket[i] reads choosing[i] == 0 in the same load, and of
     * two threads with overlapping doorways at least one reads the other's ticket. Three full fences per
     * uncontended lock+unlock on x86. (Making the first store a release store would save another, but (1) is a
     * store-load order, which release does not give; and the ticket store cannot be a release store either:
     * the thread k that reads choosing[i] == 0 before i's doorway began must still have its own ticket seen by
     * i's doorway reads, which only the total order of volatile accesses promises.)
     *
     * Happens-before between owners with capacity 2: the entering thread k's last check read state[p]; the
     * value read is p's exit store (0), a later doorway's store, or the initial value, each of which follows
     * p's critical section (a ticket of p's from before that critical section is smaller than k's and would
     * have made k wait), so the volatile read synchronizes-with a volatile store after p's critical section.
     * With more than two slots, the owner field carries the edge (Ownership's notes).
     *
     * The wait checks all k in one pass and starts over if one of them still blocks; each pass reads state[k]
     * once, so the reads that finally let i through are the ones Lamport's sequential per-k waits would have
     * made. i's own state is read back with a plain read: only i writes it.
     *
     * Wake-ups: the end of a doorway (choosing back to 0) and exit() (state back to 0) can end waits.
     */

    /** state[i] of a thread in its doorway, still choosing its ticket: choosing = 1, ticket = 0. */
    private static final long CHOOSING = 1L;

    /** state[i] = ticket[i] &lt;&lt; 1 | choosing[i]; 0 when thread i neither holds nor wants the lock. */
    private final long[] state;

    /**
     * A bakery lock for at most {@code capacity} threads.
     *
     * @param capacity the number of threads that may use the lock, 2 to 64
     * @throws IllegalArgumentException if {@code capacity} is not between 2 and 64
     */
    public BakeryLock(int capacity) {
        this(capacity, SpinThenPark.DEFAULT_SPINS_BEFORE_PARKING);
    }

    /** A bakery lock whose waiters check {@code spinsBeforeParking} times before parking (tests use few). */
    BakeryLock(int capacity, int spinsBeforeParking) {
        super("BakeryLock", ThreadSlots.checkCapacity("BakeryLock", capacity), true, spinsBeforeParking);
        this.state = new long[capacity];
    }

    @Override
    void enterDoorway(int i) {
        LONGS.setVolatile(state, i, CHOOSING); // volatile store, before the ticket loads (store-load, see notes (1))
        long max = 0;
        for (int k = 0; k < state.length; k++) {
            max = Math.max(max, (long) LONGS.getVolatile(state, k) >>> 1); // volatile loads of the tickets
        }
        LONGS.setVolatile(state, i, (max + 1) << 1); // ticket max + 1, choosing 0: ends the doorway; StoreLoad (2)
    }

    @Override
    boolean mustWait(int i) {
        long mine = state[i] >>> 1; // own ticket: only this thread writes it
        for (int k = 0; k < state.length; k++) {
            if (k == i) {
                continue;
            }
            long theirs = (long) LONGS.getVolatile(state, k); // volatile load of choosing[k] and ticket[k] at once
            if ((theirs & CHOOSING) != 0) {
                return true;
            }
            theirs >>>= 1;
            if (theirs != 0 && (theirs < mine || (theirs == mine && k < i))) {
                return true;
            }
        }
        return false;
    }

    @Override
    boolean passStage(int i) {
        return true; // a single stage after the doorway
    }

    @Override
    void exit(int i) {
        LONGS.setVolatile(state, i, 0L); // volatile: lets the next ticket holder in; StoreLoad before wakeParked()
    }

    @Override
    boolean stateAtRest(int i) {
        return (long) LONGS.getVolatile(state, i) == 0;
    }
}
