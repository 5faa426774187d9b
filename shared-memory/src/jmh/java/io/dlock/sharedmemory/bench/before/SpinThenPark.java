package io.dlock.sharedmemory.bench.before;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntPredicate;

/**
 * The busy-wait of the textbook algorithms ({@code while (condition) {}}), made affordable: spin with
 * {@link Thread#onSpinWait()} for a bounded number of checks, then park until a thread that changed the
 * shared state calls {@link #wakeParked()}.
 *
 * <p>The lock calls {@link #wakeParked()} after every write that can end somebody's wait (a victim or turn
 * write, a level or ticket going back to 0, the end of a bakery doorway). The wait condition itself
 * belongs to the algorithm; this class only knows slot numbers and the predicate "slot i must still wait".
 */
final class SpinThenPark {

    /* Implementation notes.
     *
     * Lost wake-ups. A waiter announces itself (parked[slot] = me, then parkedCount++) and re-checks its
     * condition before parking; a waker first writes the shared state, then reads parkedCount and, if it
     * is not 0, unparks every announced thread. All four accesses are volatile (sequentially consistent),
     * so in their total order either the waker's read of parkedCount comes after the waiter's increment
     * (and the waker unparks it: the announcement precedes the increment), or it comes before, and then
     * the waiter's re-check comes after the waker's state write and sees it. LockSupport keeps a permit, so
     * an unpark that arrives before the park is not lost either.
     *
     * Extra unparks are harmless: a waiter always re-evaluates its condition after waking. The fast path
     * of wakeParked() (nobody parked) is a single volatile read.
     */

    /** Default number of checks of the wait condition before a waiter parks; covers a short critical section. */
    static final int DEFAULT_SPINS_BEFORE_PARKING = 512;

    /** How a wait ended. */
    enum Outcome {
        /** The wait condition became false: the caller may proceed. */
        PROCEED,
        /** The deadline passed while the condition still held. */
        TIMED_OUT,
        /** The thread was interrupted; its interrupt status has been cleared. */
        INTERRUPTED
    }

    private final IntPredicate mustWait;
    private final int spinsBeforeParking;
    private final AtomicReferenceArray<Thread> parked;
    private final AtomicInteger parkedCount = new AtomicInteger();

    /**
     * @param capacity           number of slots
     * @param spinsBeforeParking checks of the condition before parking, at least 0
     * @param mustWait           the wait condition of slot i
     */
    SpinThenPark(int capacity, int spinsBeforeParking, IntPredicate mustWait) {
        if (spinsBeforeParking < 0) {
            throw new IllegalArgumentException("spinsBeforeParking must be at least 0, got " + spinsBeforeParking);
        }
        this.mustWait = mustWait;
        this.spinsBeforeParking = spinsBeforeParking;
        this.parked = new AtomicReferenceArray<>(capacity);
    }

    /**
     * Waits until {@code mustWait.test(slot)} is false.
     *
     * @param timed          whether {@code deadlineNanos} applies
     * @param deadlineNanos  {@link System#nanoTime()} value after which the wait gives up
     */
    Outcome await(int slot, boolean timed, long deadlineNanos) {
        int spins = 0;
        while (mustWait.test(slot)) {
            if (Thread.interrupted()) {
                return Outcome.INTERRUPTED;
            }
            long remaining = 0;
            if (timed && (remaining = deadlineNanos - System.nanoTime()) <= 0) {
                return Outcome.TIMED_OUT;
            }
            if (spins < spinsBeforeParking) {
                spins++;
                Thread.onSpinWait();
                continue;
            }
            Thread me = Thread.currentThread();
            parked.set(slot, me);             // volatile: announce before counting (see notes)
            parkedCount.incrementAndGet();    // volatile read-modify-write
            try {
                if (!mustWait.test(slot)) {   // re-check after announcing: closes the lost wake-up window
                    break;
                }
                if (timed) {
                    LockSupport.parkNanos(this, remaining);
                } else {
                    LockSupport.park(this);
                }
            } finally {
                parkedCount.decrementAndGet();
                parked.set(slot, null);
            }
        }
        return Outcome.PROCEED;
    }

    /** Unparks every parked waiter; call after each write that may end another thread's wait. */
    void wakeParked() {
        // Volatile read, after the caller's volatile state write: see the notes on lost wake-ups.
        if (parkedCount.get() == 0) {
            return;
        }
        for (int i = 0; i < parked.length(); i++) {
            Thread waiter = parked.get(i);
            if (waiter != null) {
                LockSupport.unpark(waiter);
            }
        }
    }
}
