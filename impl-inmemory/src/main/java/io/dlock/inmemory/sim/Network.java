package io.dlock.inmemory.sim;

import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.NodeId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The simulated network of one run, shared by {@link Engine} and {@link ElectionEngine}: counts each
 * message by type, passes it through the algorithm's codec (encode, count the bytes, deliver the
 * decoded copy), applies the fault plan's network filters (partitions, loss windows, link rules,
 * random drops and duplicates), draws its delay, keeps FIFO channels in send order when asked, and
 * schedules the delivery on the run's {@link EventQueue}.
 *
 * <p>Randomness: delays come from the delay source, drops and duplicates (and a duplicate's extra
 * delay) from the fault source, in the order {@link #transmit} lists them; the engines hand in the
 * sources split from the run's seed, so the draws are those the engines always made.
 *
 * <p>Nodes are the indices {@code 0..slots-1} (the election engine, whose ids start at 1, has one
 * unused slot 0).
 *
 * @param <M> the algorithm's message type
 */
final class Network<M extends ProtocolMessage> {

    /** Where a codec failure or a round trip that changed a message is reported. */
    @FunctionalInterface
    interface CodecErrors {
        /** The codec misbehaved at virtual time {@code time}, as {@code description} says. */
        void report(long time, String description);
    }

    /** The marker of a message whose encoding failed (it is counted and lost). */
    private static final byte[] UNENCODABLE = new byte[0];

    private final int slots;
    private final EventQueue queue;
    private final DelayModel delay;
    private final SplittableRandom delayRandom;
    private final SplittableRandom faultRandom;
    private final MessageCodec<M> codec;
    private final CodecErrors codecErrors;
    private final long[] channelTail;

    private final double dropProbability;
    private final double duplicateProbability;
    private final FaultPlan.LinkRule[] links;
    private final long[] linkBudget;
    private final int[][] partitionGroups;
    private final long[] partitionFrom;
    private final long[] partitionUntil;
    private final long[] lossFrom;
    private final long[] lossUntil;
    private final boolean faulty;

    /** Message classes seen so far and their counters (few per algorithm: a linear scan beats hashing). */
    private Class<?>[] typeKeys = new Class<?>[8];
    private MessageTypeStats[] typeStats = new MessageTypeStats[8];
    private int typeCount;

    private long messages;
    private long bytes;
    private long dropped;
    private long duplicated;
    private long faultsInjected;
    private int lastSender = -1;

    /**
     * @param slots       number of node indices
     * @param faultRandom the source of drops and duplicates; may be null if {@code faults} has neither
     * @param codec       the codec every message goes through, or null to deliver the original
     * @param fifo        whether each ordered pair of nodes delivers in send order
     * @param faults      the plan whose network filters apply ({@link FaultPlan#none()} for none)
     * @param codecErrors told about codec failures
     * @throws IllegalArgumentException if a partition or split names a node outside the slots
     */
    Network(int slots, EventQueue queue, DelayModel delay, SplittableRandom delayRandom,
            SplittableRandom faultRandom, MessageCodec<M> codec, boolean fifo, FaultPlan faults,
            CodecErrors codecErrors) {
        this.slots = slots;
        this.queue = queue;
        this.delay = delay;
        this.delayRandom = delayRandom;
        this.faultRandom = faultRandom;
        this.codec = codec;
        this.codecErrors = codecErrors;
        this.channelTail = fifo ? new long[slots * slots] : null;
        this.dropProbability = faults.dropProbability();
        this.duplicateProbability = faults.duplicateProbability();
        this.links = faults.links().toArray(new FaultPlan.LinkRule[0]);
        this.linkBudget = new long[links.length];
        for (int i = 0; i < links.length; i++) {
            linkBudget[i] = links[i].limit();
        }
        List<FaultPlan.PartitionWindow> windows = new ArrayList<>(faults.partitions());
        for (FaultPlan.Split split : faults.splits()) {
            windows.add(new FaultPlan.PartitionWindow(List.of(split.minority()), split.from(), split.until()));
        }
        partitionGroups = new int[windows.size()][];
        partitionFrom = new long[windows.size()];
        partitionUntil = new long[windows.size()];
        for (int w = 0; w < windows.size(); w++) {
            FaultPlan.PartitionWindow window = windows.get(w);
            int[] group = new int[slots];
            Arrays.fill(group, window.groups().size());
            for (int g = 0; g < window.groups().size(); g++) {
                for (NodeId id : window.groups().get(g)) {
                    group[checkedIndex(id, "partition")] = g;
                }
            }
            partitionGroups[w] = group;
            partitionFrom[w] = window.from();
            partitionUntil[w] = window.until();
        }
        List<FaultPlan.LossWindow> losses = faults.losses();
        this.lossFrom = new long[losses.size()];
        this.lossUntil = new long[losses.size()];
        for (int w = 0; w < losses.size(); w++) {
            lossFrom[w] = losses.get(w).from();
            lossUntil[w] = losses.get(w).until();
        }
        this.faulty = dropProbability > 0 || duplicateProbability > 0 || links.length > 0
                || partitionGroups.length > 0 || lossFrom.length > 0;
    }

    /** The index of {@code id}, checked against the slots; {@code what} names the fault for the message. */
    int checkedIndex(NodeId id, String what) {
        if (id.value() >= slots) {
            throw new IllegalArgumentException(what + " names node " + id + " but the simulation has nodes n0..n" + (slots - 1));
        }
        return (int) id.value();
    }

    /**
     * The side of each node in the window of split {@code k} of the plan ({@link FaultPlan#splits()}
     * order): the membership fills in a {@link FaultPlan#splitAround} minority when it starts.
     */
    int[] splitGroups(FaultPlan faults, int k) {
        return partitionGroups[faults.partitions().size() + k];
    }

    /** The counters of {@code message}'s type. */
    MessageTypeStats statsOf(Object message) {
        Class<?> type = message.getClass();
        Class<?>[] keys = typeKeys;
        for (int i = 0; i < typeCount; i++) {
            if (keys[i] == type) {
                return typeStats[i];
            }
        }
        if (typeCount == keys.length) {
            typeKeys = Arrays.copyOf(keys, typeCount * 2);
            typeStats = Arrays.copyOf(typeStats, typeCount * 2);
        }
        MessageTypeStats stats = new MessageTypeStats(type);
        typeKeys[typeCount] = type;
        typeStats[typeCount++] = stats;
        return stats;
    }

    /** The wire form of {@code message}, or null when messages are not encoded; a failure is reported. */
    byte[] encode(long now, M message) {
        if (codec == null) {
            return null;
        }
        try {
            return codec.toBytes(message);
        } catch (RuntimeException e) {
            codecErrors.report(now, "codec failed to encode " + message + ": " + e);
            return UNENCODABLE;
        }
    }

    /**
     * Counts one network message from {@code from} of type {@code stats}, {@code wire} its bytes (or
     * null), and returns its number (1 for the run's first).
     */
    long count(int from, MessageTypeStats stats, byte[] wire) {
        lastSender = from;
        messages++;
        stats.count++;
        if (wire != null) {
            bytes += wire.length;
            stats.bytes += wire.length;
        }
        return messages;
    }

    /**
     * Sends message number {@link #messages()} from {@code src} (in its epoch {@code epoch}) to
     * {@code dst} (-1: no such node, the message is lost): decodes {@code wire}, applies the filters,
     * draws the delay (and maybe a duplicate) and schedules the delivery.
     */
    void transmit(long now, int src, long epoch, int dst, M message, byte[] wire, MessageTypeStats stats) {
        transmit(now, src, epoch, dst, message, wire, null, stats);
    }

    /**
     * The decoded copy of {@code wire} for a broadcast of {@code message}, to be shared by all its receivers, or
     * null if the copy cannot be shared: messages not encoded, an encoding that failed, or a decoding that failed
     * or changed the message (then each receiver decodes again, and each reports the error as before). A codec is
     * a function of the bytes and messages are immutable, so N receivers of one decoded copy see exactly what N
     * decodings gave them; decoding once per broadcast instead of once per receiver halves the codec's work.
     */
    Object sharedCopy(M message, byte[] wire) {
        if (wire == null || wire == UNENCODABLE) {
            return null;
        }
        M copy;
        try {
            copy = codec.fromBytes(wire);
        } catch (RuntimeException e) {
            return null;
        }
        return message.equals(copy) ? copy : null;
    }

    /**
     * {@link #transmit(long, int, long, int, ProtocolMessage, byte[], MessageTypeStats)} with {@code decoded}, if
     * not null, the {@linkplain #sharedCopy shared decoded copy} of {@code wire}.
     */
    void transmit(long now, int src, long epoch, int dst, M message, byte[] wire, Object decoded,
                  MessageTypeStats stats) {
        if (dst < 0) {
            dropped++;
            return;
        }
        Object payload = message;
        if (decoded != null) {
            payload = decoded;
        } else if (wire != null) {
            if (wire == UNENCODABLE) {
                dropped++;
                return;
            }
            payload = decode(now, message, wire);
            if (payload == null) {
                dropped++;
                return;
            }
        }
        long extra = 0;
        if (faulty) {
            if (partitioned(now, src, dst) || inLossWindow(now)) {
                dropped++;
                faultsInjected++;
                return;
            }
            for (int i = 0; i < links.length; i++) {
                FaultPlan.LinkRule rule = links[i];
                if (linkBudget[i] > 0 && rule.matches(src, dst, message)) {
                    linkBudget[i]--;
                    faultsInjected++;
                    if (rule.drop()) {
                        dropped++;
                        return;
                    }
                    extra += rule.extraDelay();
                }
            }
            if (dropProbability > 0 && faultRandom.nextDouble() < dropProbability) {
                dropped++;
                faultsInjected++;
                return;
            }
        }
        long at = fifo(src, dst, now + delay.draw(delayRandom) + extra);
        enqueue(at, src, epoch, dst, payload, stats);
        if (duplicateProbability > 0 && faultRandom.nextDouble() < duplicateProbability) {
            long again = fifo(src, dst, at + delay.draw(faultRandom));
            duplicated++;
            faultsInjected++;
            enqueue(again, src, epoch, dst, payload, stats);
        }
    }

    /** Schedules {@code message} from {@code node} to itself, now: no delay, no fault, no codec, not counted. */
    void deliverLocally(long now, int node, long epoch, M message, MessageTypeStats stats) {
        queue.addDelivery(now, node, node, epoch, message, stats, 0);
    }

    /**
     * Whether a partition window cuts {@code a} from {@code b} at {@code now}; if so, a message
     * arriving on that link is lost, and counted as dropped by a fault.
     */
    boolean dropsArrival(long now, int a, int b) {
        if (!partitioned(now, a, b)) {
            return false;
        }
        dropped++;
        faultsInjected++;
        return true;
    }

    /** Counts a message lost at its arrival (its receiver or its sender crashed). */
    void countDropped() {
        dropped++;
    }

    /** The last node that sent a network message, or -1. */
    int lastSender() {
        return lastSender;
    }

    long messages() {
        return messages;
    }

    long bytes() {
        return bytes;
    }

    long dropped() {
        return dropped;
    }

    long duplicated() {
        return duplicated;
    }

    /** Messages dropped, delayed or duplicated by the fault plan. */
    long faultsInjected() {
        return faultsInjected;
    }

    /** Messages sent per type (simple class name), types never sent left out. */
    Map<String, Long> messagesByType() {
        Map<String, Long> byType = new TreeMap<>();
        for (int i = 0; i < typeCount; i++) {
            MessageTypeStats stats = typeStats[i];
            if (stats.count > 0) {
                byType.merge(stats.name, stats.count, Long::sum);
            }
        }
        return byType;
    }

    private long fifo(int src, int dst, long at) {
        if (channelTail == null) {
            return at;
        }
        int channel = src * slots + dst;
        long kept = Math.max(at, channelTail[channel]);
        channelTail[channel] = kept;
        return kept;
    }

    private void enqueue(long at, int src, long epoch, int dst, Object payload, MessageTypeStats stats) {
        queue.addDelivery(at, dst, src, epoch, payload, stats, messages);
    }

    private Object decode(long now, M original, byte[] wire) {
        M copy;
        try {
            copy = codec.fromBytes(wire);
        } catch (RuntimeException e) {
            codecErrors.report(now, "codec failed to decode " + original + " from " + wire.length + " bytes: " + e);
            return null;
        }
        if (!original.equals(copy)) {
            codecErrors.report(now, "codec round trip changed " + original + " into " + copy);
        }
        return copy;
    }

    private boolean inLossWindow(long now) {
        for (int w = 0; w < lossFrom.length; w++) {
            if (now >= lossFrom[w] && now < lossUntil[w]) {
                return true;
            }
        }
        return false;
    }

    private boolean partitioned(long now, int a, int b) {
        for (int w = 0; w < partitionGroups.length; w++) {
            if (now >= partitionFrom[w] && now < partitionUntil[w] && partitionGroups[w][a] != partitionGroups[w][b]) {
                return true;
            }
        }
        return false;
    }
}
