package io.dlock.jgroups;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the views JGroups delivers to dlock on a thread of its own, one at a time, in the order JGroups delivered
 * them.
 *
 * <p><b>Why a thread of its own.</b> JGroups calls {@code viewAccepted} on the thread that delivered the VIEW message;
 * with the loopback {@code default} stack ({@code message_processing_policy="direct"}) that is TCP_NIO2's selector
 * thread, the one thread that reads every member's messages (with the {@code tcp} and {@code secure} stacks, a pool
 * thread that the sender's next messages wait for). A view change makes dlock offer the view to every live lock of the
 * node, and that took 5 to 18 s with 100 000 live locks (3 nodes on 127.0.0.1, a fourth joining, 2 vCPUs): on the
 * selector thread, the node would read nothing meanwhile, heartbeats included, and suspect everyone. On this thread the
 * selector goes on reading. Nothing is lost by that: the node's view is replaced before the locks are told, and
 * a lock that a message reaches first takes the node's current view then (its driver is offered the view at every
 * lookup); the others are told in turn.
 *
 * <p>The thread ends after {@value #IDLE_SECONDS} s without a view and starts again with the next, so an idle node
 * keeps no thread for it. {@link #close} drops views not yet handed over.
 */
final class ViewDelivery implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ViewDelivery.class);

    /** How long the thread waits for the next view before it ends. */
    static final int IDLE_SECONDS = 30;

    private final ThreadPoolExecutor thread;

    /** @param threadName the name of the thread that hands views over */
    ViewDelivery(String threadName) {
        this.thread = new ThreadPoolExecutor(1, 1, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        this.thread.allowCoreThreadTimeOut(true);
    }

    /**
     * Queues {@code install} after the views queued before it; dropped once {@link #close} was called. An
     * exception of {@code install} is logged, and the next view is handed over all the same.
     */
    void deliver(Runnable install) {
        try {
            thread.execute(() -> {
                try {
                    install.run();
                } catch (RuntimeException e) {
                    LOG.error("handing a JGroups view to dlock failed", e);
                }
            });
        } catch (RejectedExecutionException e) {
            // closed: the node leaves, no view matters any more
        }
    }

    /** Drops the views not yet handed over; one being handed over finishes on its own (it is not interrupted). */
    @Override
    public void close() {
        thread.shutdown();
        thread.getQueue().clear();
    }
}
