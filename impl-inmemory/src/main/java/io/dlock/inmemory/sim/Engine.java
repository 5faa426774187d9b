package io.dlock.inmemory.sim;

import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.spi.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Executes one {@link Simulation} once: builds the nodes, schedules the workload and the faults,
 * then processes events in (virtual time, sequence) order until the queue drains or a limit is
 * reached. Single-threaded and used once.
 *
 * <p>Randomness: the run's seed makes one root {@link SplittableRandom}, split in a fixed order into
 * one source for message delays, one for faults and one per node for the workload, so that a draw
 * in one subsystem never shifts the draws of another.
 *
 * @param <M> the algorithm's message type
 */
final class Engine<M extends ProtocolMessage> {

    private static final long TRACE_SEED = 0x6a09e667f3bcc909L;

    private final Simulation config;
    private final MutexProtocolDefinition<M> definition;
    private final int n;
    private final NodeId[] ids;
    private final List<SimNode<M>> nodes;
    private final EventQueue queue = new EventQueue();
    private final SplittableRandom delayRandom;
    private final SplittableRandom faultRandom;
    private final DelayModel delay;
    private final Workload workload;
    private final MessageCodec<M> codec;
    private final long[] channelTail;
    private final Checker checker;
    /** Message classes seen so far and their counters (few per algorithm: a linear scan beats hashing). */
    private Class<?>[] typeKeys = new Class<?>[8];
    private MessageTypeStats[] typeStats = new MessageTypeStats[8];
    private int typeCount;

    private final double dropProbability;
    private final double duplicateProbability;
    private final FaultPlan.LinkRule[] links;
    private final long[] linkBudget;
    private final int[][] partitionGroups;
    private final long[] partitionFrom;
    private final long[] partitionUntil;
    private final boolean networkFaults;

    private Event[] pool = new Event[256];
    private int pooled;

    private long now;
    private Event current;
    private long events;
    private long trace = TRACE_SEED;
    private long epoch;
    private int unfinished;
    /** The observer of {@link Simulation#run(SimulationListener)}, or null. */
    private SimulationListener listener;

    private long requests;
    private long entries;
    private long messages;
    private long bytes;
    private long dropped;
    private long duplicated;
    private long staleDropped;
    private long faultsInjected;
    private boolean truncated;
    private String error;

    Engine(Simulation config, MutexProtocolDefinition<M> definition) {
        this.config = config;
        this.definition = definition;
        this.n = config.nodes();
        this.delay = config.delay();
        this.workload = config.workload();
        this.codec = config.encodeMessages() ? Objects.requireNonNull(definition.codec(), "codec") : null;
        boolean fifo = config.fifoChannels();
        this.channelTail = fifo ? new long[n * n] : null;
        this.checker = new Checker(n, this::describeCurrent);

        SplittableRandom root = new SplittableRandom(config.seed());
        this.delayRandom = root.split();
        this.faultRandom = root.split();
        SplittableRandom workloadRoot = root.split();

        FaultPlan faults = config.faults();
        this.dropProbability = faults.dropProbability();
        this.duplicateProbability = faults.duplicateProbability();
        this.links = faults.links().toArray(new FaultPlan.LinkRule[0]);
        this.linkBudget = new long[links.length];
        for (int i = 0; i < links.length; i++) {
            linkBudget[i] = links[i].limit();
        }
        List<FaultPlan.PartitionWindow> windows = faults.partitions();
        partitionGroups = new int[windows.size()][];
        partitionFrom = new long[windows.size()];
        partitionUntil = new long[windows.size()];
        for (int w = 0; w < windows.size(); w++) {
            FaultPlan.PartitionWindow window = windows.get(w);
            int[] group = new int[n];
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
        this.networkFaults = dropProbability > 0 || duplicateProbability > 0 || links.length > 0
                || partitionGroups.length > 0;

        ids = new NodeId[n];
        for (int i = 0; i < n; i++) {
            ids[i] = NodeId.of(i);
        }
        View initial = View.ofRange(1, n);
        epoch = initial.epoch();
        nodes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            SimNode<M> node = new SimNode<>(this, i, ids[i], workloadRoot.split());
            node.install(initial);
            node.remaining = workload.entriesFor(i, n);
            nodes.add(node);
        }
        for (SimNode<M> node : nodes) {
            node.protocol = definition.create(new ProtocolContext<>(node.id, initial, node, config.options()));
        }
        for (SimNode<M> node : nodes) {
            if (node.remaining > 0) {
                unfinished++;
                node.finished = false;
                schedule(workload.drawThink(node.workloadRandom), Event.REQUEST, node.index);
            }
        }
        for (FaultPlan.CrashAt crash : faults.crashes()) {
            schedule(crash.at(), Event.CRASH, checkedIndex(crash.node(), "crash"));
        }
        List<FaultPlan.ViewChange> views = faults.views();
        for (int v = 0; v < views.size(); v++) {
            for (NodeId member : views.get(v).members()) {
                checkedIndex(member, "installView");
            }
            schedule(views.get(v).at(), Event.VIEW, v);
        }
    }

