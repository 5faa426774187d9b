package io.dlock.sharedmemory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
    /** The lock whose parkedCount field counts the parked waiters (kept in the lock: one pointer less, issue 19). */
    private final SharedMemoryLock lock;

    /** SharedMemoryLock.parkedCount: the number of waiters announced in parked. */
    private static final VarHandle PARKED_COUNT;

    static {
        try {
            PARKED_COUNT = MethodHandles.lookup().findVarHandle(SharedMemoryLock.class, "parkedCount", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * @param lock               the lock, which holds the parked count
     * @param capacity           number of slots
     * @param spinsBeforeParking checks of the condition before parking, at least 0
     * @param mustWait           the wait condition of slot i
     */
    SpinThenPark(SharedMemoryLock lock, int capacity, int spinsBeforeParking, IntPredicate mustWait) {
        if (spinsBeforeParking < 0) {
            throw new IllegalArgumentException("spinsBeforeParking must be at least 0, got " + spinsBeforeParking);
        }
        this.lock = lock;
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
            PARKED_COUNT.getAndAdd(lock, 1);  // volatile read-modify-write
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
                PARKED_COUNT.getAndAdd(lock, -1);
                parked.set(slot, null);
            }
        }
        return Outcome.PROCEED;
    }

    /**
     * Unparks every parked waiter; call after each write that may end another thread's wait. The lock inlines
     * the fast check itself ({@link SharedMemoryLock}'s wakeParked: the parked count is 0, return) and calls
     * this only when somebody is parked.
     */
    static boolean anyoneParked(SharedMemoryLock lock) {
        // Volatile read, after the caller's volatile state write: see the notes on lost wake-ups.
        return (int) PARKED_COUNT.getVolatile(lock) != 0;
    }

    /** Unparks every announced waiter: the slow half of the lock's wake-up, after {@link #anyoneParked} said yes. */
    void unparkAll() {
        for (int i = 0; i < parked.length(); i++) {
            Thread waiter = parked.get(i);
            if (waiter != null) {
                LockSupport.unpark(waiter);
            }
        }
    }
}
