package io.dlock.inmemory.sim;

import io.dlock.membership.PrimaryComponent;
import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionEffects;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.protocol.ElectionProtocolDefinition;
import io.dlock.protocol.ElectionScenario;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
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

    // Fault mode: ElectionFaults given.
    private final boolean faultMode;
    private final SplittableRandom faultRandom;
    private final Map<Long, View> views = new TreeMap<>();
    /** Component index of each node since the last view change (-1: crashed); messages between components are lost. */
    private final int[] component;
    /** The views of the current components, and whether each has run with no loss and no crash of a member. */
    private List<View> components = new ArrayList<>();
    private long lastEpoch = 1;
    /** When the current components' views were given. */
    private long componentsSince;

    /** A message of a newer view than its receiver's, kept until the receiver installs that view. */
    private record Early(int from, long epoch, Object message) {
    }

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
        /** The members reported with the last leader (empty if the algorithm reports none). */
        List<NodeId> members = List.of();
        /** The view in which {@link #members} were reported (fault mode). */
        long membersEpoch;
        // Fault mode (ElectionFaults), as the runtime's ElectionDriver: the installed view, whether it
        // is primary, the leader known now (null while an election runs or in a minority), the
        // messages of newer views waiting for them, and the leaders learned per view.
        View view;
        boolean primary;
        PrimaryComponent primaries;
        NodeId current;
        final List<Early> early = new ArrayList<>();
        final Map<Long, List<NodeId>> leadersByEpoch = new TreeMap<>();

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
            leaderElected(leader, List.of());
        }

        @Override
        public void leaderElected(NodeId leader, List<NodeId> reported) {
            steps = now;
            members = List.copyOf(reported);
            if (faultMode) {
                membersEpoch = view.epoch();
                current = leader;
                leadersByEpoch.computeIfAbsent(view.epoch(), e -> new ArrayList<>()).add(leader);
                learned = leader;
                learnedAt = now;
                return;
            }
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
        this.faultMode = !config.faults().isEmpty();
        this.faultRandom = faultMode ? root.split() : null; // last, so runs without faults draw as before
        this.component = new int[n + 1];
        if (faultMode && (config.crashLeader() || config.crashStarterAt() >= 0)) {
            throw new IllegalArgumentException("with ElectionFaults, crashes are faults too (ElectionFaults.crash)");
        }

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
                if (faultMode) {
                    node.view = view;
                    node.primaries = new PrimaryComponent();
                    node.primary = node.primaries.accept(view);
                }
            }
        }
        if (faultMode) {
            views.put(view.epoch(), view);
            components.add(view);
            for (ElectionFaults.Crash c : config.faults().crashes()) {
                checkNode(c.node());
                queue.add(c.at(), queue.obtain(Event.CRASH, c.node()));
            }
            for (ElectionFaults.ViewChange v : config.faults().views()) {
                v.components().forEach(members -> members.forEach(this::checkNode));
                Event e = queue.obtain(Event.MEMBERSHIP, 0);
                e.message = v;
                queue.add(v.at(), e);
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
        Map<NodeId, List<NodeId>> members = new TreeMap<>();
        if (faultMode) {
            checkComponents("at the end");
            for (NodeId id : live) {
                Node node = nodes.get((int) id.value());
                if (node.current != null) {
                    learned.put(id, node.current);
                    learnedAt.put(id, node.learnedAt);
                    members.put(id, node.members);
                }
            }
            boolean agreed = learned.size() == live.size() && learned.values().stream().distinct().count() == 1;
            return new ElectionResult(definition.name(), n, config.seed(), ring, starters, crashed,
                    agreed ? Optional.of(learned.values().iterator().next()) : Optional.empty(), learned, learnedAt,
                    members, network.messages(), network.messagesByType(), network.bytes(), steps,
                    java.util.OptionalLong.empty(), violations, config.toString());
        }
        for (NodeId id : live) {
            Node node = nodes.get((int) id.value());
            if (node.learned != null) {
                members.put(id, node.members);
            }
            if (node.learned == null) {
                violation("live node " + id + " never learned the leader");
            } else {
                learned.put(id, node.learned);
                learnedAt.put(id, node.learnedAt);
            }
        }
        boolean agreed = learned.size() == live.size() && learned.values().stream().distinct().count() == 1;
        return new ElectionResult(definition.name(), n, config.seed(), ring, starters, crashed,
                agreed ? Optional.of(highestLive) : Optional.empty(), learned, learnedAt, members, network.messages(),
                network.messagesByType(), network.bytes(), steps, crashedMidRun ? java.util.OptionalLong.empty() // no formula covers a crash mid-run
                        : definition.expectedMessages(new ElectionScenario(ring, Set.copyOf(starters), crashed)),
                violations, config.toString());
    }

    @SuppressWarnings("unchecked")
    private void dispatch(Event event) {
        if (event.kind == Event.MEMBERSHIP) {
            viewChange((ElectionFaults.ViewChange) event.message);
            return;
        }
        Node node = nodes.get(event.node);
        if (event.kind == Event.CRASH) {
            if (node.dead) {
                return;
            }
            if (faultMode && component[node.index] >= 0) {
                unreliable.add(components.get(component[node.index]).epoch()); // a member crashed in this view
                component[node.index] = -1;
            }
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
        if (event.kind == Event.VIEW) {
            install(node, views.get(event.epoch));
            return;
        }
        if (event.kind == Event.START) {
            if (faultMode) {
                node.current = null;
            }
            node.protocol.onStart();
        } else if (event.kind == Event.DELIVER) {
            if (node.dead) {
                return; // counted when sent (docs/algorithms.md 0.1)
            }
            if (faultMode) {
                if (event.epoch > node.view.epoch()) {
                    node.early.add(new Early(event.from, event.epoch, event.message));
                } else if (event.epoch == node.view.epoch() && node.primary) {
                    steps = now;
                    node.protocol.onMessage(NodeId.of(event.from), (M) event.message);
                }
                return; // an older view's message, or a minority's: dropped
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
        if (faultMode) {
            boolean lost = component[src.index] != component[(int) target] || component[(int) target] < 0;
            for (ElectionFaults.Loss l : config.faults().losses()) {
                if (!lost && target != src.index && now >= l.from() && now < l.until() && faultRandom.nextDouble() < l.probability()) {
                    lost = true;
                }
            }
            network.transmit(now, src.index, src.view.epoch(), lost ? -1 : (int) target, message, wire, stats);
            return;
        }
        network.transmit(now, src.index, 0, (int) target, message, wire, stats);
    }

    private void checkNode(int node) {
        if (node < 1 || node > n) {
            throw new IllegalArgumentException("node " + node + " is not one of 1.." + n);
        }
    }

    /** Views in which messages were lost or a member crashed: the checker does not ask them to elect. */
    private final Set<Long> unreliable = new java.util.HashSet<>();

    /**
     * A view change: checks the views that end, then gives each component its view (a fresh epoch
     * each) and schedules each live member's install within one largest delay.
     */
    private void viewChange(ElectionFaults.ViewChange change) {
        checkComponents("before the view change at t=" + now);
        java.util.Arrays.fill(component, -1);
        List<View> next = new ArrayList<>();
        for (List<Integer> members : change.components()) {
            List<NodeId> ids = members.stream().filter(i -> !nodes.get(i).dead).sorted().map(i -> NodeId.of(i)).toList();
            if (ids.isEmpty()) {
                continue;
            }
            View v = new View(++lastEpoch, ids);
            views.put(v.epoch(), v);
            for (NodeId id : ids) {
                component[(int) id.value()] = next.size();
                Event e = queue.obtain(Event.VIEW, (int) id.value());
                e.epoch = v.epoch();
                queue.add(now + (config.delay().max() <= 0 ? 0 : faultRandom.nextLong(config.delay().max() + 1)), e);
            }
            next.add(v);
        }
        components = next;
        componentsSince = now;
    }

    /** The runtime's ElectionDriver.installView, for one node. */
    private void install(Node node, View v) {
        if (node.dead || v.epoch() <= node.view.epoch()) {
            return;
        }
        node.view = v;
        node.primary = node.primaries.accept(v);
        node.timers.clear();
        List<NodeId> viewRing = ring.stream().filter(v::contains).toList();
        node.protocol = definition.create(new ElectionContext<>(node.id, v, viewRing, node, config.effectiveOptions()));
        if (!node.primary) {
            node.current = null; // a minority has no leader and elects none
        } else if (node.current == null || !v.contains(node.current) || v.highest().compareTo(node.current) > 0) {
            node.current = null;
            node.protocol.onStart();
        } else {
            node.leadersByEpoch.computeIfAbsent(v.epoch(), e -> new ArrayList<>()).add(node.current); // carried over
        }
        List<Early> waiting = new ArrayList<>(node.early);
        node.early.clear();
        for (Early e : waiting) {
            if (e.epoch() > v.epoch()) {
                node.early.add(e);
            } else if (e.epoch() == v.epoch() && node.primary && !node.dead && node.view == v) {
                node.protocol.onMessage(NodeId.of(e.from()), (M) e.message());
            }
        }
    }

    /**
     * For each current component whose view ran with no loss and no crash: every live member
     * installed it; in a primary view each knows its highest member (and, if reported, its members)
     * and learned no other leader in it; in a view that is not primary none knows a leader. At most
     * one component is primary.
     */
    private void checkComponents(String when) {
        int primaries = 0;
        if (now - componentsSince < config.faults().settle() && !when.equals("at the end")) {
            return; // replaced before the election had time to end: nothing to ask of these views
        }
        for (ElectionFaults.Loss l : config.faults().losses()) {
            if (l.probability() > 0 && l.from() <= now && l.until() > componentsSince) {
                return; // messages of these views were lost: nothing to ask of them
            }
        }
        for (View v : components) {
            if (unreliable.contains(v.epoch())) {
                continue;
            }
            boolean primary = false;
            for (NodeId id : v.members()) {
                Node node = nodes.get((int) id.value());
                if (node.dead) {
                    continue;
                }
                if (node.view != v) {
                    violation(when + ": node " + id + " has not installed view " + v.epoch());
                    continue;
                }
                primary |= node.primary;
                if (!node.primary) {
                    if (node.current != null) {
                        violation(when + ": node " + id + " knows leader " + node.current + " in non-primary view " + v);
                    }
                    continue;
                }
                if (!v.highest().equals(node.current)) {
                    violation(when + ": node " + id + " knows leader " + node.current + " in " + v + ", not its highest member");
                }
                List<NodeId> wrong = node.leadersByEpoch.getOrDefault(v.epoch(), List.of()).stream()
                        .filter(l -> !l.equals(v.highest())).toList();
                if (!wrong.isEmpty()) {
                    violation(when + ": node " + id + " learned " + wrong + " in " + v);
                }
                if (node.membersEpoch == v.epoch() && !node.members.isEmpty() && !node.members.equals(v.members())) {
                    violation(when + ": node " + id + " reported members " + node.members + " in " + v);
                }
            }
            primaries += primary ? 1 : 0;
        }
        if (primaries > 1) {
            violation(when + ": " + primaries + " primary components " + components);
        }
    }

    private void violation(String what) {
        if (violations.size() < 20) {
            violations.add(what);
        }
    }
}