    SimulationResult run() {
        return run((Consumer<String>) null);
    }

    /** Runs to the end, telling {@code observer} (not null) every event. */
    SimulationResult run(SimulationListener observer) {
        this.listener = Objects.requireNonNull(observer, "listener");
        return run((Consumer<String>) null);
    }

    /** Runs to the end; if {@code log} is not null, it receives a line per processed event. */
    SimulationResult run(Consumer<String> log) {
        long maxTime = config.maxTime();
        long maxEvents = config.maxEvents();
        boolean stopWhenDone = config.stopWhenWorkloadDone();
        while (!queue.isEmpty()) {
            if (stopWhenDone && unfinished == 0) {
                break;
            }
            if (events >= maxEvents || queue.peekTime() > maxTime) {
                truncated = true;
                break;
            }
            Event event = queue.poll();
            now = event.time;
            current = event;
            events++;
            fold(event);
            if (log != null) {
                log.accept("t=" + now + " " + describeCurrent());
            }
            try {
                dispatch(event);
            } catch (RuntimeException e) {
                error = describeError(e);
                break;
            }
            current = null;
            recycle(event);
        }
        return result();
    }

    // ---------------------------------------------------------------- dispatch

    @SuppressWarnings("unchecked")
    private void dispatch(Event event) {
        SimNode<M> node;
        switch (event.kind) {
            case Event.DELIVER:
                node = nodes.get(event.node);
                if (node.crashed) {
                    dropped++;
                    return;
                }
                if (event.epoch != node.epoch) {
                    staleDropped++;
                    return;
                }
                if (event.from != event.node && partitioned(event.from, event.node)) {
                    dropped++;
                    faultsInjected++;
                    return;
                }
                if (listener != null) {
                    listener.delivered(now, event.messageId, ids[event.from], ids[event.node], (M) event.message);
                }
                node.protocol.onMessage(ids[event.from], (M) event.message);
                return;
            case Event.TIMER:
                node = nodes.get(event.node);
                Long generation = node.timers.get(event.timer);
                if (node.crashed || generation == null || generation != event.generation) {
                    return;
                }
                node.timers.remove(event.timer);
                if (listener != null) {
                    listener.timer(now, ids[event.node], event.timer);
                }
                node.protocol.onTimer(event.timer);
                return;
            case Event.REQUEST:
                node = nodes.get(event.node);
                if (node.crashed) {
                    return;
                }
                node.remaining--;
                node.requests++;
                requests++;
                checker.onRequest(node.index, now);
                if (listener != null) {
                    listener.requested(now, node.id);
                }
                node.protocol.onRequest();
                return;
            case Event.RELEASE:
                node = nodes.get(event.node);
                if (node.crashed) {
                    return;
                }
                checker.onRelease(node.index, now);
                if (listener != null) {
                    listener.released(now, node.id);
                }
                node.protocol.onRelease();
                if (node.remaining > 0) {
                    schedule(now + workload.drawThink(node.workloadRandom), Event.REQUEST, node.index);
                } else {
                    finish(node);
                }
                return;
            case Event.CRASH:
                crash(nodes.get(event.node));
                return;
            case Event.VIEW:
                installView(config.faults().views().get(event.node).members());
                return;
            default:
                throw new IllegalStateException("unknown event kind " + event.kind);
        }
    }

    private void crash(SimNode<M> node) {
        if (node.crashed) {
            return;
        }
        node.crashed = true;
        node.timers.clear();
        faultsInjected++;
        checker.onCrash(node.index, now);
        finish(node);
    }

    private void finish(SimNode<M> node) {
        if (!node.finished) {
            node.finished = true;
            unfinished--;
        }
    }

