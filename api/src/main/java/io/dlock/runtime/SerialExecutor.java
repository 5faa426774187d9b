package io.dlock.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs submitted tasks one at a time, in submission order: the event loop of one lock. Each task
 * happens-before the next. A task that throws is logged and does not stop the loop.
 *
 * <p>Two ways in. {@link #execute} queues the task and, if no thread runs the loop, hands the loop to the
 * shared pool (for timers and background work, whose threads must not be borrowed). {@link #runOrQueue}
 * queues the task and, if no thread runs the loop, runs it on the calling thread, with whatever was queued
 * meanwhile, up to a small budget, before the pool takes over. The second one is what keeps a lock round trip
 * close to the network's: a caller's request, a transport thread's delivery and the grant's wake-up run where
 * they arrive, with no hand-off to a pool thread and back (two thread switches per message saved).
 *
 * <p>After each pass over the queue, before the running thread lets go of the loop, it runs {@link #afterPass()}
 * on the loop: a lock writes there the messages its tasks sent, one transport message per destination
 * ({@link Outbox}).
 *
 * <p>The loop is owned through a counter of submissions not yet seen by the running thread (the
 * work-in-progress pattern): a thread that submits never waits for the one that runs the loop, so a caller that
 * locks and unlocks in a tight loop cannot keep a transport thread's delivery out (with a monitor around the
 * queue it did: the monitor is not fair, and one node kept a token for thousands of entries while another node's
 * request waited to be queued).
 *
 * <p><b>Memory.</b> A node may keep a million live locks, each a loop (a {@link LockDriver} is one), so the
 * queue lives in the loop's own fields: submitters push onto a lock-free stack ({@code incoming}, newest first);
 * the running thread takes the whole stack at once and reverses it into its private list ({@code ready}, oldest
 * first). An idle loop holds two null references and a counter, no queue object and no sentinel node.
 */
class SerialExecutor implements Executor {

    private static final Logger LOG = LoggerFactory.getLogger(SerialExecutor.class);
    /** Tasks a pool thread runs before it yields, so that one busy lock cannot starve the others. */
    private static final int POOL_BUDGET = 256;
    /** Tasks a borrowed thread (a caller's, a transport's) runs before it hands the rest to the pool. */
    private static final int BORROWED_BUDGET = 16;
    private static final VarHandle PENDING;
    private static final VarHandle INCOMING;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PENDING = lookup.findVarHandle(SerialExecutor.class, "pending", int.class);
            INCOMING = lookup.findVarHandle(SerialExecutor.class, "incoming", Queued.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Executor pool;
    /** Tasks submitted and not yet taken by the running thread, newest first; updated through {@link #INCOMING}. */
    private volatile Queued incoming;
    /** Tasks taken from {@link #incoming}, oldest first; only the thread that runs the loop touches it. */
    private Queued ready;
    /**
     * Tasks submitted and not yet counted off by the loop's owner; 0 = nobody runs the loop. A plain field updated
     * through {@link #PENDING}: one per live lock, so no AtomicInteger object.
     */
    private volatile int pending;

    /** @param pool where the loop runs when no submitting thread may run it ({@link #execute}, a used-up budget) */
    SerialExecutor(Executor pool) {
        this.pool = pool;
    }

    /**
     * Runs on the loop, as a task would, whenever the thread that runs it has emptied the queue or used up its
     * budget, before it lets go of the loop or hands it to the pool: where a lock writes the messages of the tasks
     * that just ran ({@link Outbox}). Nothing by default.
     */
    protected void afterPass() {
    }

    @Override
    public void execute(Runnable task) {
        push(task);
        if ((int) PENDING.getAndAdd(this, 1) == 0) {
            handToPool();
        }
    }

    /**
     * Queues {@code task} and, if no other thread runs the loop, runs the queue on the calling thread (at
     * most a few tasks: the pool takes over the rest). A task that itself submits to this loop queues (it
     * never runs nested); the submitting thread never waits for another one.
     */
    void runOrQueue(Runnable task) {
        push(task);
        if ((int) PENDING.getAndAdd(this, 1) == 0) {
            drain(BORROWED_BUDGET);
        }
    }

    private void push(Runnable task) {
        Queued node = new Queued(task);
        Queued top;
        do {
            top = incoming;
            node.next = top;
        } while (!INCOMING.compareAndSet(this, top, node));
    }

    /** The oldest task not yet run, or null; only the thread that runs the loop calls it. */
    private Runnable poll() {
        if (ready == null) {
            if (incoming == null) {
                return null; // nothing pushed: no atomic exchange (a push after this read is counted in pending)
            }
            Queued stack = (Queued) INCOMING.getAndSet(this, (Queued) null);
            Queued reversed = null;
            while (stack != null) {
                Queued next = stack.next;
                stack.next = reversed;
                reversed = stack;
                stack = next;
            }
            ready = reversed;
            if (ready == null) {
                return null;
            }
        }
        Queued first = ready;
        ready = first.next;
        return first.task;
    }

    /** Hands the loop to the pool; if the pool is shut down (the node is closing) the queued tasks are dropped. */
    private void handToPool() {
        try {
            pool.execute(() -> drain(POOL_BUDGET));
        } catch (RejectedExecutionException e) {
            incoming = null;
            ready = null;
            pending = 0;
        }
    }

    /**
     * Runs the loop, owned by this thread (pending &gt; 0), until the queue is empty and no submission is
     * unaccounted for, or {@code budget} tasks ran; then the pool takes over, still owning the loop.
     */
    private void drain(int budget) {
        int seen = pending;
        int left = budget;
        boolean ran = false;
        while (true) {
            Runnable next;
            while ((next = poll()) != null) {
                runSafely(next);
                ran = true;
                if (--left == 0) {
                    passEnded();
                    handToPool();
                    return;
                }
            }
            if (ran) {
                passEnded();
                ran = false;
            }
            seen = (int) PENDING.getAndAdd(this, -seen) - seen;
            if (seen == 0) {
                return;
            }
        }
    }

    private void passEnded() {
        try {
            afterPass();
        } catch (RuntimeException | Error e) {
            LOG.error("dlock event loop task failed", e);
        }
    }

    private static void runSafely(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException | Error e) {
            LOG.error("dlock event loop task failed", e);
        }
    }

    /** A queued task and the one queued before it (in {@code incoming}) or after it (in {@code ready}). */
    private static final class Queued {
        final Runnable task;
        Queued next;

        Queued(Runnable task) {
            this.task = task;
        }
    }
}
