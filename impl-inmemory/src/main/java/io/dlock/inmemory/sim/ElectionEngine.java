package io.dlock.inmemory.sim;

import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionEffects;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.protocol.ElectionProtocolDefinition;
import io.dlock.protocol.ElectionScenario;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.spi.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Executes one {@link ElectionSimulation} once, on the simulator's {@link EventQueue}: creates the
 * live nodes' protocols, schedules the starters at time 0, sends messages through the simulator's
 * {@link Network} (codec round trip, delays from the {@link DelayModel}, FIFO per channel when
 * required, no faults), and checks the outcome. Single-threaded and used once.
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
    private final Network<M> network;
    private final List<NodeId> ring;
    private final List<NodeId> live; // mutable: a node crashing mid-run leaves it
    private final List<NodeId> starters;
    private final Set<NodeId> crashed; // mutable: a node crashing mid-run joins it
    private NodeId highestLive;
    private boolean crashedMidRun;
    private final List<Node> nodes = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();

    private long now;
    private long steps;
    private long events;

    /** One simulated node: its protocol, effects, timers and what it learned. */
    private final class Node implements ElectionEffects<M> {
        final int index;
        final NodeId id;
        boolean dead;
        ElectionProtocol<M> protocol;
        final Timers timers = new Timers();
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
            timers.set(queue, now, index, name, delayMillis);
        }

        @Override
        public void cancelTimer(String name) {
            timers.cancel(name);
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
        SplittableRandom root = new SplittableRandom(config.seed());
        this.network = new Network<>(n + 1, queue, config.delay(), root.split(), null,
                config.encodeMessages() ? Objects.requireNonNull(definition.codec(), "codec") : null,
                config.fifoChannels(), FaultPlan.none(), (time, what) -> violation(what));
        SplittableRandom ringRandom = root.split(); // after the delay source
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
            queue.add(0, queue.obtain(Event.START, (int) s.value()));
        }
        if (config.crashStarterAt() >= 0) {
            queue.add(config.crashStarterAt(), queue.obtain(Event.CRASH, (int) starters.get(0).value()));
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
        return new ElectionResult(definition.name(), n, config.seed(), ring, starters, crashed,
                agreed ? Optional.of(highestLive) : Optional.empty(), learned, learnedAt, network.messages(),
                network.messagesByType(), network.bytes(), steps, crashedMidRun ? java.util.OptionalLong.empty() // no formula covers a crash mid-run
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
                return; // counted when sent (docs/algorithms.md 0.1)
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
            if (!node.timers.fire(event)) {
                return;
            }
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
        MessageTypeStats stats = network.statsOf(message);
        byte[] wire = network.encode(now, message);
        network.count(src.index, stats, wire);
        network.transmit(now, src.index, 0, (int) target, message, wire, stats);
    }

    private void violation(String what) {
        if (violations.size() < 20) {
            violations.add(what);
        }
    }
}