    private void installView(List<NodeId> members) {
        faultsInjected++;
        View view = new View(++epoch, members);
        for (NodeId member : members) {
            SimNode<M> node = nodes.get((int) member.value());
            if (!node.crashed) {
                node.install(view);
            }
        }
        for (NodeId member : members) {
            SimNode<M> node = nodes.get((int) member.value());
            if (!node.crashed) {
                node.protocol.onView(view);
            }
        }
    }

    // ---------------------------------------------------------------- effects (called by SimNode)

    void send(SimNode<M> src, NodeId to, M message) {
        Objects.requireNonNull(message, "message");
        MessageTypeStats stats = statsOf(message);
        long target = to.value();
        if (target == src.index) {
            Event event = obtain(Event.DELIVER, src.index);
            event.from = src.index;
            event.epoch = src.epoch;
            event.message = message;
            event.type = stats;
            queue.add(now, event);
            return;
        }
        messages++;
        stats.count++;
        if (listener != null) {
            listener.sent(now, messages, src.id, to, message);
        }
        byte[] wire = codec == null ? null : encode(message);
        if (wire != null) {
            bytes += wire.length;
            stats.bytes += wire.length;
        }
        int dst = target >= 0 && target < n ? (int) target : -1;
        transmit(src, dst, message, wire, stats);
    }

    void broadcast(SimNode<M> src, M message) {
        Objects.requireNonNull(message, "message");
        MessageTypeStats stats = statsOf(message);
        byte[] wire = codec == null ? null : encode(message);
        int[] others = src.others;
        for (int dst : others) {
            messages++;
            stats.count++;
            if (listener != null) {
                listener.sent(now, messages, src.id, ids[dst], message);
            }
            if (wire != null) {
                bytes += wire.length;
                stats.bytes += wire.length;
            }
            transmit(src, dst, message, wire, stats);
        }
    }

    void granted(SimNode<M> node, long fence) {
        boolean counted = checker.onGrant(node.index, fence, now);
        if (listener != null) {
            listener.granted(now, node.id, fence, counted);
        }
        if (counted) {
            node.entries++;
            entries++;
            schedule(now + workload.drawHold(node.workloadRandom), Event.RELEASE, node.index);
        }
    }

    void setTimer(SimNode<M> node, String name, long delayMillis) {
        Objects.requireNonNull(name, "timer name");
        if (delayMillis < 0) {
            throw new IllegalArgumentException("timer " + name + " delay must be >= 0, got " + delayMillis);
        }
        long generation = ++node.timerGenerations;
        node.timers.put(name, generation);
        Event event = obtain(Event.TIMER, node.index);
        event.timer = name;
        event.generation = generation;
        queue.add(now + delayMillis, event);
    }

    // ---------------------------------------------------------------- network

    private byte[] encode(M message) {
        try {
            return codec.toBytes(message);
        } catch (RuntimeException e) {
            checker.reportCodecError(now, "codec failed to encode " + message + ": " + e);
            return EMPTY;
        }
    }

    private static final byte[] EMPTY = new byte[0];

