package io.dlock.sharedmemory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Who holds a {@link SharedMemoryLock}, how many times (reentrancy), and with which slot: the same
 * bookkeeping {@code ReentrantLock} keeps, apart from the mutual-exclusion algorithm that decides who may enter.
 */
final class Ownership {

    /* Implementation notes (issue 19: no full fence here for two-thread locks).
     *
     * holds and slot are plain fields, read and written only by the owning thread between its entry and its
     * exit; the mutual-exclusion algorithm orders owners (see "happens-before" below).
     *
     * owner == thread, with a PLAIN read, is how a thread asks "do I hold the lock?" (reentry, unlock, hold count,
     * conditions). That is exact: a thread only ever writes its own identity into owner (on entry) and null (on
     * exit), and other threads write only their own identities and null. If the thread's own last write was its
     * identity it reads it back (program order). If its last write was null, that null happens-before the read
     * and hides the older write of its identity (JLS 17.4.5: a read cannot see a write that is overwritten by a
     * write ordered between them by happens-before), and no other thread ever writes this thread's identity.
     * So the answer is never stale in the direction that matters. Writes are opaque (atomic, eventually
     * visible), and other threads read owner with getOpaque only for diagnostics (isLocked, toString,
     * messages), which promise no synchronization.
     *
     * Happens-before between critical sections. The Lock contract needs each release to happen-before the next
     * acquisition.
     * - Two-slot locks (PetersonLock, FilterLock(2), BakeryLock(2)): the algorithm itself provides it. The thread
     *   that enters last decided to enter on volatile (or acquire) reads of the other thread's variables, and
     *   each of those reads returns a value the other thread wrote at or after its last exit (its exit store, or
     *   a later doorway store, which follows the exit in program order), or the initial value if the other
     *   never entered. A release or volatile store read by a volatile or acquire load synchronizes-with it, so
     *   the previous critical section happens-before the new one. Each lock class argues the "returns a value
     *   written at or after the exit" step for its own reads. Hence owner needs no fence of its own, and the
     *   uncontended lock+unlock pays only the algorithm's fences.
     * - More than two slots (FilterLock(n), BakeryLock(n), n >= 3): a thread may enter (a filter-lock level)
     *   because it read a victim written by a third thread, without reading anything the previous owner wrote
     *   after its critical section. Here owner carries the edge: the previous owner writes owner = null with a
     *   volatile store before its exit store, and the new owner reads owner with a volatile load after its
     *   entry. Both are in the total order of volatile accesses, on the right sides of the exit/entry pair by
     *   mutual exclusion, so the read returns that null: a synchronizes-with edge.
     */

    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(Ownership.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String lockName;
    /** Whether owner carries the happens-before edge between owners (more than two slots; see notes). */
    private final boolean ownerCarriesHandoff;
    /** Plain reads by a thread comparing it with itself; opaque or (handoff) volatile otherwise. See notes. */
    private Thread owner;
    private int holds;
    private int slot = -1;

    /**
     * @param lockName the lock's class name, for messages
     * @param capacity the lock's number of slots: with more than two, owner carries the happens-before edge
     */
    Ownership(String lockName, int capacity) {
        this.lockName = lockName;
        this.ownerCarriesHandoff = capacity > 2;
    }

    boolean isHeldBy(Thread thread) {
        return owner == thread; // plain read: exact for thread == the caller (see notes)
    }

    boolean isHeld() {
        return OWNER.getOpaque(this) != null;
    }

    Thread owner() {
        return (Thread) OWNER.getOpaque(this);
    }

    /** Hold count of {@code thread} (the caller): 0 unless it is the owner. */
    int holdCount(Thread thread) {
        return owner == thread ? holds : 0;
    }

    /** If {@code thread} (the caller) already owns the lock, counts one more hold and returns true. */
    boolean reenter(Thread thread) {
        if (owner != thread) {
            return false;
        }
        if (holds == Integer.MAX_VALUE) {
            throw new Error(lockName + ": maximum hold count exceeded (" + Integer.MAX_VALUE + ")");
        }
        holds++;
        return true;
    }

    /** Records that {@code thread}, using {@code slotOfThread}, has just entered with {@code holdCount} holds. */
    void entered(Thread thread, int slotOfThread, int holdCount) {
        Thread previous = ownerCarriesHandoff
                ? (Thread) OWNER.getVolatile(this) // after the algorithm's entry: the edge from the previous owner
                : owner;                           // the algorithm's own reads already ordered us after the exit
        assert previous == null : lockName + ": mutual exclusion violated, " + thread.getName()
                + " entered while " + previous.getName() + " holds the lock";
        slot = slotOfThread;
        holds = holdCount;
        OWNER.setOpaque(this, thread);
    }

    /**
     * Counts one release by {@code thread}.
     *
     * @return the slot to exit with if this was the last hold, else -1
     * @throws IllegalMonitorStateException if {@code thread} is not the owner
     */
    int releaseOnce(Thread thread) {
        checkOwner(thread);
        if (--holds > 0) {
            return -1;
        }
        return clear();
    }

    /**
     * Drops all holds of the owner (for a condition wait).
     *
     * @return the hold count to restore later; the exit slot is {@link #slotOfOwner()} read before this call
     */
    int releaseAll(Thread thread) {
        checkOwner(thread);
        int saved = holds;
        clear();
        return saved;
    }

    /** The owner's slot; only meaningful when called by the owner. */
    int slotOfOwner() {
        return slot;
    }

    void checkOwner(Thread thread) {
        if (owner != thread) { // plain read: exact for thread == the caller (see notes)
            Thread current = owner();
            throw new IllegalMonitorStateException(lockName + " is not held by the current thread ("
                    + thread.getName() + "); " + (current == null ? "it is not locked" : "it is held by " + current.getName()));
        }
    }

    private int clear() {
        int exitSlot = slot;
        holds = 0;
        slot = -1;
        if (ownerCarriesHandoff) {
            OWNER.setVolatile(this, null); // before the algorithm's exit store (see notes)
        } else {
            // Opaque: the exit store that follows is a volatile store, so this write cannot be reordered after
            // it, and the next owner writes owner only after reading that exit (or a later) store.
            OWNER.setOpaque(this, null);
        }
        return exitSlot;
    }
}
