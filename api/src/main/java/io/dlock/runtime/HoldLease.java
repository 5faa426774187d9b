package io.dlock.runtime;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The lease of the current hold of one lock on one node: how long it is, when it ends on the node's monotonic clock
 * ({@link System#nanoTime()}), and the one timer, on the node's timer thread, that ends it there. No thread waits
 * for a lease: when the timer fires, the check is handed to the node's worker ({@link HoldExecutors#work()}), which
 * runs {@code due}; the holder's own calls check the clock as well, so a late timer never lets a lease run over.
 *
 * <p>Guarded by the owning {@link LocalLockState}'s mutex: every method is called with it held.
 */
final class HoldLease {

    /** The length of no lease: the hold lasts until it is released. */
    static final long NONE = -1;

    private final HoldExecutors executors;
    /** Checks, with the mutex, whether the current hold's lease has ended (it may have been renewed meanwhile). */
    private final Runnable due;
    private long length = NONE;
    private long end;
    private ScheduledFuture<?> timer;

    HoldLease(HoldExecutors executors, Runnable due) {
        this.executors = executors;
        this.due = due;
    }

    /**
     * Starts a lease of {@code lengthNanos} from {@code now} for the current hold, replacing any before;
     * {@link #NONE}: the hold has no lease.
     */
    void start(long lengthNanos, long now) {
        clear();
        if (lengthNanos == NONE) {
            return;
        }
        length = lengthNanos;
        end = now + lengthNanos;
        if (executors.timers() == null) {
            return;
        }
        try {
            timer = executors.timers().schedule(this::handOver, lengthNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closing) {
            timer = null; // the node is closing: the close drops the hold anyway
        }
    }

    /** Whether the current hold has a lease and it has run out at {@code now}. */
    boolean expired(long now) {
        return length != NONE && now - end >= 0;
    }

    /** The current lease's length in nanoseconds, or {@link #NONE}. */
    long length() {
        return length;
    }

    /** The hold ended: no lease, no timer. */
    void clear() {
        length = NONE;
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    /** On the timer thread: hands the check over to the worker, which may run the lock's event loop. */
    private void handOver() {
        try {
            executors.work().execute(due);
        } catch (RejectedExecutionException closing) {
            // the node is closing: the close drops the hold anyway
        }
    }
}
