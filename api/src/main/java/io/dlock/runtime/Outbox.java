package io.dlock.runtime;

import io.dlock.NodeId;
import io.dlock.spi.WireWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The messages one pass of a lock's event loop sends, kept per destination in the order they were sent and
 * written at the end of the pass as one transport message per destination (a <em>frame</em>). A destination
 * with one message gets that message's bytes unchanged; one with several gets a bundle
 * ({@link Envelope#KIND_BUNDLE}): the lock's header, the number of messages, then each message's own bytes
 * with their length in front. The receiver hands a bundle's messages to the lock's event loop as one event,
 * in order, so its answers leave in one frame per destination too.
 *
 * <p>Why: an event often sends twice to the same node. A holder that releases while local threads wait asks
 * again at once, so its release and its next request leave together (centralized: RELEASE and REQUEST to
 * the coordinator; Ricart-Agrawala: the deferred REPLY and the next REQUEST; Lamport: RELEASE and REQUEST to
 * every node; Suzuki-Kasami: the token and the REQUEST to its new holder). Each transport message costs a
 * system call and a wake-up on both sides, far more than its bytes, so one frame for both halves the cost of
 * that step. The algorithms see the same messages in the same order per sender and receiver; only the number
 * of transport messages changes. Messages to different destinations were never ordered among themselves.
 *
 * <p>Confined to the event loop (every add and flush runs on it), so not thread-safe.
 */
final class Outbox {

    /** Most messages one bundle may carry on the wire; a pass that sends more writes several bundles. */
    static final int MAX_BUNDLE = 1024;

    private final String algorithm;
    private final String lockName;
    private final Map<NodeId, List<byte[]>> pending = new LinkedHashMap<>();

    /**
     * @param algorithm the lock's algorithm configuration name (the bundle's header, like every message's)
     * @param lockName  the lock's name
     */
    Outbox(String algorithm, String lockName) {
        this.algorithm = algorithm;
        this.lockName = lockName;
    }

    /** Keeps {@code payload} (a whole message: envelope and body) for {@code to} until {@link #flush}. */
    void add(NodeId to, byte[] payload) {
        pending.computeIfAbsent(to, k -> new ArrayList<>(2)).add(payload);
    }

    /** Writes what waits, one frame per destination (in the order the destinations were first sent to), and forgets it. */
    void flush(BiConsumer<NodeId, byte[]> send) {
        if (pending.isEmpty()) {
            return;
        }
        for (Map.Entry<NodeId, List<byte[]>> e : pending.entrySet()) {
            List<byte[]> messages = e.getValue();
            if (messages.size() == 1) {
                send.accept(e.getKey(), messages.get(0));
                continue;
            }
            for (int from = 0; from < messages.size(); from += MAX_BUNDLE) {
                send.accept(e.getKey(), bundle(messages.subList(from, Math.min(messages.size(), from + MAX_BUNDLE))));
            }
        }
        pending.clear();
    }

    private byte[] bundle(List<byte[]> messages) {
        WireWriter out = new WireWriter(64 + messages.stream().mapToInt(m -> m.length + 2).sum());
        new Envelope(Envelope.KIND_BUNDLE, algorithm, lockName, 0).writeTo(out);
        out.writeVarLong(messages.size());
        for (byte[] m : messages) {
            out.writeVarLong(m.length).writeBytes(m);
        }
        return out.toByteArray();
    }
}
