package io.dlock.sharedmemory.bench.before;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

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
 * At most {@code capacity} threads; atomic, sequentially consistent reads and writes of {@code choosing} and
 * {@code ticket} (volatile accesses on {@link AtomicIntegerArray} / {@link AtomicLongArray}). Tickets grow while
 * the lock is never free; they are {@code long}s, so they cannot overflow in practice (2<sup>63</sup> acquisitions).
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
     * Why volatile (sequentially consistent) accesses. Two store-load orders carry the proof:
     * (1) choosing[i] = 1 must be visible before i reads the tickets, so that a thread k that reads ticket[i]
     *     as 0 (or old) while i is choosing is made to wait by choosing[i] == 1;
     * (2) ticket[i] must be visible before i reads choosing[k] and ticket[k] in the wait, so that of two
     *     threads with overlapping doorways at least one sees the other's ticket.
     * Acquire/release would allow the loads to pass the earlier stores; volatile get/set do not.
     *
     * The wait checks all k in one pass and starts over if one of them still blocks; each pass reads
     * choosing[k] then ticket[k], so the reads that finally let i through are the ones Lamport's sequential
     * per-k waits would have made. i's own ticket is read back with a plain read: only i writes it.
     *
     * Wake-ups: the end of a doorway (choosing[i] back to 0) and exit() (ticket[i] back to 0) can end waits.
     */

    /** choosing[i]: 1 while thread i is in its doorway, computing its ticket. */
    private final AtomicIntegerArray choosing;
    /** ticket[i]: thread i's number, 0 when it neither holds nor wants the lock. */
    private final AtomicLongArray ticket;

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
        this.choosing = new AtomicIntegerArray(capacity);
        this.ticket = new AtomicLongArray(capacity);
    }

    @Override
    void enterDoorway(int i) {
        choosing.set(i, 1); // volatile store, before the ticket loads (store-load, see notes (1))
        long max = 0;
        for (int k = 0; k < ticket.length(); k++) {
            max = Math.max(max, ticket.get(k)); // volatile loads
        }
        ticket.set(i, max + 1); // volatile store, before the loads in mustWait (see notes (2))
        choosing.set(i, 0);     // volatile store: ends the doorway
    }

    @Override
    boolean mustWait(int i) {
        long mine = ticket.getPlain(i); // own ticket: only this thread writes it
        for (int k = 0; k < ticket.length(); k++) {
            if (k == i) {
                continue;
            }
            if (choosing.get(k) == 1) { // volatile load
                return true;
            }
            long theirs = ticket.get(k); // volatile load, after the choosing[k] load
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
        ticket.set(i, 0); // volatile: lets the next ticket holder in
    }

    @Override
    boolean stateAtRest(int i) {
        return ticket.get(i) == 0 && choosing.get(i) == 0;
    }
}
