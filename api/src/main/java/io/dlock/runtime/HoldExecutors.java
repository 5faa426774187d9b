package io.dlock.runtime;

import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The node's threads that a lock's {@link LocalLockState} borrows for its holds: where asynchronous acquisitions are
 * completed, and the timer and the worker that end a hold whose lease ran out.
 *
 * @param completions completes asynchronous acquisitions: runs the application's dependent stages, so never the
 *                    event loop nor the timer (the node's event thread, which also tells the ownership listeners)
 * @param timers      the node's timer thread, on which a lease's end is scheduled; null: a lease is enforced only
 *                    when its holder calls (unit tests of the local state)
 * @param work        where the timer hands an ended lease over, as the timer's thread must not be borrowed (the
 *                    node's loop pool)
 */
record HoldExecutors(Executor completions, ScheduledExecutorService timers, Executor work) {

    /** For unit tests of the local state: everything on the calling thread, leases enforced only on calls. */
    static final HoldExecutors INLINE = new HoldExecutors(Runnable::run, null, Runnable::run);
}