    private void transmit(SimNode<M> src, int dst, M message, byte[] wire, MessageTypeStats stats) {
        if (dst < 0) {
            dropped++;
            return;
        }
        Object payload = message;
        if (wire != null) {
            if (wire == EMPTY) {
                dropped++;
                return;
            }
            payload = decode(message, wire);
            if (payload == null) {
                dropped++;
                return;
            }
        }
        long extra = 0;
        if (networkFaults) {
            if (partitioned(src.index, dst)) {
                dropped++;
                faultsInjected++;
                return;
            }
            for (int i = 0; i < links.length; i++) {
                FaultPlan.LinkRule rule = links[i];
                if (linkBudget[i] > 0 && rule.matches(src.index, dst, message)) {
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
        long at = now + delay.draw(delayRandom) + extra;
        if (channelTail != null) {
            int channel = src.index * n + dst;
            at = Math.max(at, channelTail[channel]);
            channelTail[channel] = at;
        }
        enqueueDelivery(at, src, dst, payload, stats);
        if (duplicateProbability > 0 && faultRandom.nextDouble() < duplicateProbability) {
            long again = at + delay.draw(faultRandom);
            if (channelTail != null) {
                int channel = src.index * n + dst;
                again = Math.max(again, channelTail[channel]);
                channelTail[channel] = again;
            }
            duplicated++;
            faultsInjected++;
            enqueueDelivery(again, src, dst, payload, stats);
        }
    }

    private void enqueueDelivery(long at, SimNode<M> src, int dst, Object payload, MessageTypeStats stats) {
        Event event = obtain(Event.DELIVER, dst);
        event.from = src.index;
        event.epoch = src.epoch;
        event.message = payload;
        event.type = stats;
        event.messageId = messages;
        queue.add(at, event);
    }

    private Object decode(M original, byte[] wire) {
        M copy;
        try {
            copy = codec.fromBytes(wire);
        } catch (RuntimeException e) {
            checker.reportCodecError(now, "codec failed to decode " + original + " from " + wire.length + " bytes: " + e);
            return null;
        }
        if (!original.equals(copy)) {
            checker.reportCodecError(now, "codec round trip changed " + original + " into " + copy);
        }
        return copy;
    }

    private boolean partitioned(int a, int b) {
        for (int w = 0; w < partitionGroups.length; w++) {
            if (now >= partitionFrom[w] && now < partitionUntil[w] && partitionGroups[w][a] != partitionGroups[w][b]) {
                return true;
            }
        }
        return false;
    }

    private MessageTypeStats statsOf(Object message) {
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

    // ---------------------------------------------------------------- events

    private void schedule(long time, int kind, int node) {
        queue.add(time, obtain(kind, node));
    }

    private Event obtain(int kind, int node) {
        Event event = pooled > 0 ? pool[--pooled] : new Event();
        event.kind = kind;
        event.node = node;
        return event;
    }

    private void recycle(Event event) {
        event.clear();
        if (pooled == pool.length) {
            pool = Arrays.copyOf(pool, pooled * 2);
        }
        pool[pooled++] = event;
    }

    private void fold(Event event) {
        long h = trace;
        h = mix(h ^ event.time);
        h = mix(h ^ ((long) event.kind << 48 ^ (long) event.node << 24 ^ event.from));
        if (event.kind == Event.DELIVER) {
            h = mix(h ^ event.type.nameHash);
        } else if (event.kind == Event.TIMER) {
            h = mix(h ^ event.timer.hashCode());
        }
        trace = h;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private int checkedIndex(NodeId id, String what) {
        if (id.value() >= n) {
            throw new IllegalArgumentException(what + " names node " + id + " but the simulation has nodes n0..n" + (n - 1));
        }
        return (int) id.value();
    }

    // ---------------------------------------------------------------- reporting

    private String describeCurrent() {
        Event e = current;
        if (e == null) {
            return "start-up";
        }
        StringBuilder s = new StringBuilder("event #").append(events).append(' ').append(Event.kindName(e.kind));
        switch (e.kind) {
            case Event.DELIVER:
                s.append(' ').append(e.message).append(" n").append(e.from).append("->n").append(e.node);
                break;
            case Event.TIMER:
                s.append(" '").append(e.timer).append("' at n").append(e.node);
                break;
            case Event.VIEW:
                s.append(" change #").append(e.node + 1).append(" of the fault plan");
                break;
            default:
                s.append(" at n").append(e.node);
        }
        return s.toString();
    }

    private String describeError(RuntimeException e) {
        StringBuilder s = new StringBuilder("protocol threw ").append(e);
        StackTraceElement[] frames = e.getStackTrace();
        for (int i = 0; i < Math.min(3, frames.length); i++) {
            s.append(" at ").append(frames[i]);
        }
        return s.append(" during ").append(describeCurrent()).toString();
    }

    private SimulationResult result() {
        Map<String, Long> byType = new TreeMap<>();
        for (int i = 0; i < typeCount; i++) {
            MessageTypeStats stats = typeStats[i];
            if (stats.count > 0) {
                byType.merge(stats.name, stats.count, Long::sum);
            }
        }
        List<Long> perNode = new ArrayList<>(n);
        for (SimNode<M> node : nodes) {
            perNode.add(node.entries);
        }
        long ungranted = checker.ungranted();
        boolean deadlocked = queue.isEmpty() && ungranted > 0;
        return new SimulationResult(config.seed(), n, definition.name(), requests, entries, List.copyOf(perNode),
                messages, byType, bytes, entries == 0 ? Double.NaN : (double) messages / entries,
                checker.safetyViolations(), checker.fenceViolations(), checker.grantViolations(),
                checker.codecErrors(), ungranted, deadlocked, truncated, faultsInjected, dropped, duplicated,
                staleDropped, checker.syncDelay(), checker.syncDelaySamples(), now, events, trace,
                checker.firstViolation(), error, config.toString());
    }
}
