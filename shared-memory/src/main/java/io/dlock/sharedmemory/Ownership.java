package io.dlock.sharedmemory;

import static io.dlock.sharedmemory.Cells.THREADS;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Who holds a {@link SharedMemoryLock}, how many times (reentrancy), and with which slot: the same
 * bookkeeping {@code ReentrantLock} keeps, apart from the mutual-exclusion algorithm that decides who may enter.
 * The fields live in the lock itself ({@code holder}, {@code holds}), so the uncontended path does not follow one
 * more pointer after each full fence (issue 19); this class holds the rules, as static methods (which the
 * Lincheck tests treat as single steps, as they do ThreadSlots').
 */
final class Ownership {

    /* Implementation notes (issue 19: no full fence and no reference store here for two-slot locks).
     *
     * The owner is recorded by slot: holder = 1 + the owner's slot, 0 when the lock is free (0 is also the
     * default, so a lock published without synchronization reads as free). A slot belongs to one thread from
     * its claim to its release (ThreadSlots), so "holder == 1 + my slot" means "I hold the lock". An int
     * instead of the owner's Thread saves the garbage collector's write barriers of a reference store on every
     * acquisition and release; the Thread, for messages, is the slot's holder in ThreadSlots.
     *
     * holds is a plain field, read and written only by the owning thread between its entry and its exit; the
     * mutual-exclusion algorithm orders owners (see "happens-before" below).
     *
     * holder == 1 + mySlot, with a PLAIN read, is how a thread asks "do I hold the lock?" (reentry, unlock,
     * hold count, conditions). That is exact: a thread writes 1 + its own slot into holder (on entry) and 0 (on
     * exit), and other threads write 1 + their own, different, slots and 0. If the thread's own last write was
     * 1 + its slot, it reads it back (program order). If its last write was 0, that 0 happens-before the read
     * and hides the older write (JLS 17.4.5: a read cannot see a write overwritten by a write ordered between
     * them by happens-before). A thread that had this slot before us released it with a volatile store (or
     * terminated), and our claim of the slot read that by CAS (or Thread.isAlive), so its last write of holder
     * (0: a thread that died holding the lock keeps its slot) happens-before our read too. So the answer is
     * never stale in the direction that matters. Writes are opaque (atomic, eventually visible); other
     * threads read holder with getOpaque only for diagnostics (isLocked, toString, messages), which promise no
     * synchronization.
     *
     * Happens-before between critical sections. The Lock contract needs each release to happen-before the next
     * acquisition.
     * - Two-slot locks (PetersonLock, FilterLock(2), BakeryLock(2)): the algorithm itself provides it. The thread
     *   that enters last decided to enter on volatile loads of the other thread's variables, and each of those
     *   loads returns a value the other thread wrote at or after its last exit (its exit store, or a later
     *   doorway store, which follows the exit in program order), or the initial value if the other never
     *   entered. A release or volatile store read by a volatile load synchronizes-with it, so the previous
     *   critical section happens-before the new one. Each lock class argues the "returns a value written at or
     *   after the exit" step for its own loads. Hence holder needs no fence of its own, and the uncontended
     *   lock+unlock pays only the algorithm's fences. The opaque holder = 0 cannot be reordered after the
     *   volatile exit store that follows it, and the next owner writes holder only after reading that exit
     *   store (or a later one), so the writes of holder are ordered too.
     * - More than two slots (FilterLock(n), BakeryLock(n), n >= 3): a thread may enter (a filter-lock level)
     *   because it read a victim written by a third thread, without reading anything the previous owner wrote
     *   after its critical section. Here holder carries the edge: the previous owner writes holder = 0 with a
     *   volatile store before its exit store, and the new owner reads holder with a volatile load after its
     *   entry. Both are in the total order of volatile accesses, on the right sides of the exit/entry pair by
     *   mutual exclusion, so the read returns that 0: a synchronizes-with edge.
     */

    /** SharedMemoryLock.holder: plain reads by a thread comparing it with its own slot; opaque or (handoff) volatile otherwise. */
    private static final VarHandle HOLDER;

    static {
        try {
            HOLDER = MethodHandles.lookup().findVarHandle(SharedMemoryLock.class, "holder", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Ownership() {
    }

    /** Whether {@code thread} (the caller) holds the lock. */
    static boolean isHeldBy(SharedMemoryLock lock, Thread thread) {
        int slot = ThreadSlots.slotOf(lock.slotThreads, thread);
        return slot >= 0 && lock.holder == slot + 1; // plain read: exact for the caller (see notes)
    }

    static boolean isHeld(SharedMemoryLock lock) {
        return (int) HOLDER.getOpaque(lock) != 0;
    }

    /** The owner, for messages: racy, may be null or out of date if the caller is not the owner. */
    static Thread owner(SharedMemoryLock lock) {
        int h = (int) HOLDER.getOpaque(lock);
        return h == 0 ? null : (Thread) THREADS.getOpaque(lock.slotThreads, h - 1);
    }

    /** Hold count of {@code thread} (the caller): 0 unless it is the owner. */
    static int holdCount(SharedMemoryLock lock, Thread thread) {
        return isHeldBy(lock, thread) ? lock.holds : 0;
    }

    /** If the caller, whose slot is {@code slot} (-1: none), already owns the lock, counts one more hold and returns true. */
    static boolean reenter(SharedMemoryLock lock, int slot) {
        if (slot < 0 || lock.holder != slot + 1) { // plain read (see notes)
            return false;
        }
        if (lock.holds == Integer.MAX_VALUE) {
            throw new Error(lock.name() + ": maximum hold count exceeded (" + Integer.MAX_VALUE + ")");
        }
        lock.holds++;
        return true;
    }

    /** Records that {@code thread}, with slot {@code slot}, has just entered with {@code holdCount} holds. */
    static void entered(SharedMemoryLock lock, Thread thread, int slot, int holdCount) {
        int previous = lock.ownerCarriesHandoff
                ? (int) HOLDER.getVolatile(lock) // after the algorithm's entry: the edge from the previous owner
                : lock.holder;                   // the algorithm's own loads already ordered us after the exit
        assert previous == 0 : lock.name() + ": mutual exclusion violated, " + thread.getName()
                + " entered while the holder of slot " + (previous - 1) + " holds the lock";
        lock.holds = holdCount;
        HOLDER.setOpaque(lock, slot + 1);
    }

    /**
     * Counts one release by {@code thread}.
     *
     * @return the slot to exit with if this was the last hold, else -1
     * @throws IllegalMonitorStateException if {@code thread} is not the owner
     */
    static int releaseOnce(SharedMemoryLock lock, Thread thread) {
        int slot = checkOwner(lock, thread);
        if (--lock.holds > 0) {
            return -1;
        }
        clear(lock);
        return slot;
    }

    /**
     * Drops all holds of the owner (for a condition wait).
     *
     * @return the hold count to restore later; the exit slot is {@link #checkOwner}'s result
     */
    static int releaseAll(SharedMemoryLock lock, Thread thread) {
        checkOwner(lock, thread);
        int saved = lock.holds;
        clear(lock);
        return saved;
    }

    /**
     * @return the slot of {@code thread} (the caller), which holds the lock
     * @throws IllegalMonitorStateException if it does not
     */
    static int checkOwner(SharedMemoryLock lock, Thread thread) {
        int h = lock.holder; // plain read: exact for the caller (see notes)
        // The holder's slot is the caller's iff the caller is in it: a thread reads its own entry back, and never
        // sees itself in another slot (it wrote itself only into its own, and its release of an earlier slot
        // happens-before this read). One read instead of ThreadSlots' scan on every unlock.
        if (h != 0 && lock.slotThreads[h - 1] == thread) {
            return h - 1;
        }
        Thread current = owner(lock);
        throw new IllegalMonitorStateException(lock.name() + " is not held by the current thread ("
                + thread.getName() + "); " + (current == null ? "it is not locked" : "it is held by " + current.getName()));
    }

    private static void clear(SharedMemoryLock lock) {
        lock.holds = 0;
        if (lock.ownerCarriesHandoff) {
            HOLDER.setVolatile(lock, 0); // before the algorithm's exit store (see notes)
        } else {
            HOLDER.setOpaque(lock, 0);   // not reordered after the volatile exit store that follows (see notes)
        }
    }
}
