package io.dlock.runtime;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs submitted tasks one at a time, in submission order, on a shared executor: the event loop of
 * one lock. Each task happens-before the next. A task that throws is logged and does not stop the
 * loop.
 */
final class SerialExecutor implements Executor {

    private static final Logger LOG = LoggerFactory.getLogger(SerialExecutor.class);

    private final Executor pool;
    private final Queue<Runnable> tasks = new ArrayDeque<>();
    private boolean scheduled;

    SerialExecutor(Executor pool) {
        this.pool = pool;
    }

    @Override
    public void execute(Runnable task) {
        synchronized (tasks) {
            tasks.add(task);
            if (scheduled) {
                return;
            }
            scheduled = true;
        }
        submitDrain();
    }

    /** Hands the loop to the pool; if the pool is shut down (the node is closing) the queued tasks are dropped. */
    private void submitDrain() {
        try {
            pool.execute(this::drain);
        } catch (RejectedExecutionException e) {
            synchronized (tasks) {
                tasks.clear();
                scheduled = false;
            }
        }
    }

    private void drain() {
        int budget = 256; // yield the pool thread now and then so one busy lock cannot starve others
        while (true) {
            Runnable next;
            synchronized (tasks) {
                next = tasks.poll();
                if (next == null) {
                    scheduled = false;
                    return;
                }
            }
            try {
                next.run();
            } catch (RuntimeException | Error e) {
                LOG.error("dlock event loop task failed", e);
            }
            if (--budget == 0) {
                submitDrain();
                return;
            }
        }
    }
}
