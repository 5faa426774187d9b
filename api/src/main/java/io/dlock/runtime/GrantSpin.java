package io.dlock.runtime;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * How a thread that has just asked the cluster for a lock waits for the grant: for a short window it stays on its
 * processor, yielding it at every turn, before it parks. A grant that arrives within the window (about a round trip
 * on a local network) is taken without the thread being woken up.
 *
 * <p>Why: a parked thread costs a wake-up when its grant comes, and on a virtual machine whose idle processor
 * halts, a wake-up is a trip through the hypervisor, often longer than the round trip itself (see "Wake-ups" in
 * docs/performance.md). A thread that stays runnable is not woken; it only sees the grant's state change. Every
 * turn of the spin yields the processor ({@link Thread#yield()}) to a thread with work to do, but the scheduler
 * may pick the spinner again before a thread that ran longer: where processors are scarce a spin delays the
 * threads that bring messages in. So it is off by default ({@code dlock.lock.grant-spin-us} = 0), for hosts with
 * processors to spare.
 *
 * <p><b>Bounded.</b> At most {@code slots} threads of the JVM spin at once, over all its nodes and locks
 * (by default one fewer than its processors, so spinners alone never fill them all); a thread that finds no free slot
 * parks at once. A spin ends at the window, at the caller's deadline, at an interrupt, or as
 * soon as the thread is no longer waiting for the grant. A window of zero never spins.
 *
 * <p>Thread-safe; one per node ({@code dlock.lock.grant-spin-us}).
 */
final class GrantSpin {

    /** Never spins: every wait parks at once. */
    static final GrantSpin NEVER = new GrantSpin(Duration.ZERO);

    /** Threads of this JVM spinning now, over all its nodes (processors are the JVM's, not a node's). */
    private static final AtomicInteger SPINNING = new AtomicInteger();
    /** One fewer than the JVM's processors: spinners alone never fill them all. */
    private static final int SLOTS = Runtime.getRuntime().availableProcessors() - 1;

    private final long windowNanos;
    private final AtomicInteger spinning;
    private final int slots;

    /** @param window how long a thread spins at most; {@link Duration#ZERO} never spins */
    GrantSpin(Duration window) {
        this(window, SPINNING, SLOTS);
    }

    /**
     * @param window   how long a thread spins at most; {@link Duration#ZERO} never spins
     * @param spinning the count of threads spinning now, shared by every spin that shares the processors
     * @param slots    at most this many threads spin at once
     */
    GrantSpin(Duration window, AtomicInteger spinning, int slots) {
        if (window.isNegative()) {
            throw new IllegalArgumentException("the spin window must be >= 0, got " + window);
        }
        this.windowNanos = window.toNanos();
        this.spinning = spinning;
        this.slots = slots;
    }

    /**
     * Spins while {@code waiting} is true, for at most the window and never past {@code deadline}. A caller that
     * let go of its lock to spin must look at its state again under that lock before it parks, whatever this
     * returns: what changed meanwhile signalled nobody.
     *
     * @param waiting  whether the thread still waits; read at every turn, so it must be cheap (a volatile read)
     * @param deadline the caller's deadline ({@link System#nanoTime()}), or 0 for none
     * @return whether it spun at all (false: the window is zero, or every slot is taken)
     */
    boolean spinWhile(BooleanSupplier waiting, long deadline) {
        if (windowNanos == 0 || !takeSlot()) {
            return false;
        }
        try {
            long end = System.nanoTime() + windowNanos;
            if (deadline != 0 && deadline - end < 0) {
                end = deadline;
            }
            Thread me = Thread.currentThread();
            while (waiting.getAsBoolean() && !me.isInterrupted() && System.nanoTime() - end < 0) {
                Thread.yield();
            }
            return true;
        } finally {
            spinning.decrementAndGet();
        }
    }

    /** Whether a wait may spin at all (the window is not zero); a spin may still find every slot taken. */
    boolean spins() {
        return windowNanos != 0;
    }

    private boolean takeSlot() {
        if (spinning.incrementAndGet() <= slots) {
            return true;
        }
        spinning.decrementAndGet();
        return false;
    }
}
