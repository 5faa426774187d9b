package io.dlock.runtime;

import io.dlock.spi.MalformedMessageException;
import io.dlock.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.View;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The clean-leave handshake, so that shutting nodes down one by one does not shrink the cluster into a
 * minority (see {@link io.dlock.membership.PrimaryComponent#departing}).
 *
 * <p>A node that closes sends {@code LEAVING} to every other member of its view and waits, at most
 * {@link #ACK_TIMEOUT}, until each has answered {@code LEAVING_ACK}; only then does it close its
 * transport. A member that receives {@code LEAVING} records the sender as departing before it answers,
 * so by the time the view without the sender arrives, every member that answered discounts it from the
 * majority rule's reference. A member that did not answer in time (crashed, partitioned away, slow)
 * simply counts the departure as a failure, which is safe: it only makes that member's verdict stricter.
 *
 * <p>Wire format: an {@link Envelope} of kind {@link Envelope#KIND_MEMBERSHIP} with empty algorithm and
 * name, then one byte: {@link #LEAVING} or {@link #LEAVING_ACK}. Thread-safe.
 */
final class CleanLeave {

    /** How long a closing node waits for the other members' acknowledgements. */
    static final Duration ACK_TIMEOUT = Duration.ofSeconds(2);

    static final int LEAVING = 1;
    static final int LEAVING_ACK = 2;

    private final Transport transport;
    private final Consumer<NodeId> onDeparting;
    /** Members whose LEAVING_ACK is still awaited; guarded by this. */
    private final Set<NodeId> awaited = new HashSet<>();

    /**
     * @param transport   the node's transport, used to send the handshake's messages
     * @param onDeparting told (before the acknowledgement is sent) of every member that announced its leave
     */
    CleanLeave(Transport transport, Consumer<NodeId> onDeparting) {
        this.transport = transport;
        this.onDeparting = onDeparting;
    }

    /**
     * Announces this node's leave to every other member of {@code view} and waits until all have
     * acknowledged or {@link #ACK_TIMEOUT} has passed; returns how many did not answer in time.
     */
    int announce(View view) throws InterruptedException {
        NodeId self = transport.self();
        synchronized (this) {
            awaited.clear();
            for (NodeId member : view.members()) {
                if (!member.equals(self)) {
                    awaited.add(member);
                }
            }
            if (awaited.isEmpty()) {
                return 0;
            }
        }
        byte[] leaving = message(view.epoch(), LEAVING);
        for (NodeId member : view.members()) {
            if (!member.equals(self)) {
                transport.send(member, leaving);
            }
        }
        long deadline = System.nanoTime() + ACK_TIMEOUT.toNanos();
        synchronized (this) {
            long left;
            while (!awaited.isEmpty() && (left = deadline - System.nanoTime()) > 0) {
                wait(Math.max(1, left / 1_000_000));
            }
            return awaited.size();
        }
    }

    /** A member that a new view no longer contains will not answer: stop waiting for it. */
    void onView(View view) {
        synchronized (this) {
            if (awaited.removeIf(member -> !view.contains(member))) {
                notifyAll();
            }
        }
    }

    /** Whether {@code type} is a clean-leave message type. */
    static boolean handles(int type) {
        return type == LEAVING || type == LEAVING_ACK;
    }

    /** Handles a membership message of type {@code type}; {@code in} is after the type byte. */
    void onMessage(NodeId from, Envelope envelope, int type, WireReader in) {
        in.expectEnd();
        if (type == LEAVING) {
            onDeparting.accept(from);
            transport.send(from, message(envelope.epoch(), LEAVING_ACK));
        } else if (type == LEAVING_ACK) {
            synchronized (this) {
                if (awaited.remove(from)) {
                    notifyAll();
                }
            }
        } else {
            throw new MalformedMessageException("unknown membership message type " + type + "; allowed: " + LEAVING
                    + " (leaving), " + LEAVING_ACK + " (leaving acknowledged)");
        }
    }

    private static byte[] message(long epoch, int type) {
        WireWriter out = new WireWriter();
        new Envelope(Envelope.KIND_MEMBERSHIP, "", "", epoch).writeTo(out);
        out.writeByte(type);
        return out.toByteArray();
    }
}
