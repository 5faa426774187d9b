package io.dlock.sharedmemory.bench.before;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntPredicate;

/**
 * The registry that gives each thread using a {@link SharedMemoryLock} its process index ("slot")
 * {@code 0..capacity-1}: the {@code i} of the textbook algorithms, which index the shared arrays.
 *
 * <p>A thread gets the first free slot on its first use of the lock and keeps it until it calls
 * {@link #releaseSlotOf(Thread)}; a further thread when all slots are taken gets an
 * {@link IllegalStateException} naming the threads that hold them. The slot of a thread that has
 * terminated is reclaimed when a new thread needs one, provided the lock says that slot's shared
 * state is at rest (a thread that died holding the lock keeps its slot, and the lock stays held).
 */
final class ThreadSlots {

    /* Implementation notes.
     *
     * threads[i] is the thread that owns slot i, or null. A thread only ever stores ITSELF into a
     * slot (claim: CAS null -> me; reclaim: CAS deadThread -> me) and only ever clears its OWN slot.
     * Hence a thread looking for itself may read the array with plain reads: the only writes that
     * can make threads[i] == me are its own, and program order makes its own later write of null
     * visible to it; a stale value written by another thread is never equal to me.
     *
     * Claiming and reclaiming use CAS (volatile semantics), so the thread that takes over a slot
     * sees everything its previous owner did before releasing it (release is a volatile write), and
     * Thread.isAlive() returning false makes everything a terminated thread did visible.
     */

    /** Upper bound on the capacity of the n-thread locks: their cost per acquisition grows with n. */
    static final int MAX_CAPACITY = 64;

    private final String lockName;
    private final boolean capacityIsConfigurable;
    private final AtomicReferenceArray<Thread> threads;
    private final IntPredicate slotStateAtRest;

    /**
     * @param lockName               the lock's class name, used in error messages
     * @param capacity               number of slots, already validated with {@link #checkCapacity}
     * @param capacityIsConfigurable whether the error for a full registry should suggest a larger capacity
     * @param slotStateAtRest        tells whether slot i's shared algorithm state is at rest (not competing, not holding)
     */
    ThreadSlots(String lockName, int capacity, boolean capacityIsConfigurable, IntPredicate slotStateAtRest) {
        this.lockName = lockName;
        this.capacityIsConfigurable = capacityIsConfigurable;
        this.threads = new AtomicReferenceArray<>(capacity);
        this.slotStateAtRest = slotStateAtRest;
    }

    /** Returns {@code capacity} if it is in {@code 2..MAX_CAPACITY}, else throws an {@link IllegalArgumentException} that says so. */
    static int checkCapacity(String lockName, int capacity) {
        if (capacity < 2 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException(
                    lockName + " capacity must be between 2 and " + MAX_CAPACITY + ", got " + capacity);
        }
        return capacity;
    }

    int capacity() {
        return threads.length();
    }

    /** The slot of {@code thread}, or -1 if it has none. */
    int slotOf(Thread thread) {
        for (int i = 0; i < threads.length(); i++) {
            // Plain read: see the class notes, only `thread` itself can have stored `thread` here.
            if (threads.getPlain(i) == thread) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The slot of the current thread, claiming a free one (or one left by a terminated thread) on first use.
     *
     * @throws IllegalStateException if every slot is held by a live thread
     */
    int claimSlotOfCurrentThread() {
        Thread me = Thread.currentThread();
        int mine = slotOf(me);
        if (mine >= 0) {
            return mine;
        }
        for (int i = 0; i < threads.length(); i++) {
            if (threads.get(i) == null && threads.compareAndSet(i, null, me)) {
                return i;
            }
        }
        for (int i = 0; i < threads.length(); i++) {
            Thread holder = threads.get(i);
            if (holder != null && !holder.isAlive() && slotStateAtRest.test(i)
                    && threads.compareAndSet(i, holder, me)) {
                return i;
            }
        }
        throw new IllegalStateException(fullMessage());
    }

    /** Frees the slot of {@code thread}; returns whether it had one. Only the thread itself may call this. */
    boolean releaseSlotOf(Thread thread) {
        int slot = slotOf(thread);
        if (slot < 0) {
            return false;
        }
        // Volatile write: the next thread to claim this slot (by CAS) sees the slot's state as we left it.
        threads.set(slot, null);
        return true;
    }

    private String fullMessage() {
        List<String> holders = new ArrayList<>();
        for (int i = 0; i < threads.length(); i++) {
            Thread holder = threads.get(i);
            holders.add(holder == null ? "(just released)" : holder.getName());
        }
        return lockName + " already used by " + threads.length() + " threads (slots held by "
                + String.join(", ", holders) + "); call unregisterCurrentThread() on one of them first"
                + (capacityIsConfigurable ? ", or create the lock with a larger capacity (at most " + MAX_CAPACITY + ")" : "");
    }
}
