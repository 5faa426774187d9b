package io.dlock.runtime;

import io.dlock.NodeId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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
 * <p><b>Memory.</b> Every live lock has an outbox, so it keeps no map: two small arrays, the destinations of the
 * pass in the order they were first sent to and, for each, its message (or the list of its messages if several),
 * found by a scan (a pass sends to a handful of destinations; with more than {@value #SCAN_MAX}, a map indexes them
 * until the flush). The flush lets the arrays go: a lock at rest keeps none (a pass allocates two small arrays,
 * less than a map's entry, list and array per destination).
 *
 * <p>Confined to the event loop (every add and flush runs on it), so not thread-safe.
 */
final class Outbox {

    /** Most messages one bundle may carry on the wire; a pass that sends more writes several bundles. */
    static final int MAX_BUNDLE = 1024;
    /** Destinations found by a scan; beyond, by a map made for the pass. */
    private static final int SCAN_MAX = 16;
    private static final NodeId[] NO_DESTINATIONS = new NodeId[0];
    private static final Object[] NO_MESSAGES = new Object[0];

    private final String algorithm;
    private final String lockName;
    /** The pass's destinations, {@code [0, used)}, in the order they were first sent to. */
    private NodeId[] destinations = NO_DESTINATIONS;
    /** For each destination: its one message ({@code byte[]}), or its messages in order ({@code List<byte[]>}). */
    private Object[] messages = NO_MESSAGES;
    private int used;
    /** Slot by destination, while the pass has more than {@link #SCAN_MAX} destinations; else null. */
    private Map<NodeId, Integer> index;

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
        int slot = slotOf(to);
        if (slot < 0) {
            addDestination(to, payload);
            return;
        }
        Object kept = messages[slot];
        if (kept instanceof byte[] first) {
            List<byte[]> several = new ArrayList<>(2);
            several.add(first);
            several.add(payload);
            messages[slot] = several;
        } else {
            @SuppressWarnings("unchecked")
            List<byte[]> several = (List<byte[]>) kept;
            several.add(payload);
        }
    }

    /** Writes what waits, one frame per destination (in the order the destinations were first sent to), and forgets it. */
    void flush(BiConsumer<NodeId, byte[]> send) {
        if (used == 0) {
            return;
        }
        for (int slot = 0; slot < used; slot++) {
            NodeId to = destinations[slot];
            if (messages[slot] instanceof byte[] one) {
                send.accept(to, one);
                continue;
            }
            @SuppressWarnings("unchecked")
            List<byte[]> several = (List<byte[]>) messages[slot];
            for (int from = 0; from < several.size(); from += MAX_BUNDLE) {
                send.accept(to, bundle(several.subList(from, Math.min(several.size(), from + MAX_BUNDLE))));
            }
        }
        destinations = NO_DESTINATIONS;
        messages = NO_MESSAGES;
        used = 0;
        index = null;
    }

    /** The slot of {@code to} in this pass, or -1. */
    private int slotOf(NodeId to) {
        if (index != null) {
            Integer slot = index.get(to);
            return slot == null ? -1 : slot;
        }
        for (int slot = used - 1; slot >= 0; slot--) {
            if (destinations[slot].equals(to)) {
                return slot;
            }
        }
        return -1;
    }

    private void addDestination(NodeId to, byte[] payload) {
        if (used == destinations.length) {
            int capacity = Math.max(1, used * 2);
            destinations = Arrays.copyOf(destinations, capacity);
            messages = Arrays.copyOf(messages, capacity);
        }
        destinations[used] = to;
        messages[used] = payload;
        used++;
        if (index != null) {
            index.put(to, used - 1);
        } else if (used > SCAN_MAX) {
            index = new HashMap<>();
            for (int slot = 0; slot < used; slot++) {
                index.put(destinations[slot], slot);
            }
        }
    }

    private byte[] bundle(List<byte[]> messages) {
        return FrameList.write(new Envelope(Envelope.KIND_BUNDLE, algorithm, lockName, 0), messages);
    }
}
