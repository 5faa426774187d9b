package io.dlock.inmemory.sim;

import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.membership.PrimaryGate;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.membership.EpochInbox;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Executes one {@link Simulation} once: builds the nodes, schedules the workload and the faults,
 * then processes events in (virtual time, sequence) order until the queue drains or a limit is
 * reached. Single-threaded and used once. The {@link Network} carries the messages and applies the
 * fault plan's network filters; the {@link Membership} installs views and injects node faults; the
 * engine itself handles each event and checks the run ({@link Checker}).
 *
 * <p>Randomness: the run's seed makes one root {@link SplittableRandom}, split in a fixed order into
 * one source for message delays, one for faults, one per node for the workload and one per node for
 * the protocol's own draws (a back-off: {@link ProtocolContext#random}, through the options' random
 * seed), so that a draw in one subsystem never shifts the draws of another.
 *
 * @param <M> the algorithm's message type
 */
final class Engine<M extends ProtocolMessage> implements Membership.Host<M>, LockClients.Host {

    private static final long TRACE_SEED = 0x6a09e667f3bcc909L;

    private final Simulation config;
    private final MutexProtocolDefinition<M> definition;
    private final int n;
    private final NodeId[] ids;
    private final List<SimNode<M>> nodes;
    private final EventQueue queue = new EventQueue();
    private final Workload workload;
    private final Checker checker;
    private final Network<M> network;
    private final Membership<M> membership;
    /** Per node, the seed of its protocol's random source, forked from the run's seed. */
    private final long[] protocolSeeds;

    private long now;
    private Event current;
    private long events;
    private long trace = TRACE_SEED;
    private int unfinished;
    /** The observer of {@link Simulation#run(SimulationListener)}, or null. */
    private SimulationListener listener;
    /** The clients that decide each node's next step instead of the workload (a condition simulation), or null. */
    private final LockClients clients;

    private long requests;
    private long entries;
    private long staleDropped;
    private boolean truncated;
    private String error;

    Engine(Simulation config, MutexProtocolDefinition<M> definition) {
        this(config, definition, null);
    }

