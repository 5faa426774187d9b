package io.dlock.inmemory;

import io.dlock.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.TransportException;
import io.dlock.spi.View;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's endpoint on the {@link InMemoryNetwork}: real threads, real time, messages passed as
 * byte arrays through in-memory queues with an optional fixed delay.
 *
 * <p>Each endpoint has one delivery thread; messages and views reach its receiver on that thread in
 * the order they were queued, and a fixed delay keeps that order, so channels are FIFO. A message to
 * a node that has left is dropped.
 */
public final class InMemoryTransport implements Transport {

    private static final Logger LOG = LoggerFactory.getLogger(InMemoryTransport.class);

    private final InMemoryNetwork network;
    private final String cluster;
    private final Long requestedId;
    private final long delayNanos;
    private final ScheduledThreadPoolExecutor delivery;
    private final CountDownLatch firstView = new CountDownLatch(1);
    private volatile Receiver receiver;
    private volatile NodeId self;
    private volatile View view;
    private volatile boolean closed;
    /** While paused: what arrives waits here in order (views and messages), nothing is sent; guarded by this. */
    private volatile List<Runnable> pausedInbox;

    InMemoryTransport(InMemoryNetwork network, String cluster, Long requestedId, Duration delay) {
        this.network = network;
        this.cluster = cluster;
        this.requestedId = requestedId;
        this.delayNanos = delay.toNanos();
        this.delivery = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "dlock-inmemory-" + cluster + "-" + (self == null ? "joining" : self.value()));
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void start(Receiver receiver) {
        if (this.receiver != null) {
            throw new IllegalStateException("in-memory transport already started as " + self);
        }
        this.receiver = receiver;
        network.join(cluster, requestedId, this);
        try {
            if (!firstView.await(30, TimeUnit.SECONDS)) {
                throw new TransportException("no view delivered within 30 s after joining in-memory cluster '" + cluster + "'");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new TransportException("interrupted while joining in-memory cluster '" + cluster + "'", e);
        }
    }

    void attach(NodeId node) {
        this.self = node;
    }

    void queueView(View v) {
        Runnable task = () -> {
            if (closed) {
                return;
            }
            view = v;
            receiver.onView(v);
            firstView.countDown();
        };
        if (holdWhilePaused(task)) {
            return;
        }
        try {
            delivery.execute(task);
        } catch (RejectedExecutionException e) {
            // closed meanwhile
        }
    }

    /** Keeps {@code delivery} for {@link #resume} if this endpoint is paused; false if it is not. */
    private synchronized boolean holdWhilePaused(Runnable delivery) {
        if (pausedInbox == null) {
            return false;
        }
        pausedInbox.add(delivery);
        return true;
    }

    /**
     * Stops this endpoint as {@code SIGSTOP} stops a process (for fault tests): nothing it sends leaves, and
     * what reaches it (messages and views) waits, in order, until {@link #resume}. Its node's own threads keep
     * running: what a paused process would do when it resumes, they do now, with no news from the network.
     */
    public synchronized void pause() {
        if (pausedInbox == null) {
            pausedInbox = new ArrayList<>();
        }
    }

    /**
     * Ends a {@link #pause}: sends work again and what waited is delivered, in arrival order, after {@code
     * lateBy} (a resumed JGroups member also learns of its new view only some time after it runs again).
     */
    public void resume(Duration lateBy) {
        List<Runnable> waited;
        synchronized (this) {
            waited = pausedInbox;
            pausedInbox = null;
        }
        if (waited == null) {
            return;
        }
        try {
            delivery.schedule(() -> waited.forEach(Runnable::run), lateBy.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // closed meanwhile
        }
    }

    void queueMessage(NodeId from, byte[] payload, long delay) {
        Runnable task = () -> {
            if (!closed) {
                receiver.onMessage(from, payload);
            }
        };
        if (holdWhilePaused(task)) {
            return;
        }
        try {
            if (delay > 0) {
                delivery.schedule(task, delay, TimeUnit.NANOSECONDS);
            } else {
                delivery.execute(task);
            }
        } catch (RejectedExecutionException e) {
            // the receiver left: the message is lost, as on a real network
        }
    }

    @Override
    public NodeId self() {
        return self;
    }

    @Override
    public View view() {
        return view;
    }

    @Override
    public void send(NodeId to, byte[] payload) {
        if (closed || pausedInbox != null) {
            return;
        }
        InMemoryTransport target = network.endpointOf(cluster, self, to);
        if (target == null) {
            LOG.debug("{}: dropped a message to {}, which is not in cluster '{}' or cut off", self, to, cluster);
            return;
        }
        target.queueMessage(self, payload, delayNanos);
    }

    @Override
    public boolean fifo() {
        return true;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (self != null) {
            network.leave(cluster, self);
        }
        delivery.shutdownNow();
    }

    @Override
    public String toString() {
        return "InMemoryTransport[" + cluster + "/" + self + "]";
    }
}
