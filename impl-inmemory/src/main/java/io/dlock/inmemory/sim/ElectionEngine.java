package io.dlock.inmemory.sim;

import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionEffects;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.protocol.ElectionProtocolDefinition;
import io.dlock.protocol.ElectionScenario;
import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.spi.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Executes one {@link ElectionSimulation} once, on the simulator's {@link EventQueue}: creates the
 * live nodes' protocols, schedules the starters at time 0, delivers messages with delays from the
 * {@link DelayModel} (FIFO per channel when required), and checks the outcome. Single-threaded and
 * used once.
 *
 * <p>Randomness: the seed makes one root {@link SplittableRandom}, split in a fixed order into the
 * delay source, the ring source and the starter source.
 *
 * <p>Checks: a node that learns two different leaders; a node told a leader that is not the highest
 * live id; a live node that learns none; a message delivered to a node after it learned the leader,
 * for algorithms that declare {@link ElectionProtocolDefinition#quietAfterLeader()} (the leader may
 * receive back, once, the announcement it sent when it learned it won, as Chang-Roberts' ELECTED
 * returns to the leader who knew at time n); a codec whose
 * round trip changes a message; an exception from a handler; a run cut by the event limit.
 *
 * @param <M> the algorithm's message type
 */
final class ElectionEngine<M extends ProtocolMessage> {

    private final ElectionSimulation config;
    private final ElectionProtocolDefinition<M> definition;
    private final int n;
    private final EventQueue queue = new EventQueue();
    private final SplittableRandom delayRandom;
    private final DelayModel delay;
    private final MessageCodec<M> codec;
    private final long[] channelTail;
    private final List<NodeId> ring;
    private final List<NodeId> live; // mutable: a node crashing mid-run leaves it
    private final List<NodeId> starters;
    private final Set<NodeId> crashed; // mutable: a node crashing mid-run joins it
    private NodeId highestLive;
    private boolean crashedMidRun;
    private final List<Node> nodes = new ArrayList<>();
    private final Map<Class<?>, MessageTypeStats> stats = new LinkedHashMap<>();
    private final List<String> violations = new ArrayList<>();

    private long now;
    private long steps;
    private long events;
    private long messages;
    private long bytes;

    /** One simulated node: its protocol, effects, timers and what it learned. */
    private final class Node implements ElectionEffects<M> {
        final int index;
        final NodeId id;
        boolean dead;
        ElectionProtocol<M> protocol;
        final Map<String, Long> timers = new HashMap<>();
        long timerGenerations;
        NodeId learned;
        long learnedAt = -1;
        /** The last message this node sent, and the event during which it did. */
        M lastSent;
        long lastSentEvent = -1;
        /** The message a leader sent in the event in which it learned that it won; may come back once. */
        M announcement;

        Node(int index, NodeId id, boolean dead) {
            this.index = index;
            this.id = id;
            this.dead = dead;
        }

        @Override
        public void send(NodeId to, M message) {
            lastSent = message;
            lastSentEvent = events;
            transmit(this, to, message);
        }

        @Override
        public void setTimer(String name, long delayMillis) {
            Objects.requireNonNull(name, "timer name");
            if (delayMillis < 0) {
                throw new IllegalArgumentException("timer " + name + " delay must be >= 0, got " + delayMillis);
            }
            long generation = ++timerGenerations;
            timers.put(name, generation);
            Event e = new Event();
            e.kind = Event.TIMER;
            e.node = index;
            e.timer = name;
            e.generation = generation;
            queue.add(now + delayMillis, e);
        }

        @Override
        public void cancelTimer(String name) {
            timers.remove(name);
        }

        @Override
        public void leaderElected(NodeId leader) {
            steps = now;
            if (learned != null && !learned.equals(leader)) {
                violation("node " + id + " learned leader " + leader + " after " + learned);
            }
            if (!leader.equals(highestLive)) {
                violation("node " + id + " learned leader " + leader + " but the highest live id is " + highestLive);
            }
            if (learned == null) {
                learnedAt = now;
                if (leader.equals(id) && lastSentEvent == events) {
                    announcement = lastSent;
                }
            }
            learned = leader;
        }
    }

    ElectionEngine(ElectionSimulation config, ElectionProtocolDefinition<M> definition) {
        this.config = config;
        this.definition = definition;
        this.n = config.nodes();
        this.delay = config.delay();
        this.codec = config.encodeMessages() ? Objects.requireNonNull(definition.codec(), "codec") : null;
        this.channelTail = config.fifoChannels() ? new long[(n + 1) * (n + 1)] : null;
        SplittableRandom root = new SplittableRandom(config.seed());
        this.delayRandom = root.split();
        SplittableRandom ringRandom = root.split();
        SplittableRandom starterRandom = root.split();

        this.ring = config.ringOrder(ringRandom);
        View view = idsView();
        this.crashed = new java.util.TreeSet<>(config.crashLeader() ? Set.of(NodeId.of(n)) : Set.of());
        List<NodeId> liveIds = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            if (!crashed.contains(NodeId.of(i))) {
                liveIds.add(NodeId.of(i));
            }
        }
        if (liveIds.isEmpty()) {
            throw new IllegalArgumentException("crashing the leader of a 1-node election leaves no live node");
        }
        this.live = liveIds;
        this.highestLive = liveIds.get(liveIds.size() - 1);
        this.starters = config.starterSet(liveIds, starterRandom);

