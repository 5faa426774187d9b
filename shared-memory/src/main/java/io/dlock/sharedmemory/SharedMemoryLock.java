package io.dlock.sharedmemory;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A {@link Lock} for the threads of one JVM built only from reads and writes of shared variables (no
 * compare-and-set in the mutual-exclusion algorithm): the base of {@link PetersonLock}, {@link FilterLock}
 * and {@link BakeryLock}. This class owns everything the three have in common; each subclass supplies its
 * algorithm's entry and exit protocol and states its fairness.
 *
 * <h2>Threads and capacity</h2>
 * The algorithms are written for a fixed set of processes {@code 0..n-1}. A thread becomes process {@code i}
 * ("takes slot i") the first time it uses the lock, and keeps the slot until it calls
 * {@link #unregisterCurrentThread()}, which a thread pool should do before a worker moves on to other work.
 * When all {@link #capacity()} slots are taken by live threads, a further thread's {@code lock}/{@code tryLock}
 * throws an {@link IllegalStateException} that names the threads holding the slots. The slot of a thread that
 * has terminated is reused automatically, unless that thread died while holding the lock.
 *
 * <h2>Ownership and reentrancy</h2>
 * The lock is owned by the thread that acquired it. It is reentrant: the owner may acquire it again, each
 * acquisition is counted ({@link #getHoldCount()}) and needs its own {@link #unlock()}. {@code unlock()} by a
 * thread that does not hold the lock throws {@link IllegalMonitorStateException}.
 *
 * <h2>Waiting, interruption and timeouts</h2>
 * A waiting thread spins with {@link Thread#onSpinWait()} for a bounded number of checks, then parks, so a long
 * wait does not burn a core. {@link #lock()} is not interruptible: an interrupt is remembered and re-asserted
 * when the lock is acquired. {@link #lockInterruptibly()} and {@link #tryLock(long, TimeUnit)} throw
 * {@link InterruptedException} if the thread is interrupted on entry or while waiting. {@link #tryLock()} looks
 * once: it fails if another thread holds the lock <em>or is competing for it at that moment</em>. A waiter that
 * gives up (timeout, interrupt, or a failed {@code tryLock()}) withdraws its announcement from the shared state
 * before returning, so it never blocks the others.
 *
 * <h2>Conditions</h2>
 * {@link #newCondition()} returns a {@link Condition} with the {@code Object.wait}-like contract of
 * {@code ReentrantLock}'s conditions: {@code await} requires the lock, releases all its holds while waiting and
 * re-acquires them (uninterruptibly) before returning; {@code signal} and {@code signalAll} require the lock and
 * wake waiters in the order in which they started waiting.
 *
 * <h2>Memory effects</h2>
 * As for {@link Lock}: a successful acquisition has the memory effects of a volatile read, a release those of a
 * volatile write; everything a thread did while holding the lock happens-before everything the next owner does.
 */
public abstract class SharedMemoryLock implements Lock {

    /* Overview.
     *
     * The algorithm is a strategy of four package-private hooks on slot numbers, called in this order:
     *   enterDoorway(i)           the entry writes of the first stage (flag+victim, level 1+victim, ticket);
     *   mustWait(i)               the stage's busy-wait condition;
     *   passStage(i)              true: the critical section may be entered; false: the next stage's entry
     *                             writes are done (filter lock levels), wait again;
     *   exit(i)                   back to the remainder section: on unlock, and when a waiter gives up.
     * plus stateAtRest(i) for reclaiming a terminated thread's slot. A stage's wait is handed to SpinThenPark,
     * and wakeParked() is called after each of the hooks that write, because each of those writes can end
     * somebody else's wait. Ownership's rules keep the holder (by slot) and the hold count, which live in this
     * object's fields; ThreadSlots maps threads to slots.
     *
     * Memory modes (issue 19). Each algorithm needs some of its stores to be ordered before later loads of other
     * variables (store-load), which acquire/release does not give, so every access of the algorithms' shared
     * variables is volatile (each volatile store costs a full fence on x86, the dominant cost of an uncontended
     * acquisition): each proof then rests on the synchronization order alone (PetersonLock's notes say why no
     * store is a release store). The algorithms use reads and writes only, never a read-modify-write: that is
     * what they exist to show. Two rules hold for all three locks:
     *   - the last store of every hook that can end another thread's wait (enterDoorway, passStage, exit) is
     *     volatile, because SpinThenPark.wakeParked() reads the parked count right after it (a store-load pair,
     *     see SpinThenPark's notes on lost wake-ups);
     *   - every load in mustWait is volatile: ordered after our own earlier volatile stores, and an acquire, so
     *     the value read synchronizes-with the store that wrote it.
     * With two slots the algorithm's own reads carry the happens-before edge from one owner to the next; with
     * more, the owner field does (Ownership's notes).
     *
     * The uncontended path of lock(): a scan of the slot array with plain reads (ThreadSlots.slotOf), one plain
     * read of holder (reentry), the doorway, one read of the parked count, one evaluation of the wait condition,
     * an opaque write of holder and a plain write of holds. No allocation, no ThreadLocal, no reference store
     * (so no GC write barrier), no read-modify-write; unlock() is one read of the holder's slot (the owner
     * check), the exit and one read of the parked count.
     */

    private final String name;
    private final ThreadSlots slots;
    // Ownership's state, kept here so that the hot path follows no extra pointer; only Ownership's static
    // methods touch it (see Ownership's notes for the access modes).
    /** 1 + the owner's slot, 0 when the lock is free; see Ownership. */
    int holder;
    /** The owner's hold count; written and read only by the owner. */
    int holds;
    /** Whether owner carries the happens-before edge between owners (more than two slots; Ownership's notes). */
    final boolean ownerCarriesHandoff;
    private final SpinThenPark waiting;
    /** ThreadSlots' array of slot holders, kept here for the fast path's lookup (ThreadSlots.slotOf). */
    final Thread[] slotThreads;
    /** The number of parked waiters; only SpinThenPark touches it (its notes on lost wake-ups). */
    int parkedCount;

    /**
     * @param name                   the lock's class name, for messages
     * @param capacity               number of thread slots, already validated
     * @param capacityIsConfigurable whether a "full" error should suggest a larger capacity
     * @param spinsBeforeParking     checks of a wait condition before the waiter parks
     */
    SharedMemoryLock(String name, int capacity, boolean capacityIsConfigurable, int spinsBeforeParking) {
        this.name = name;
        this.slotThreads = new Thread[capacity];
        this.slots = new ThreadSlots(name, slotThreads, capacityIsConfigurable, this::stateAtRest);
        this.ownerCarriesHandoff = capacity > 2;
        this.waiting = new SpinThenPark(this, capacity, spinsBeforeParking, this::mustWait);
    }

    // ---- the algorithm: implemented by each lock ------------------------------------------------------

    /** Entry writes of the first stage for slot {@code i}. */
    abstract void enterDoorway(int i);

    /** The busy-wait condition of slot {@code i}'s current stage. */
    abstract boolean mustWait(int i);

    /** Called when {@link #mustWait} is false: returns true to enter, or performs the next stage's entry writes and returns false. */
    abstract boolean passStage(int i);

    /** Returns slot {@code i} to the remainder section (unlock, or a waiter that gives up). */
    abstract void exit(int i);

    /** Whether slot {@code i}'s shared state is at rest: neither competing nor in the critical section. */
    abstract boolean stateAtRest(int i);

    // ---- Lock -----------------------------------------------------------------------------------------

    /** Acquires the lock, waiting as long as necessary; not interruptible (an interrupt is re-asserted on return). */
    @Override
    public final void lock() {
        Thread me = Thread.currentThread();
        int i = ThreadSlots.slotOf(slotThreads, me);
        if (!Ownership.reenter(this, i)
                && acquireNewHold(me, i, Mode.UNINTERRUPTIBLE, 0L, 1) == Entry.ENTERED_AFTER_INTERRUPT) {
            me.interrupt();
        }
    }

    @Override
    public final void lockInterruptibly() throws InterruptedException {
        acquireInterruptibly(Mode.INTERRUPTIBLE, 0L);
    }

    /** Acquires the lock if no other thread holds it or competes for it at this moment; never waits. */
    @Override
    public final boolean tryLock() {
        Thread me = Thread.currentThread();
        int i = ThreadSlots.slotOf(slotThreads, me);
        return Ownership.reenter(this, i) || acquireNewHold(me, i, Mode.NO_WAIT, 0L, 1) == Entry.ENTERED;
    }

    @Override
    public final boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(time);
        return acquireInterruptibly(nanos > 0 ? Mode.TIMED : Mode.NO_WAIT, nanos);
    }

    /** @throws IllegalMonitorStateException if the current thread does not hold the lock */
    @Override
    public final void unlock() {
        int exitSlot = Ownership.releaseOnce(this, Thread.currentThread());
        if (exitSlot >= 0) {
            exitAndWake(exitSlot);
        }
    }

    /** A condition bound to this lock; see the class documentation. */
    @Override
    public final Condition newCondition() {
        return new SharedMemoryCondition(this);
    }

    // ---- queries and slot management -----------------------------------------------------------------

    /** @return whether the current thread holds this lock */
    public final boolean isHeldByCurrentThread() {
        return Ownership.isHeldBy(this, Thread.currentThread());
    }

    /** @return the number of holds of the current thread on this lock: 0 if it does not hold it */
    public final int getHoldCount() {
        return Ownership.holdCount(this, Thread.currentThread());
    }

    /** @return whether some thread holds this lock; for monitoring, not for synchronization */
    public final boolean isLocked() {
        return Ownership.isHeld(this);
    }

    /** @return the maximum number of threads that can use this lock at the same time */
    public final int capacity() {
        return slots.capacity();
    }

    /**
     * Frees the current thread's slot so that another thread can use the lock. Does nothing (returns false)
     * if the thread has no slot; it gets one again on its next use.
     *
     * @return whether the current thread had a slot
     * @throws IllegalStateException if the current thread holds the lock
     */
    public final boolean unregisterCurrentThread() {
        Thread me = Thread.currentThread();
        if (Ownership.isHeldBy(this, me)) {
            throw new IllegalStateException(name + " is held by the current thread (" + me.getName()
                    + "); unlock it (hold count " + Ownership.holdCount(this, me) + ") before unregistering");
        }
        return slots.releaseSlotOf(me);
    }

    @Override
    public String toString() {
        Thread holder = Ownership.owner(this);
        return name + "[capacity " + capacity() + ", " + (holder == null ? "unlocked" : "locked by " + holder.getName()) + "]";
    }

    // ---- used by SharedMemoryCondition ----------------------------------------------------------------

    String name() {
        return name;
    }

    void checkHeldByCurrentThread() {
        Ownership.checkOwner(this, Thread.currentThread());
    }

    /** Releases every hold of the current thread; returns the hold count for {@link #reacquire}. */
    int releaseAll() {
        Thread me = Thread.currentThread();
        int exitSlot = Ownership.checkOwner(this, me);
        int saved = Ownership.releaseAll(this, me);
        exitAndWake(exitSlot);
        return saved;
    }

    /** Acquires the lock again, uninterruptibly, with {@code holdCount} holds; returns whether an interrupt arrived meanwhile. */
    boolean reacquire(int holdCount) {
        Thread me = Thread.currentThread();
        return acquireNewHold(me, ThreadSlots.slotOf(slotThreads, me), Mode.UNINTERRUPTIBLE, 0L, holdCount)
                == Entry.ENTERED_AFTER_INTERRUPT;
    }

    // ---- the shared acquisition path ------------------------------------------------------------------

    private enum Mode { UNINTERRUPTIBLE, INTERRUPTIBLE, TIMED, NO_WAIT }

    private enum Entry { ENTERED, ENTERED_AFTER_INTERRUPT, GAVE_UP, INTERRUPTED }

    private boolean acquireInterruptibly(Mode mode, long nanos) throws InterruptedException {
        Thread me = Thread.currentThread();
        int i = ThreadSlots.slotOf(slotThreads, me);
        if (Ownership.reenter(this, i)) {
            return true;
        }
        if (Thread.interrupted()) {
            throw new InterruptedException(name + ": interrupted before acquiring");
        }
        Entry entry = acquireNewHold(me, i, mode, nanos, 1);
        if (entry == Entry.INTERRUPTED) {
            throw new InterruptedException(name + ": interrupted while waiting for the lock");
        }
        return entry == Entry.ENTERED;
    }

    /**
     * Runs the algorithm's entry protocol for the current thread, which does not hold the lock; {@code slot} is its
     * slot, or -1 if it has none yet.
     * In {@link Mode#UNINTERRUPTIBLE} an interrupt is absorbed and reported as {@link Entry#ENTERED_AFTER_INTERRUPT};
     * in the other modes the thread withdraws and reports {@link Entry#INTERRUPTED} (its interrupt status cleared).
     */
    private Entry acquireNewHold(Thread me, int slot, Mode mode, long nanos, int holdCount) {
        int i = slot >= 0 ? slot : slots.claimSlotOf(me);
        // The uncontended path: doorway, one look at the wait condition, enter.
        try {
            enterDoorway(i);
            wakeParked();
            if (!mustWait(i) && passStage(i)) {
                Ownership.entered(this, me, i, holdCount);
                return Entry.ENTERED;
            }
        } catch (RuntimeException | Error e) {
            exitAndWake(i); // withdraw, as awaitEntry does (a broken test variant's hook may throw)
            throw e;
        }
        return awaitEntry(me, i, mode, nanos, holdCount);
    }

    /** The rest of {@link #acquireNewHold}: slot {@code i} has done a doorway or stage entry and must look again. */
    private Entry awaitEntry(Thread me, int i, Mode mode, long nanos, int holdCount) {
        boolean timed = mode == Mode.TIMED;
        long deadline = timed ? System.nanoTime() + nanos : 0L;
        boolean wait = mode == Mode.UNINTERRUPTIBLE || mode == Mode.INTERRUPTIBLE || timed;
        boolean interrupted = false;
        boolean entered = false;
        try {
            wakeParked(); // the stage entry passStage may just have done
            while (true) {
                if (mustWait(i)) {
                    if (!wait) {
                        return Entry.GAVE_UP;
                    }
                    SpinThenPark.Outcome outcome = waiting.await(i, timed, deadline);
                    if (outcome == SpinThenPark.Outcome.TIMED_OUT) {
                        return Entry.GAVE_UP;
                    }
                    if (outcome == SpinThenPark.Outcome.INTERRUPTED) {
                        if (mode != Mode.UNINTERRUPTIBLE) {
                            return Entry.INTERRUPTED;
                        }
                        interrupted = true;
                        continue; // keep waiting: lock() is not interruptible
                    }
                }
                if (passStage(i)) {
                    Ownership.entered(this, me, i, holdCount);
                    entered = true;
                    return interrupted ? Entry.ENTERED_AFTER_INTERRUPT : Entry.ENTERED;
                }
                wakeParked();
            }
        } finally {
            if (!entered) {
                exitAndWake(i); // withdraw: a waiter that gives up must not block the others
            }
        }
    }

    /** After a store that can end another thread's wait: SpinThenPark's notes on lost wake-ups. */
    private void wakeParked() {
        if (SpinThenPark.anyoneParked(this)) { // one load on the uncontended path
            waiting.unparkAll();
        }
    }

    private void exitAndWake(int i) {
        exit(i);
        wakeParked();
    }
}
