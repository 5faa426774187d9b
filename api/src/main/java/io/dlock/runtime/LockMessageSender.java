package io.dlock.runtime;

import io.dlock.condition.ConditionCodec;
import io.dlock.condition.ConditionMessage;
import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.reclaim.PeerCounters;
import io.dlock.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.View;
import io.dlock.spi.WireWriter;

/**
 * The way out of one lock's messages on this node: encodes each in its {@link Envelope} (the algorithm's
 * messages as {@link Envelope#KIND_MUTEX}, its conditions' as {@link Envelope#KIND_CONDITION}), counts it, and
 * keeps it in the lock's {@link Outbox} until the end of the loop's pass, when {@link #flush()} writes one frame
 * per destination. Every message goes through {@link #add}, the one place that counts messages, bytes and
 * per-peer sends (for the reclamation's census, {@link PeerCounters}).
 *
 * <p>Confined to the lock's loop, except the counters, which any thread may read.
 *
 * @param <M> the algorithm's message type
 */
final class LockMessageSender<M extends ProtocolMessage> {

    private static final ConditionCodec CONDITION_CODEC = new ConditionCodec();

    private final String algorithm;
    private final String lockName;
    private final MessageCodec<M> codec;
    private final Transport transport;
    private final NodeId self;
    private final PeerCounters peers;
    private final Outbox outbox;
    private final LockCounts counts;

    /**
     * @param peers  the lock's per-peer counters, which count every message sent to another member
     * @param counts the lock's counters, which count every message, byte and frame sent to another member
     */
    LockMessageSender(String algorithm, String lockName, MessageCodec<M> codec, Transport transport,
                      PeerCounters peers, LockCounts counts) {
        this.algorithm = algorithm;
        this.lockName = lockName;
        this.codec = codec;
        this.transport = transport;
        this.self = transport.self();
        this.peers = peers;
        this.counts = counts;
        this.outbox = new Outbox(algorithm, lockName);
    }

    /** Sends the algorithm's {@code message} of view {@code epoch} to {@code to} (this node included). */
    void send(NodeId to, M message, long epoch) {
        add(to, encode(message, epoch));
    }

    /** Sends the algorithm's {@code message} to every member of {@code view} but this node. */
    void broadcast(View view, M message) {
        byte[] bytes = encode(message, view.epoch());
        for (NodeId member : view.members()) {
            if (!member.equals(self)) {
                add(member, bytes);
            }
        }
    }

    /** Sends {@code message} of condition {@code condition}, in view {@code epoch}, to {@code to}. */
    void sendCondition(NodeId to, String condition, ConditionMessage message, long epoch) {
        WireWriter out = new WireWriter(48);
        new Envelope(Envelope.KIND_CONDITION, algorithm, lockName, epoch).writeTo(out);
        out.writeString(condition);
        CONDITION_CODEC.encode(message, out);
        add(to, out.toByteArray());
    }

    /** Writes what the loop's pass sent: one frame per destination ({@link Outbox}); on the loop, after each pass. */
    void flush() {
        outbox.flush(this::sendFrame);
    }

    private byte[] encode(M message, long epoch) {
        WireWriter out = new WireWriter(48);
        new Envelope(Envelope.KIND_MUTEX, algorithm, lockName, epoch).writeTo(out);
        codec.encode(message, out);
        return out.toByteArray();
    }

    /** The send path of every message: counted unless it goes to this node, then kept for the pass's frame. */
    private void add(NodeId to, byte[] bytes) {
        if (!to.equals(self)) {
            counts.sent(bytes.length);
            peers.sent(to);
        }
        outbox.add(to, bytes);
    }

    private void sendFrame(NodeId to, byte[] frame) {
        if (!to.equals(self)) {
            counts.framed();
        }
        transport.send(to, frame);
    }
}