    /**
     * An engine whose nodes follow {@code clients} (not null: one request each to begin with, then
     * whatever the clients ask) instead of the workload's entry counts.
     */
    Engine(Simulation config, MutexProtocolDefinition<M> definition, LockClients clients) {
        this.config = config;
        this.clients = clients;
        this.definition = definition;
        this.n = config.nodes();
        this.workload = config.workload();
        this.checker = new Checker(n, this::describeCurrent, config.invariants());

        SplittableRandom root = new SplittableRandom(config.seed());
        SplittableRandom delayRandom = root.split();
        SplittableRandom faultRandom = root.split();
        SplittableRandom workloadRoot = root.split();
        SplittableRandom protocolRoot = root.split(); // split last: the earlier sources stay as they were
        this.protocolSeeds = new long[n];
        for (int i = 0; i < n; i++) {
            protocolSeeds[i] = protocolRoot.split().nextLong();
        }

        FaultPlan faults = config.faults();
        this.network = new Network<>(n, queue, config.delay(), delayRandom, faultRandom,
                config.encodeMessages() ? Objects.requireNonNull(definition.codec(), "codec") : null,
                config.fifoChannels(), faults, checker::reportCodecError);
        ids = new NodeId[n];
        for (int i = 0; i < n; i++) {
            ids[i] = NodeId.of(i);
        }
        this.membership = new Membership<>(this, faults, network, checker, queue, ids);
        View initial = membership.initialView();
        nodes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            SimNode<M> node = new SimNode<>(this, i, ids[i], workloadRoot.split(), n);
            node.remaining = clients != null ? 1 : workload.entriesFor(i, n);
            node.joined = !membership.joinsLater(i);
            if (node.joined) {
                node.install(initial);
                node.primaryComponent.accept(initial);
            }
            nodes.add(node);
        }
        for (SimNode<M> node : nodes) {
            if (node.joined) {
                node.gate = newGate(node, initial, true, true);
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
        membership.schedule(nodes);
        if (clients != null) {
            clients.start(this);
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
            if (membership.deferIfPaused(event, now)) {
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
            queue.recycle(event);
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
                    network.countDropped();
                    return;
                }
                if (membership.detectsCrashes() && event.from != event.node && nodes.get(event.from).crashed) {
                    network.countDropped(); // a crashed node's messages in flight are lost with it
                    return;
                }
                if (node.inbox.offer(ids[event.from], event.epoch, (M) event.message) != EpochInbox.Verdict.DELIVER) {
                    staleDropped++; // another epoch, or the same epoch number on the other side of a split
                    return;
                }
                if (event.from != event.node && network.dropsArrival(now, event.from, event.node)) {
                    return;
                }
                if (listener != null) {
                    listener.delivered(now, event.messageId, ids[event.from], ids[event.node], (M) event.message);
                }
                if (clients != null && event.message instanceof ConditionEnvelope envelope) {
                    clients.delivered(event.from, event.node, envelope);
                    return;
                }
                node.protocol.onMessage(ids[event.from], (M) event.message);
                return;
            case Event.TIMER:
                node = nodes.get(event.node);
                if (node.crashed || !node.timers.fire(event)) {
                    return;
                }
                if (listener != null) {
                    listener.timer(now, ids[event.node], event.timer);
                }
                if (clients != null && event.timer.startsWith(LockClients.TIMER_PREFIX)) {
                    clients.timer(event.node, event.timer);
                    return;
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
                if (clients != null) {
                    clients.released(node.index);
                } else if (node.remaining > 0) {
                    schedule(now + workload.drawThink(node.workloadRandom), Event.REQUEST, node.index);
                } else {
                    finish(node);
                }
                return;
            case Event.CRASH:
                membership.crash(nodes.get(event.node));
                return;
            case Event.START:
                node = nodes.get(event.node);
                if (!node.crashed && !node.gate.frozen()) {
                    // the gate has no start event of its own; at time 0 every view is primary
                    node.gate.inner().onStart();
                }
                return;
            case Event.VIEW:
                membership.installPlannedView(event.node);
                return;
            case Event.MEMBERSHIP:
                membership.act(event.node);
                return;
            default:
                throw new IllegalStateException("unknown event kind " + event.kind);
        }
    }

    // ---------------------------------------------------------------- membership host

    @Override
    public long now() {
        return now;
    }

    @Override
    public PrimaryGate<M> newGate(SimNode<M> node, View view, boolean startsIdle, boolean primary) {
        return PrimaryGate.create(definition, new ProtocolContext<>(node.id, view, node,
                config.options().withRandomSeed(protocolSeeds[node.index]), startsIdle), primary);
    }

    @Override
    public void joined(SimNode<M> node) {
        if (node.remaining > 0) {
            schedule(now + workload.drawThink(node.workloadRandom), Event.REQUEST, node.index);
        }
    }

    @Override
    public void crashed(SimNode<M> node) {
        finish(node);
        if (clients != null) {
            clients.crashed(node.index);
        }
    }

    @Override
    public void viewInstalled(SimNode<M> node, View view) {
        if (clients != null) {
            clients.viewInstalled(node.index, view);
        }
    }

    private void finish(SimNode<M> node) {
        if (!node.finished) {
            node.finished = true;
            unfinished--;
        }
    }

    // ---------------------------------------------------------------- effects (called by SimNode)

    void send(SimNode<M> src, NodeId to, M message) {
        Objects.requireNonNull(message, "message");
        MessageTypeStats stats = network.statsOf(message);
        long target = to.value();
        if (target == src.index) {
            network.deliverLocally(now, src.index, src.epoch, message, stats);
            return;
        }
        byte[] wire = message instanceof ConditionEnvelope ? null : network.encode(now, message);
        long id = network.count(src.index, stats, wire);
        if (listener != null) {
            listener.sent(now, id, src.id, to, message);
        }
        int dst = target >= 0 && target < n ? (int) target : -1;
        network.transmit(now, src.index, src.epoch, dst, message, wire, stats);
    }

    void broadcast(SimNode<M> src, M message) {
        Objects.requireNonNull(message, "message");
        MessageTypeStats stats = network.statsOf(message);
        byte[] wire = network.encode(now, message);
        Object decoded = src.others.length > 1 ? network.sharedCopy(message, wire) : null;
        for (int dst : src.others) {
            long id = network.count(src.index, stats, wire);
            if (listener != null) {
                listener.sent(now, id, src.id, ids[dst], message);
            }
            network.transmit(now, src.index, src.epoch, dst, message, wire, decoded, stats);
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
            if (clients != null) {
                clients.granted(node.index);
            } else {
                scheduleRelease(node.index);
            }
        }
    }

    // ---------------------------------------------------------------- client host (called by LockClients)

    @Override
    public void scheduleRelease(int node) {
        schedule(now + workload.drawHold(nodes.get(node).workloadRandom), Event.RELEASE, node);
    }

    @Override
    public void scheduleRequest(int node, boolean think) {
        schedule(think ? now + workload.drawThink(nodes.get(node).workloadRandom) : now, Event.REQUEST, node);
    }

    @Override
    public void releaseNow(int node) {
        SimNode<M> sim = nodes.get(node);
        checker.onRelease(node, now);
        if (listener != null) {
            listener.released(now, sim.id);
        }
        sim.protocol.onRelease();
    }

    @Override
    public boolean holding(int node) {
        return checker.holding(node);
    }

    @Override
    public View view(int node) {
        return nodes.get(node).view;
    }

    @Override
    public void finished(int node) {
        finish(nodes.get(node));
    }

    @Override
    @SuppressWarnings("unchecked")
    public void send(int node, NodeId to, ConditionEnvelope message) {
        send(nodes.get(node), to, (M) (ProtocolMessage) message); // never decoded: the envelope is not the algorithm's
    }

    @Override
    public void setTimer(int node, String name, long delay) {
        nodes.get(node).timers.set(queue, now, node, name, delay);
    }

    @Override
    public void cancelTimer(int node, String name) {
        nodes.get(node).timers.cancel(name);
    }

    void setTimer(SimNode<M> node, String name, long delayMillis) {
        node.timers.set(queue, now, node.index, name, delayMillis);
    }

    // ---------------------------------------------------------------- events

    private void schedule(long time, int kind, int node) {
        queue.add(time, queue.obtain(kind, node));
    }

    private void fold(Event event) {
        long h = trace;
        h = mix(h ^ event.time);
        boolean delivery = event.kind == Event.DELIVER;
        h = mix(h ^ ((long) event.kind << 48 ^ (long) event.node << 24 ^ (delivery ? event.from : 0)));
        if (delivery) {
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
        long messages = network.messages();
        List<Long> perNode = new ArrayList<>(n);
        for (SimNode<M> node : nodes) {
            perNode.add(node.entries);
        }
        long ungranted = checker.ungranted();
        boolean deadlocked = queue.isEmpty() && ungranted > 0;
        return new SimulationResult(config.seed(), n, definition.name(), requests, entries, List.copyOf(perNode),
                messages, network.messagesByType(), network.bytes(), entries == 0 ? Double.NaN : (double) messages / entries,
                checker.safetyViolations(), checker.fenceViolations(), checker.grantViolations(),
                checker.codecErrors(), ungranted, deadlocked, truncated,
                network.faultsInjected() + membership.faultsInjected(), network.dropped(), network.duplicated(),
                staleDropped, checker.syncDelay(), checker.syncDelaySamples(), now, events, trace,
                checker.firstViolation(), error, config.toString(), checker.recoveryTimes(), membership.fencedOut(),
                checker.addedViolations());
    }
}
