package io.dlock.runtime;

import io.dlock.NodeId;
import io.dlock.spi.ForwardingTransport;
import io.dlock.spi.Transport;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's transport, which writes many messages to one node as one transport message while the node works through
 * many locks at once ({@link #runBatched}): a view change, which every live lock learns of and most answer (the
 * centralized coordinator of a name asks every member for its state; a token's census asks every member for its
 * report), and a batch received from another node, whose answers go back the same way. Outside such runs every send
 * goes straight to the transport.
 *
 * <p>Why: each transport message costs a system call and a wake-up on both sides and a trip through JGroups' stack,
 * far more than its bytes. Three JGroups nodes with 100 000 live locks each sent 350 000 of them at one join
 * (centralized), one node was excluded from the view and the newcomer got no lock for more than 30 s. Batched:
 * 2 898 transport messages, the last 4 s after the join, every node in the view.
 *
 * <p><b>Order.</b> While a run is open, every send of the node to every destination is kept, in order, in that
 * destination's batch, whichever thread sends it; the batches are written in order, and sends go straight to the
 * transport again only once all that was kept has been written. So the messages from this node to one destination
 * keep their order, as {@link Transport#fifo()} promises. A batch is written once it holds {@value #MAX_MESSAGES}
 * messages or {@value #MAX_BYTES} bytes, when the last open run ends, and when its oldest message has waited
 * {@link #MAX_HOLD}: a run checks after each of its steps ({@link #writeIfDue}), so a message sent meanwhile on
 * another thread (an epoch lease's probe, a grant) waits a few milliseconds at most. A batch of one message is written
 * as that message.
 *
 * <p><b>Who writes.</b> One thread of the node's own ({@code writer}); every other thread only adds to batches. Writing
 * may block: JGroups' flow control holds a sender up to 5 s until the receiver returns credits, and a transport's
 * receiving thread that blocked so would read no credits, no heartbeats and no views meanwhile. A first version, in
 * which the thread of a run wrote (so the receiving thread that routed a batch wrote the answers), had a node
 * excluded at a join with 30 000 live names, likely so. Membership messages (the epoch lease's probes) are never
 * kept.
 *
 * <p>The receiver routes a batch's messages one by one, in order, in a run of its own ({@link MessageRouter}), so
 * that the answers leave in batches too. Thread-safe.
 */
final class BatchingTransport extends ForwardingTransport {

    /** Most messages in one batch. */
    static final int MAX_MESSAGES = 1024;
    /** A batch is written once it holds this many bytes. */
    static final int MAX_BYTES = 64 * 1024;
    /** Longest a message waits in a batch while runs go on. */
    static final Duration MAX_HOLD = Duration.ofMillis(2);
    private static final Logger LOG = LoggerFactory.getLogger(BatchingTransport.class);

    private final String algorithm;
    /** {@link #MAX_HOLD} but in tests, nanoseconds. */
    private final long maxHoldNanos;
    private final Object lock = new Object();
    /** Whether sends are kept: from the first run's start until what was kept is written. Read by every send. */
    private volatile boolean keeping;
    /** When the oldest message kept now was kept ({@link System#nanoTime}), or 0 if none is. */
    private volatile long oldestKept;
    /** Whether a batch is full: {@link #full} is not empty. */
    private volatile boolean anyFull;
    /** Runs open; guarded by {@link #lock}. */
    private int runs;
    /** Whether a write is queued on {@link #writer} or runs there; guarded by {@link #lock}. */
    private boolean writeQueued;
    /** Whether that write is to write the batches still filling too; guarded by {@link #lock}. */
    private boolean writeEverything;
    /** The one thread that writes batches. */
    private final Executor writer;
    /** Per destination, the batch being filled; guarded by {@link #lock}. */
    private final Map<NodeId, Batch> filling = new LinkedHashMap<>();
    /** Batches full, to be written before those still filling; guarded by {@link #lock}. */
    private final ArrayDeque<Batch> full = new ArrayDeque<>();

    /**
     * @param transport the node's transport, which this one owns from now on
     * @param algorithm the node's mutex algorithm configuration name, in each batch's header
     * @param writer    the one thread that writes batches (a write may wait there for the transport's flow control)
     */
    BatchingTransport(Transport transport, String algorithm, Executor writer) {
        this(transport, algorithm, writer, MAX_HOLD);
    }

    /** A transport whose messages wait at most {@code maxHold} in a batch while runs go on: for tests. */
    BatchingTransport(Transport transport, String algorithm, Executor writer, Duration maxHold) {
        super(transport);
        this.algorithm = algorithm;
        this.writer = writer;
        this.maxHoldNanos = maxHold.toNanos();
    }

    /**
     * Runs {@code work}, keeping what the node sends meanwhile (on this thread or any other) in batches, and has them
     * written once the last open run is over.
     */
    void runBatched(Runnable work) {
        synchronized (lock) {
            runs++;
            keeping = true;
        }
        try {
            work.run();
        } finally {
            synchronized (lock) {
                runs--;
            }
            queueWrite(false);
        }
    }

    /**
     * Has the writer write the full batches, and every batch if the oldest message kept has waited {@link #MAX_HOLD};
     * cheap when neither is so. A run calls it between its steps.
     */
    void writeIfDue() {
        long oldest = oldestKept;
        boolean due = oldest != 0 && System.nanoTime() - oldest >= maxHoldNanos;
        if (due || anyFull) {
            queueWrite(due);
        }
    }

    @Override
    public void send(NodeId to, byte[] payload) {
        if (!keeping || isMembership(payload) || !keep(to, payload)) {
            delegate().send(to, payload);
        }
    }

    /**
     * Whether {@code payload} is a membership message ({@link Envelope#KIND_MEMBERSHIP}: the epoch lease's probes and
     * answers, the clean leave), which is never kept: a probe held up behind a blocked write would make the node's
     * view look stale. Their order with the messages of locks does not matter.
     */
    private static boolean isMembership(byte[] payload) {
        return Envelope.kindOf(payload) == Envelope.KIND_MEMBERSHIP;
    }

    @Override
    public void broadcast(byte[] payload) {
        if (!keeping) {
            delegate().broadcast(payload);
            return;
        }
        NodeId self = self();
        for (NodeId member : view().members()) {
            if (!member.equals(self)) {
                send(member, payload);
            }
        }
    }

    /** Adds {@code payload} to the batch for {@code to}, unless nothing is kept any more: then returns false. */
    private boolean keep(NodeId to, byte[] payload) {
        synchronized (lock) {
            if (!keeping) {
                return false;
            }
            Batch batch = filling.computeIfAbsent(to, Batch::new);
            batch.add(payload);
            if (oldestKept == 0) {
                oldestKept = System.nanoTime();
            }
            if (batch.messages.size() >= MAX_MESSAGES || batch.bytes >= MAX_BYTES) {
                filling.remove(to);
                full.add(batch);
                anyFull = true;
            }
            return true;
        }
    }

    /**
     * Has the writer write the full batches, and those still filling too if {@code everything} or once no run is
     * open; a write already queued takes this one's part.
     */
    private void queueWrite(boolean everything) {
        synchronized (lock) {
            writeEverything |= everything;
            if (writeQueued) {
                return;
            }
            writeQueued = true;
        }
        try {
            writer.execute(this::write);
        } catch (RejectedExecutionException closed) {
            synchronized (lock) { // the node is closing: what is kept goes nowhere, like a send on a closed transport
                writeQueued = false;
            }
        }
    }

    /** On the writer: writes what {@link #queueWrite} asked for and what was kept meanwhile, until none is left. */
    private void write() {
        while (true) {
            List<Batch> batches = new ArrayList<>();
            synchronized (lock) {
                batches.addAll(full);
                full.clear();
                anyFull = false;
                if (writeEverything || runs == 0) {
                    batches.addAll(filling.values());
                    filling.clear();
                    oldestKept = 0;
                }
                writeEverything = false;
                if (batches.isEmpty()) {
                    writeQueued = false;
                    if (runs == 0 && filling.isEmpty()) {
                        keeping = false;
                    }
                    return;
                }
            }
            for (Batch batch : batches) {
                try {
                    delegate().send(batch.to, batch.frame(algorithm));
                } catch (RuntimeException e) { // a transport must not throw; if one does, the batch is a dropped send
                    LOG.warn("{}: a batch of {} messages to {} was dropped: {}", self(), batch.messages.size(),
                            batch.to, e.toString());
                }
            }
        }
    }

    /** The messages kept for one destination, in order. */
    private static final class Batch {
        final NodeId to;
        final List<byte[]> messages = new ArrayList<>();
        int bytes;

        Batch(NodeId to) {
            this.to = to;
        }

        void add(byte[] payload) {
            messages.add(payload);
            bytes += payload.length;
        }

        /** What goes on the wire: the one message, or a batch of them. */
        byte[] frame(String algorithm) {
            return messages.size() == 1 ? messages.get(0)
                    : FrameList.write(new Envelope(Envelope.KIND_BATCH, algorithm, "", 0), messages);
        }
    }
}
