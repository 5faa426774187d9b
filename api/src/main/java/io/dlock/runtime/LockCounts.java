package io.dlock.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The counters of one lock on one node that its {@link io.dlock.LockMetrics} report: entries, messages and bytes
 * sent, frames sent, messages received, malformed and stale messages dropped. One object of plain fields rather than
 * one {@link java.util.concurrent.atomic.LongAdder} each, as every live lock has them: written only by the lock's
 * event loop (a single writer, so an increment needs no atomic operation), read by any thread with opaque reads
 * (never torn, and each counter's reads never go backwards).
 */
final class LockCounts {

    private static final VarHandle ENTRIES;
    private static final VarHandle MESSAGES_SENT;
    private static final VarHandle BYTES_SENT;
    private static final VarHandle FRAMES_SENT;
    private static final VarHandle MESSAGES_RECEIVED;
    private static final VarHandle MALFORMED;
    private static final VarHandle STALE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ENTRIES = lookup.findVarHandle(LockCounts.class, "entries", long.class);
            MESSAGES_SENT = lookup.findVarHandle(LockCounts.class, "messagesSent", long.class);
            BYTES_SENT = lookup.findVarHandle(LockCounts.class, "bytesSent", long.class);
            FRAMES_SENT = lookup.findVarHandle(LockCounts.class, "framesSent", long.class);
            MESSAGES_RECEIVED = lookup.findVarHandle(LockCounts.class, "messagesReceived", long.class);
            MALFORMED = lookup.findVarHandle(LockCounts.class, "malformed", long.class);
            STALE = lookup.findVarHandle(LockCounts.class, "stale", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private long entries;
    private long messagesSent;
    private long bytesSent;
    private long framesSent;
    private long messagesReceived;
    private long malformed;
    private long stale;

    // ---- on the lock's event loop only ----

    /** The lock was granted to this node. */
    void entered() {
        ENTRIES.setOpaque(this, entries + 1);
    }

    /** A message of {@code bytes} bytes left for another member. */
    void sent(int bytes) {
        MESSAGES_SENT.setOpaque(this, messagesSent + 1);
        BYTES_SENT.setOpaque(this, bytesSent + bytes);
    }

    /** A frame (one or more messages) left for another member. */
    void framed() {
        FRAMES_SENT.setOpaque(this, framesSent + 1);
    }

    /** A message of the lock was read and handed to the algorithm or a condition. */
    void received() {
        MESSAGES_RECEIVED.setOpaque(this, messagesReceived + 1);
    }

    /** A message of the lock could not be read. */
    void malformed() {
        MALFORMED.setOpaque(this, malformed + 1);
    }

    /** A message of the lock belonged to an older epoch, or did not fit among the early ones. */
    void stale() {
        STALE.setOpaque(this, stale + 1);
    }

    // ---- any thread ----

    long entries() {
        return (long) ENTRIES.getOpaque(this);
    }

    long messagesSent() {
        return (long) MESSAGES_SENT.getOpaque(this);
    }

    long bytesSent() {
        return (long) BYTES_SENT.getOpaque(this);
    }

    long framesSent() {
        return (long) FRAMES_SENT.getOpaque(this);
    }

    long messagesReceived() {
        return (long) MESSAGES_RECEIVED.getOpaque(this);
    }

    long malformedDropped() {
        return (long) MALFORMED.getOpaque(this);
    }

    long staleDropped() {
        return (long) STALE.getOpaque(this);
    }
}
