package io.dlock.inmemory.sim;

import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.membership.PrimaryGate;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.spi.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Executes one {@link Simulation} once: builds the nodes, schedules the workload and the faults,
 * then processes events in (virtual time, sequence) order until the queue drains or a limit is
 * reached. Single-threaded and used once.
 *
 * <p>Randomness: the run's seed makes one root {@link SplittableRandom}, split in a fixed order into
 * one source for message delays, one for faults, one per node for the workload and one per node for
 * the protocol's own draws (a back-off: {@link ProtocolContext#random}, through the options' random
 * seed), so that a draw in one subsystem never shifts the draws of another.
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
    /** Per node, the seed of its protocol's random source, forked from the run's seed. */
    private final long[] protocolSeeds;
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
    /** Membership actions (joins, role crashes, split and merge views, detections), by index. */
    private final List<Runnable> actions = new ArrayList<>();
    private final long detectDelay;
    private final long[] lossFrom;
    private final long[] lossUntil;
    /** The cluster: joined members whose crash has not been detected, by index. */
    private final TreeSet<Integer> cluster = new TreeSet<>();
    /** The minority side of the split the membership currently sees, or null. */
    private Set<Integer> activeSplit;
    private int lastSender = -1;
    private long fencedOut;
    /** Per node, the pause window {@code [pausedFrom, pausedUntil)} ({@link FaultPlan#pause}); null if the plan has none. */
    private final long[] pausedFrom;
    private final long[] pausedUntil;

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
        SplittableRandom protocolRoot = root.split(); // split last: the earlier sources stay as they were
        this.protocolSeeds = new long[n];
        for (int i = 0; i < n; i++) {
            protocolSeeds[i] = protocolRoot.split().nextLong();
        }

        FaultPlan faults = config.faults();
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
        List<FaultPlan.LossWindow> losses = faults.losses();
        this.lossFrom = new long[losses.size()];
        this.lossUntil = new long[losses.size()];
        for (int w = 0; w < losses.size(); w++) {
            lossFrom[w] = losses.get(w).from();
            lossUntil[w] = losses.get(w).until();
        }
        this.detectDelay = faults.detectDelay();
        this.pausedFrom = faults.pauses().isEmpty() ? null : new long[n];
        this.pausedUntil = faults.pauses().isEmpty() ? null : new long[n];
        this.networkFaults = dropProbability > 0 || duplicateProbability > 0 || links.length > 0
                || partitionGroups.length > 0 || lossFrom.length > 0;

        ids = new NodeId[n];
        for (int i = 0; i < n; i++) {
            ids[i] = NodeId.of(i);
        }
        Set<Integer> joiners = new TreeSet<>();
        for (FaultPlan.JoinAt join : faults.joins()) {
            if (!joiners.add(checkedIndex(join.node(), "join"))) {
                throw new IllegalArgumentException("node " + join.node() + " joins twice");
            }
        }
        if (joiners.size() == n) {
            throw new IllegalArgumentException("every node is a joiner: nobody starts the cluster");
        }
        List<NodeId> founders = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (!joiners.contains(i)) {
                founders.add(ids[i]);
                cluster.add(i);
            }
        }
        View initial = joiners.isEmpty() ? View.ofRange(1, n) : new View(1, founders);
        epoch = initial.epoch();
        nodes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            SimNode<M> node = new SimNode<>(this, i, ids[i], workloadRoot.split(), n);
            node.remaining = workload.entriesFor(i, n);
            node.joined = !joiners.contains(i);
            if (node.joined) {
                node.install(initial);
                node.primaryComponent.accept(initial);
            }
            nodes.add(node);
        }
        for (SimNode<M> node : nodes) {
            if (node.joined) {
                node.gate = PrimaryGate.create(definition, new ProtocolContext<>(node.id, initial, node,
                        config.options().withRandomSeed(protocolSeeds[node.index])),
                        true);
                node.protocol = node.gate;
            }
        }
        for (SimNode<M> node : nodes) {
            if (node.joined) {
                schedule(0, Event.START, node.index); // MutexProtocol.onStart, before anything else at time 0
            }
        }
        for (SimNode<M> node : nodes) {
            if (node.remaining > 0) {
                unfinished++;
                node.finished = false;
                if (node.joined) {
                    schedule(workload.drawThink(node.workloadRandom), Event.REQUEST, node.index);
                }
            }
        }
        for (FaultPlan.JoinAt join : faults.joins()) {
            int index = (int) join.node().value();
            action(join.at(), () -> join(nodes.get(index)));
        }
        for (FaultPlan.RoleCrash crash : faults.roleCrashes()) {
            action(crash.at(), () -> {
                int victim = playing(crash.role());
                if (victim >= 0) {
                    crash(nodes.get(victim));
                }
            });
        }
        long d = Math.max(0, detectDelay);
        int firstSplitWindow = faults.partitions().size();
        for (int k = 0; k < faults.splits().size(); k++) {
            FaultPlan.Split split = faults.splits().get(k);
            int[] group = partitionGroups[firstSplitWindow + k];
            Set<Integer> minority = new TreeSet<>();
            for (NodeId id : split.minority()) {
                minority.add(checkedIndex(id, "split"));
            }
            action(split.from(), () -> {
                if (split.around() != null) {
                    chooseMinority(split, minority, group);
                }
                if (!minority.isEmpty()) {
                    checker.onFault(now);
                }
            });
            action(split.from() + d, () -> {
                if (!minority.isEmpty()) {
                    activeSplit = minority;
                    installClusterViews();
                }
            });
            action(split.until() + d, () -> {
                if (!minority.isEmpty()) {
                    activeSplit = null;
                    installClusterViews();
                }
            });
        }
        for (FaultPlan.LossWindow loss : losses) {
            action(loss.from(), () -> checker.onFault(now));
            if (loss.viewAfter()) {
                action(loss.until(), this::installClusterViews);
            }
        }
        for (FaultPlan.PauseAt pause : faults.pauses()) {
            action(pause.at(), () -> {
                int victim = playing(pause.role());
                if (victim >= 0) {
                    checker.onFault(now);
                    faultsInjected++;
                    pausedFrom[victim] = now;
                    pausedUntil[victim] = now + pause.duration();
                }
            });
        }
        for (FaultPlan.AmnesiaAt amnesia : faults.amnesias()) {
            int index = checkedIndex(amnesia.node(), "amnesia");
            action(amnesia.at(), () -> forget(nodes.get(index)));
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
            if (pausedFrom != null && deferIfPaused(event)) {
                continue;
            }
            current = event;
            if (event.kind != Event.START) { // starts are not counted nor hashed: traces predate them
                events++;
                fold(event);
            }
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
                if (node.crashed || !node.joined) {
                    dropped++;
                    return;
                }
                if (detectDelay >= 0 && event.from != event.node && nodes.get(event.from).crashed) {
                    dropped++; // a crashed node's messages in flight are lost with it
                    return;
                }
                if (event.epoch != node.epoch || !node.inView[event.from]) {
                    staleDropped++; // another epoch, or the same epoch number on the other side of a split
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
            case Event.START:
                node = nodes.get(event.node);
                if (!node.crashed && !node.gate.frozen()) {
                    // the gate has no start event of its own; at time 0 every view is primary
                    node.gate.inner().onStart();
                }
                return;
            case Event.VIEW:
                installViews(List.of(config.faults().views().get(event.node).members()));
                return;
            case Event.MEMBERSHIP:
                actions.get(event.node).run();
                return;
            default:
                throw new IllegalStateException("unknown event kind " + event.kind);
        }
    }

    /**
     * If {@code event} is for a node paused now ({@link FaultPlan#pause}), puts it back in the queue for
     * after the pause: a message at the pause's end, a local event (timer, request, release) as much
     * after the end as it was after the pause's start.
     *
     * @return whether the event was deferred
     */
    private boolean deferIfPaused(Event event) {
        int kind = event.kind;
        if (kind != Event.DELIVER && kind != Event.TIMER && kind != Event.REQUEST && kind != Event.RELEASE) {
            return false;
        }
        int i = event.node;
        if (now < pausedFrom[i] || now >= pausedUntil[i]) {
            return false;
        }
        queue.add(kind == Event.DELIVER ? pausedUntil[i] : pausedUntil[i] + (now - pausedFrom[i]), event);
        return true;
    }

    /**
     * {@link FaultPlan#amnesia}: an idle, live, joined node gets a fresh protocol instance in its
     * current view (created idle, as if the run had just started for it); its pending timers die
     * with the old instance.
     */
    private void forget(SimNode<M> node) {
        if (node.crashed || !node.joined || node.gate == null || node.gate.frozen()
                || checker.holding(node.index) || checker.waiting(node.index)) {
            return;
        }
        checker.onFault(now);
        faultsInjected++;
        node.timers.clear();
        node.gate = PrimaryGate.create(definition, new ProtocolContext<>(node.id, node.view, node,
                config.options().withRandomSeed(protocolSeeds[node.index]), true), true);
        node.protocol = node.gate;
    }

    private void crash(SimNode<M> node) {
        if (node.crashed) {
            return;
        }
        checker.onFault(now);
        node.crashed = true;
        node.timers.clear();
        faultsInjected++;
        checker.onCrash(node.index, now);
        finish(node);
        if (detectDelay >= 0 && node.joined) {
            action(now + detectDelay, () -> {
                cluster.remove(node.index);
                installClusterViews();
            });
        }
    }

    /**
     * The minority of a {@link FaultPlan#splitAround}: the node playing the role and the next live
     * members after it; cuts their links from now on ({@code group}, all zeros until now, is the
     * window's side of each node).
     */
    private void chooseMinority(FaultPlan.Split split, Set<Integer> minority, int[] group) {
        int player = playing(split.around());
        if (player < 0) {
            return;
        }
        List<Integer> live = new ArrayList<>();
        for (int i : cluster) {
            if (!nodes.get(i).crashed) {
                live.add(i);
            }
        }
        int start = live.indexOf(player);
        if (start < 0) {
            return;
        }
        for (int k = 0; k < Math.min(split.size(), live.size() - 1); k++) {
            minority.add(live.get((start + k) % live.size()));
        }
        for (int i : minority) {
            group[i] = 0; // the others are all in group 1 (the window was built with one empty group)
        }
    }

    /** Schedules membership action {@code run} at {@code time}. */
    private void action(long time, Runnable run) {
        actions.add(run);
        schedule(time, Event.MEMBERSHIP, actions.size() - 1);
    }

    /** The live joined node that plays {@code role} now, or -1. */
    private int playing(FaultPlan.Role role) {
        switch (role) {
            case HOLDER:
            case WAITER:
                for (int i = 0; i < n; i++) {
                    SimNode<M> node = nodes.get(i);
                    if (!node.crashed && node.joined
                            && (role == FaultPlan.Role.HOLDER ? checker.holding(i) : checker.waiting(i))) {
                        return i;
                    }
                }
                return -1;
            case LAST_SENDER:
                return lastSender >= 0 && !nodes.get(lastSender).crashed ? lastSender : -1;
            case HIGHEST:
            case LOWEST:
                for (Integer i : role == FaultPlan.Role.HIGHEST ? cluster.descendingSet() : cluster) {
                    if (!nodes.get(i).crashed) {
                        return i;
                    }
                }
                return -1;
            default:
                throw new IllegalStateException("unknown role " + role);
        }
    }

    /** {@code node} joins: its protocol is created in the new view (not idle), the others get the view. */
    private void join(SimNode<M> node) {
        if (node.joined || node.crashed) {
            return;
        }
        checker.onFault(now);
        faultsInjected++;
        node.joined = true;
        cluster.add(node.index);
        installClusterViews();
        if (node.remaining > 0) {
            schedule(now + workload.drawThink(node.workloadRandom), Event.REQUEST, node.index);
        }
    }

    /** The views the membership installs now: the cluster's live members, one view per side of a split. */
    private void installClusterViews() {
        List<NodeId> minority = new ArrayList<>();
        List<NodeId> majority = new ArrayList<>();
        for (int i : cluster) {
            if (!nodes.get(i).crashed) {
                (activeSplit != null && activeSplit.contains(i) ? minority : majority).add(ids[i]);
            }
        }
        List<List<NodeId>> sides = new ArrayList<>();
        if (!majority.isEmpty()) {
            sides.add(majority);
        }
        if (!minority.isEmpty()) {
            sides.add(minority);
        }
        if (!sides.isEmpty()) {
            installViews(sides);
        }
    }

    private void finish(SimNode<M> node) {
        if (!node.finished) {
            node.finished = true;
            unfinished--;
        }
    }

    /**
     * Installs one view per side, all with the next epoch (two sides of a split may get the same view
     * number, as with JGroups). Each live member's {@link io.dlock.membership.PrimaryComponent} decides
     * whether its view is primary, and the {@link PrimaryGate} passes it to the protocol or freezes it;
     * a holder frozen by a non-primary view is fenced out (its hold no longer counts for ME1). A node
     * that joins gets its protocol here, created in its first view.
     */
    private void installViews(List<List<NodeId>> sides) {
        faultsInjected++;
        long e = ++epoch;
        List<View> views = new ArrayList<>();
        for (List<NodeId> members : sides) {
            View view = new View(e, members);
            views.add(view);
            for (NodeId member : members) {
                SimNode<M> node = nodes.get((int) member.value());
                if (!node.crashed && node.joined) {
                    node.install(view);
                }
            }
        }
        // verdicts first; then the nodes whose view is not primary freeze (a holder among them is
        // fenced out) before any primary node acts on its view: both sides of a partition suspect each
        // other at the same time, so the majority cannot grant before the minority knows it is cut off
        // (a holder that is slower than that is the paused-holder case, which fencing tokens cover)
        List<SimNode<M>> order = new ArrayList<>();
        List<View> orderViews = new ArrayList<>();
        List<Boolean> verdicts = new ArrayList<>();
        for (int pass = 0; pass < 2; pass++) {
            for (View view : views) {
                for (NodeId member : view.members()) {
                    SimNode<M> node = nodes.get((int) member.value());
                    if (node.crashed || !node.joined) {
                        continue;
                    }
                    if (pass == 0) {
                        boolean primary = node.primaryComponent.accept(view);
                        if (!primary) {
                            order.add(node);
                            orderViews.add(view);
                            verdicts.add(false);
                        }
                    } else if (node.primaryComponent.isPrimary()) {
                        order.add(node);
                        orderViews.add(view);
                        verdicts.add(true);
                    }
                }
            }
        }
        for (int k = 0; k < order.size(); k++) {
            SimNode<M> node = order.get(k);
            View view = orderViews.get(k);
            boolean primary = verdicts.get(k);
            if (node.gate == null) {
                node.gate = PrimaryGate.create(definition,
                        new ProtocolContext<>(node.id, view, node,
                                config.options().withRandomSeed(protocolSeeds[node.index]), false), primary);
                node.protocol = node.gate;
                continue;
            }
            node.gate.onView(view, primary);
            if (node.gate.frozen() && checker.holding(node.index)) {
                fencedOut++;
                checker.onFencedOut(node.index, now);
            }
        }
    }

    // ---------------------------------------------------------------- effects (called by SimNode)

    void send(SimNode<M> src, NodeId to, M message) {
        Objects.requireNonNull(message, "message");
        MessageTypeStats stats = statsOf(message);
        long target = to.value();
        if (target != src.index) {
            lastSender = src.index;
        }
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
        if (others.length > 0) {
            lastSender = src.index;
        }
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
            if (partitioned(src.index, dst) || inLossWindow()) {
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

    private boolean inLossWindow() {
        for (int w = 0; w < lossFrom.length; w++) {
            if (now >= lossFrom[w] && now < lossUntil[w]) {
                return true;
            }
        }
        return false;
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
                checker.firstViolation(), error, config.toString(), checker.recoveryTimes(), fencedOut);
    }
}