        ProtocolOptions options = config.effectiveOptions();
        nodes.add(null); // ids start at 1
        for (int i = 1; i <= n; i++) {
            NodeId id = NodeId.of(i);
            nodes.add(new Node(i, id, crashed.contains(id)));
        }
        for (Node node : nodes.subList(1, n + 1)) {
            if (!node.dead) {
                node.protocol = definition.create(new ElectionContext<>(node.id, view, ring, node, options));
            }
        }
        for (NodeId s : starters) {
            Event e = new Event();
            e.kind = Event.START;
            e.node = (int) s.value();
            queue.add(0, e);
        }
        if (config.crashStarterAt() >= 0) {
            Event e = new Event();
            e.kind = Event.CRASH;
            e.node = (int) starters.get(0).value();
            queue.add(config.crashStarterAt(), e);
        }
    }

    private View idsView() {
        List<NodeId> members = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            members.add(NodeId.of(i));
        }
        return new View(1, members);
    }

    ElectionResult run() {
        boolean truncated = false;
        while (!queue.isEmpty()) {
            if (events >= config.maxEvents()) {
                truncated = true;
                break;
            }
            Event event = queue.poll();
            now = event.time;
            events++;
            try {
                dispatch(event);
            } catch (RuntimeException e) {
                violation("handler threw " + e + " at t=" + now + " on node " + event.node);
                break;
            }
        }
        if (truncated) {
            violation("run cut after " + events + " events (the election did not end)");
        }
        Map<NodeId, NodeId> learned = new TreeMap<>();
        Map<NodeId, Long> learnedAt = new TreeMap<>();
        for (NodeId id : live) {
            Node node = nodes.get((int) id.value());
            if (node.learned == null) {
                violation("live node " + id + " never learned the leader");
            } else {
                learned.put(id, node.learned);
                learnedAt.put(id, node.learnedAt);
            }
        }
        boolean agreed = learned.size() == live.size() && learned.values().stream().distinct().count() == 1;
        Map<String, Long> byType = new TreeMap<>();
        stats.values().forEach(s -> byType.put(s.name, s.count));
        return new ElectionResult(definition.name(), n, config.seed(), ring, starters, crashed,
                agreed ? Optional.of(highestLive) : Optional.empty(), learned, learnedAt, messages, byType,
                bytes, steps, crashedMidRun ? java.util.OptionalLong.empty() // no formula covers a crash mid-run
                        : definition.expectedMessages(new ElectionScenario(ring, Set.copyOf(starters), crashed)),
                violations, config.toString());
    }

    @SuppressWarnings("unchecked")
    private void dispatch(Event event) {
        Node node = nodes.get(event.node);
        if (event.kind == Event.CRASH) {
            node.dead = true; // crashed mid-run: it handles nothing more
            node.timers.clear();
            crashed.add(node.id);
            crashedMidRun = true;
            live.remove(node.id);
            highestLive = live.isEmpty() ? null : live.get(live.size() - 1);
            return;
        }
        if (node.dead) {
            return; // a start or a timer of a crashed node
        }
        if (event.kind == Event.START) {
            node.protocol.onStart();
        } else if (event.kind == Event.DELIVER) {
            if (node.dead) {
                return; // counted when sent (SPEC.md 0.1)
            }
            steps = now;
            if (node.learned != null && definition.quietAfterLeader() && node.announcement != null
                    && node.announcement.equals(event.message)) {
                node.announcement = null; // the leader's own announcement, back after a round
            } else if (node.learned != null && definition.quietAfterLeader()) {
                violation("node " + node.id + " received " + event.message + " from " + event.from
                        + " after it learned the leader (t=" + now + ")");
            }
            node.protocol.onMessage(NodeId.of(event.from), (M) event.message);
        } else if (event.kind == Event.TIMER) {
            Long generation = node.timers.get(event.timer);
            if (node.dead || generation == null || generation != event.generation) {
                return;
            }
            node.timers.remove(event.timer);
            steps = now;
            node.protocol.onTimer(event.timer);
        } else {
            throw new IllegalStateException("unexpected event kind " + Event.kindName(event.kind));
        }
    }

    private void transmit(Node src, NodeId to, M message) {
        Objects.requireNonNull(message, "message");
        long target = to.value();
        if (target < 1 || target > n) {
            throw new IllegalArgumentException("node " + src.id + " sent " + message + " to unknown node " + to);
        }
        int dst = (int) target;
        MessageTypeStats s = stats.computeIfAbsent(message.getClass(), MessageTypeStats::new);
        messages++;
        s.count++;
        Object payload = message;
        if (codec != null) {
            byte[] wire;
            M decoded;
            try {
                wire = codec.toBytes(message);
                decoded = codec.fromBytes(wire);
            } catch (RuntimeException e) {
                violation("codec failed on " + message + ": " + e);
                return;
            }
            if (!decoded.equals(message)) {
                violation("codec round trip changed " + message + " into " + decoded);
            }
            bytes += wire.length;
            s.bytes += wire.length;
            payload = decoded;
        }
        long at = now + delay.draw(delayRandom);
        if (channelTail != null) {
            int channel = src.index * (n + 1) + dst;
            at = Math.max(at, channelTail[channel]);
            channelTail[channel] = at;
        }
        Event e = new Event();
        e.kind = Event.DELIVER;
        e.node = dst;
        e.from = src.index;
        e.message = payload;
        queue.add(at, e);
    }

    private void violation(String what) {
        if (violations.size() < 20) {
            violations.add(what);
        }
    }
}
