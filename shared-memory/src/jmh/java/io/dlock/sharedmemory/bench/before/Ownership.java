package io.dlock.sharedmemory.bench.before;

/**
 * Who holds a {@link SharedMemoryLock}, how many times (reentrancy), and with which slot: the same
 * bookkeeping {@code ReentrantLock} keeps, apart from the mutual-exclusion algorithm that decides who may enter.
 */
final class Ownership {

    /* Implementation notes.
     *
     * holds and slot are only read and written by the owning thread, between its entry and its exit,
     * so they need no ordering of their own: the mutual-exclusion algorithm orders owners.
     *
     * owner is volatile for two reasons.
     * 1. Other threads read it for diagnostics (unlock by a non-owner, toString); a thread comparing it
     *    with itself can only see itself if it is the owner (it is the only writer of its own identity).
     * 2. It carries the happens-before edge from one owner's critical section to the next owner's. The
     *    algorithms give mutual exclusion in the total order of their volatile accesses, but a thread may
     *    enter (a filter-lock level) because it read a victim written by a third thread, without reading
     *    anything the previous owner wrote after its critical section. Hence: the previous owner writes
     *    owner = null (volatile) before its exit write, and the new owner reads owner (volatile) after its
     *    entry. Both are in the total order of volatile accesses, on the right sides of the exit/entry pair
     *    by mutual exclusion, so the read returns that null: a synchronizes-with edge, and the data the
     *    critical sections share needs no further synchronization.
     */

    private final String lockName;
    private volatile Thread owner;
    private int holds;
    private int slot = -1;

    Ownership(String lockName) {
        this.lockName = lockName;
    }

    boolean isHeldBy(Thread thread) {
        return owner == thread;
    }

    boolean isHeld() {
        return owner != null;
    }

    Thread owner() {
        return owner;
    }

    /** Hold count of {@code thread}: 0 unless it is the owner. */
    int holdCount(Thread thread) {
        return owner == thread ? holds : 0;
    }

    /** If {@code thread} already owns the lock, counts one more hold and returns true. */
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
        // Volatile read after the algorithm's entry: the happens-before edge from the previous owner (see notes).
        Thread previous = owner;
        assert previous == null : lockName + ": mutual exclusion violated, " + thread.getName()
                + " entered while " + previous.getName() + " holds the lock";
        slot = slotOfThread;
        holds = holdCount;
        owner = thread;
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
        Thread current = owner;
        if (current != thread) {
            throw new IllegalMonitorStateException(lockName + " is not held by the current thread ("
                    + thread.getName() + "); " + (current == null ? "it is not locked" : "it is held by " + current.getName()));
        }
    }

    private int clear() {
        int exitSlot = slot;
        holds = 0;
        slot = -1;
        owner = null; // volatile write before the algorithm's exit write (see notes)
        return exitSlot;
    }
}
