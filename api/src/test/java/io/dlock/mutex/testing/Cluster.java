package io.dlock.mutex.testing;

import io.dlock.mutex.common.CensusCarrier;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * A tiny deterministic driver for unit tests: N protocol instances of one algorithm, each with a
 * {@link RecordingEffects}, and a pool of messages in flight that the test delivers in the order it
 * chooses (or in a seeded random order, FIFO per channel or not). After every event it checks what
 * the simulator's checker checks: at most one node in the critical section (ME1), a grant only for
 * an outstanding request, fencing tokens strictly increasing. Violations are recorded, not thrown,
 * so that a test can also show a violation (docs/algorithms.md LAM-3).
 *
 * <p>A view change drops every message in flight (the runtime drops messages of older epochs),
 * removes departed nodes and calls {@code onView} on the others. A node that joins gets its protocol
 * as the runtime creates it: with the new view and {@code startsIdle = false}. In {@linkplain #lazy
 * lazy} mode every protocol is created that way, on the node's first request or first message, as the
 * runtime creates a lock on first use.
 *
 * @param <M> the algorithm's message type
 */
public final class Cluster<M extends ProtocolMessage> {

    /** A message in flight or sent; {@code seq} orders sends. */
    public record Envelope<M>(long seq, NodeId from, NodeId to, M message) {
        @Override
        public String toString() {
            return "#" + seq + " " + from + "->" + to + " " + message;
        }
    }

    private final MutexProtocolDefinition<M> definition;
    private final ProtocolOptions options;
    private final boolean lazy;
    private final String lockName;
    private View view;
    private final Map<NodeId, MutexProtocol<M>> protocols = new TreeMap<>();
    private final Map<NodeId, RecordingEffects<M>> effects = new TreeMap<>();

    private final List<Envelope<M>> inFlight = new ArrayList<>();
    private final List<Envelope<M>> sent = new ArrayList<>();
    private long nextSeq;

    private final Set<NodeId> waiting = new TreeSet<>();
    private final Set<NodeId> inCS = new TreeSet<>();
    private final List<NodeId> entries = new ArrayList<>();
    private final List<Long> fences = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();
    private long highestFence;

    /** Nodes {@code 0..n-1} running {@code definition} with {@code options}, epoch 1, all starting idle. */
    public Cluster(MutexProtocolDefinition<M> definition, int n, ProtocolOptions options) {
        this(definition, n, options, false, ProtocolContext.DEFAULT_LOCK_NAME);
    }

    /** Nodes {@code 0..n-1} running {@code definition} for the lock {@code lockName}, epoch 1, all starting idle. */
    public Cluster(MutexProtocolDefinition<M> definition, int n, ProtocolOptions options, String lockName) {
        this(definition, n, options, false, lockName);
    }

    private Cluster(MutexProtocolDefinition<M> definition, int n, ProtocolOptions options, boolean lazy,
                    String lockName) {
        this.definition = definition;
        this.options = options;
        this.lazy = lazy;
        this.lockName = lockName;
        this.view = View.ofRange(1, n);
        if (!lazy) {
            for (NodeId member : view.members()) {
                create(member, view, true);
            }
        }
    }

    /**
     * Nodes {@code 0..n-1} whose protocols are created on first use (first request or first message),
     * with the current view and {@code startsIdle = false}, as the runtime creates a lock.
     */
    public static <M extends ProtocolMessage> Cluster<M> lazy(MutexProtocolDefinition<M> definition, int n,
                                                              ProtocolOptions options) {
        return lazy(definition, n, options, ProtocolContext.DEFAULT_LOCK_NAME);
    }

    /** As {@link #lazy(MutexProtocolDefinition, int, ProtocolOptions)}, for the lock {@code lockName}. */
    public static <M extends ProtocolMessage> Cluster<M> lazy(MutexProtocolDefinition<M> definition, int n,
                                                              ProtocolOptions options, String lockName) {
        return new Cluster<>(definition, n, options, true, lockName);
    }

    /** Nodes {@code 0..n-1} with default options. */
    public Cluster(MutexProtocolDefinition<M> definition, int n) {
        this(definition, n, ProtocolOptions.NONE);
    }

    /** Shorthand for {@code NodeId.of(value)}. */
    public static NodeId id(long value) {
        return NodeId.of(value);
    }

    private MutexProtocol<M> create(NodeId node, View initial, boolean startsIdle) {
        RecordingEffects<M> fx = new RecordingEffects<>(node, initial);
        effects.put(node, fx);
        MutexProtocol<M> protocol = definition.create(new ProtocolContext<>(node, initial, fx, options, startsIdle, 0, lockName));
        protocols.put(node, protocol);
        if (!fx.drainSent().isEmpty() || !fx.drainGrants().isEmpty()) {
            violations.add(node + " acted in its constructor; effects are for event handlers");
        }
        return protocol;
    }

    /** The protocol of a member, created now (startsIdle = false) if it has none yet; null for a non-member. */
    private MutexProtocol<M> protocolOf(NodeId node) {
        MutexProtocol<M> p = protocols.get(node);
        if (p == null && view.contains(node)) {
            p = create(node, view, false);
        }
        return p;
    }

    // ---- application events ----------------------------------------------------------------

    /** Node {@code node} calls {@code onRequest}. */
    public void request(long node) {
        NodeId n = id(node);
        if (waiting.contains(n) || inCS.contains(n)) {
            throw new IllegalStateException(n + " already has a request outstanding");
        }
        waiting.add(n);
        protocolOf(n).onRequest();
        collect(n);
    }

    /** Node {@code node}, which is in the critical section, calls {@code onRelease}. */
    public void release(long node) {
        NodeId n = id(node);
        if (!inCS.remove(n)) {
            throw new IllegalStateException(n + " is not in the critical section");
        }
        protocols.get(n).onRelease();
        collect(n);
    }

    /** The running timers of {@code node}: name to delay. */
    public Map<String, Long> timers(long node) {
        RecordingEffects<M> fx = effects.get(id(node));
        return fx == null ? Map.of() : fx.timers();
    }

    /** The protocol instance of {@code node}, or null if it has none (for algorithm-specific inspection in tests). */
    public MutexProtocol<M> protocol(long node) {
        return protocols.get(id(node));
    }

    // ---- delivery ------------------------------------------------------------------------------

    /** The messages in flight, oldest first (a snapshot). */
    public List<Envelope<M>> inFlight() {
        return List.copyOf(inFlight);
    }

    /**
     * The oldest message in flight from {@code from} to {@code to} of {@code type} (a census message
     * type matches the algorithm's {@link CensusCarrier} that carries it), or null.
     */
    public Envelope<M> peek(long from, long to, Class<?> type) {
        return find(e -> e.from().equals(id(from)) && e.to().equals(id(to)) && isOfType(e.message(), type));
    }

    /** Whether {@code message}, or the census message it carries, is a {@code type}. */
    private static boolean isOfType(Object message, Class<?> type) {
        return type.isInstance(message) || message instanceof CensusCarrier c && type.isInstance(c.message());
    }

    /** The oldest message in flight from {@code from} to {@code to}, or null. */
    public Envelope<M> peek(long from, long to) {
        return peek(from, to, Object.class);
    }

    private Envelope<M> find(Predicate<Envelope<M>> filter) {
        for (Envelope<M> e : inFlight) {
            if (filter.test(e)) {
                return e;
            }
        }
        return null;
    }

    /** Delivers the oldest message from {@code from} to {@code to} of {@code type}; fails if none. */
    public Envelope<M> deliver(long from, long to, Class<?> type) {
        Envelope<M> e = peek(from, to, type);
        if (e == null) {
            throw new AssertionError("no " + type.getSimpleName() + " in flight from " + from + " to " + to
                    + "; in flight: " + inFlight);
        }
        deliver(e);
        return e;
    }

    /** Delivers the oldest message from {@code from} to {@code to}; fails if none. */
    public Envelope<M> deliver(long from, long to) {
        return deliver(from, to, Object.class);
    }

    /** Delivers {@code e}, which must be in flight. */
    public void deliver(Envelope<M> e) {
        if (!inFlight.remove(e)) {
            throw new AssertionError("not in flight: " + e);
        }
        MutexProtocol<M> target = protocolOf(e.to());
        if (target == null) {
            return; // addressed to a node that left
        }
        target.onMessage(e.from(), e.message());
        collect(e.to());
    }

    /**
     * Puts a copy of {@code e} in flight, behind everything already in flight. {@code e} need not be
     * in flight any more: keeping an envelope and duplicating it later injects a late duplicate.
     */
    public Envelope<M> duplicate(Envelope<M> e) {
        Envelope<M> copy = new Envelope<>(nextSeq++, e.from(), e.to(), e.message());
        inFlight.add(copy);
        return copy;
    }

    /** Removes {@code e} from flight without delivering it; it stays counted as sent. */
    public void drop(Envelope<M> e) {
        if (!inFlight.remove(e)) {
            throw new AssertionError("not in flight: " + e);
        }
    }

    /** Delivers messages oldest first until none is in flight (FIFO on every channel). */
    public void deliverAll() {
        int budget = 1_000_000;
        while (!inFlight.isEmpty()) {
            if (--budget == 0) {
                throw new AssertionError("messages never stop");
            }
            deliver(inFlight.get(0));
        }
    }

    /**
     * Delivers one message chosen by {@code random}: any message, or with {@code fifo} the oldest of
     * a random channel. With probability {@code duplicateProbability} a copy stays in flight.
     */
    public void deliverRandom(Random random, boolean fifo, double duplicateProbability) {
        Envelope<M> chosen = inFlight.get(random.nextInt(inFlight.size()));
        if (fifo) {
            Envelope<M> c = chosen;
            chosen = find(e -> e.from().equals(c.from()) && e.to().equals(c.to()));
        }
        if (random.nextDouble() < duplicateProbability) {
            duplicate(chosen);
        }
        deliver(chosen);
    }

    /**
     * A seeded random run: every node in {@code requesters} requests {@code requestsPerNode} times;
     * requests, releases and deliveries are interleaved at random. Ends when nothing is left to do;
     * a request still waiting then is recorded as an ME3 violation.
     */
    public void runWorkload(Random random, Set<NodeId> requesters, int requestsPerNode, boolean fifo,
                            double duplicateProbability) {
        Map<NodeId, Integer> budget = new TreeMap<>();
        for (NodeId n : requesters) {
            budget.put(n, requestsPerNode);
        }
        int steps = 0;
        while (randomStep(random, budget, fifo, duplicateProbability)) {
            if (++steps > 2_000_000) {
                throw new AssertionError("run does not terminate");
            }
        }
        checkNobodyWaits();
    }

    /**
     * One random action: a request by an idle node with budget left (the budget is decremented), a
     * release by a node in the critical section, a delivery, or, when none of these is possible, the
     * firing of a running timer. Returns
     * false if none is possible, or, for an algorithm that is not
     * {@linkplain MutexProtocolDefinition#quiescentWhenIdle() quiescent when idle}, when nobody can
     * request, waits or holds.
     */
    public boolean randomStep(Random random, Map<NodeId, Integer> budget, boolean fifo, double duplicateProbability) {
        List<NodeId> canRequest = new ArrayList<>();
        for (Map.Entry<NodeId, Integer> b : budget.entrySet()) {
            NodeId n = b.getKey();
            if (b.getValue() > 0 && view.contains(n) && !waiting.contains(n) && !inCS.contains(n)) {
                canRequest.add(n);
            }
        }
        List<NodeId> canRelease = new ArrayList<>(inCS);
        if (!definition.quiescentWhenIdle() && canRequest.isEmpty() && canRelease.isEmpty() && waiting.isEmpty()
                && budget.entrySet().stream().noneMatch(b -> b.getValue() > 0 && view.contains(b.getKey()))) {
            return false; // the workload is done; this algorithm's messages never stop (docs/algorithms.md F30)
        }
        // a timer fires only when nothing else can happen: timeouts exceed every message delay and
        // critical section (the timing assumption of the token recoveries, docs/algorithms.md A6/A9)
        int others = (canRequest.isEmpty() ? 0 : 1) + (canRelease.isEmpty() ? 0 : 1) + (inFlight.isEmpty() ? 0 : 2);
        List<Map.Entry<NodeId, String>> timers = others == 0 ? runningTimers() : List.of();
        int choices = others + (timers.isEmpty() ? 0 : 1);
        if (choices == 0) {
            return false;
        }
        int pick = random.nextInt(choices);
        if (!canRequest.isEmpty() && pick-- == 0) {
            NodeId n = canRequest.get(random.nextInt(canRequest.size()));
            budget.merge(n, -1, Integer::sum);
            request(n.value());
        } else if (!canRelease.isEmpty() && pick-- == 0) {
            release(canRelease.get(random.nextInt(canRelease.size())).value());
        } else if (!timers.isEmpty() && pick-- == 0) {
            Map.Entry<NodeId, String> t = timers.get(random.nextInt(timers.size()));
            fireTimer(t.getKey().value(), t.getValue());
        } else {
            deliverRandom(random, fifo, duplicateProbability);
        }
        return true;
    }

    /** The running timers of every node with a protocol, as (node, timer name), ascending. */
    public List<Map.Entry<NodeId, String>> runningTimers() {
        List<Map.Entry<NodeId, String>> running = new ArrayList<>();
        for (Map.Entry<NodeId, RecordingEffects<M>> e : effects.entrySet()) {
            for (String name : new TreeSet<>(e.getValue().timers().keySet())) {
                running.add(Map.entry(e.getKey(), name));
            }
        }
        return running;
    }

    /** Fires the running timer {@code name} of {@code node} (a random step does this too, when timers run). */
    public void fireTimer(long node, String name) {
        NodeId n = id(node);
        RecordingEffects<M> fx = effects.get(n);
        if (fx == null || !fx.timers().containsKey(name)) {
            throw new AssertionError("no timer '" + name + "' running at " + n);
        }
        fx.cancelTimer(name);
        protocols.get(n).onTimer(name);
        collect(n);
    }

    /**
     * Runs {@code action} on {@code node}'s protocol, for an event the driver has no method for (a
     * failure detector's report to an algorithm that has such a mode), then collects what it sent and
     * granted as after any other event.
     */
    public void act(long node, java.util.function.Consumer<MutexProtocol<M>> action) {
        NodeId n = id(node);
        action.accept(protocols.get(n));
        collect(n);
    }

    /**
     * {@code node}'s process ends and a new run of it, with the same id, has no state yet: its protocol, and whether it
     * waits or holds, are forgotten (its next event creates a fresh instance, {@code startsIdle = false}). Messages in
     * flight to it reach the new run.
     */
    public void restart(long node) {
        NodeId n = id(node);
        protocols.remove(n);
        effects.remove(n);
        waiting.remove(n);
        inCS.remove(n);
    }

    /** Records an ME3 violation if a request is still waiting (call when nothing is in flight). */
    public void checkNobodyWaits() {
        if (!waiting.isEmpty()) {
            violations.add("ME3: still waiting with nothing left to do: " + waiting + " " + protocols.values());
        }
    }

    /** The current members' ids, ascending (not {@code Set.copyOf}, whose order changes from JVM to JVM). */
    public Set<NodeId> members() {
        return java.util.Collections.unmodifiableSet(new TreeSet<>(view.members()));
    }

    // ---- membership ----------------------------------------------------------------------------

    /**
     * Installs {@code newView}: drops every message in flight, removes nodes that are not in it,
     * calls {@code onView} on every member that has a protocol, ascending, and creates the protocols
     * of new members (unless lazy) with the new view and {@code startsIdle = false}.
     */
    public void changeView(View newView) {
        inFlight.clear();
        for (NodeId old : List.copyOf(protocols.keySet())) {
            if (!newView.contains(old)) {
                protocols.remove(old);
                effects.remove(old);
                waiting.remove(old);
                inCS.remove(old);
            }
        }
        view = newView;
        for (NodeId member : List.copyOf(protocols.keySet())) {
            effects.get(member).view(newView);
            protocols.get(member).onView(newView);
            collect(member);
        }
        if (!lazy) {
            for (NodeId member : newView.members()) {
                if (!protocols.containsKey(member)) {
                    create(member, newView, false);
                }
            }
        }
    }

    /** A view of the given node ids with the next epoch. */
    public View nextView(long... members) {
        List<NodeId> ids = new ArrayList<>();
        for (long m : members) {
            ids.add(id(m));
        }
        return new View(view.epoch() + 1, ids);
    }

    /** The current view. */
    public View view() {
        return view;
    }

    // ---- bookkeeping -----------------------------------------------------------------------

    private void collect(NodeId node) {
        RecordingEffects<M> fx = effects.get(node);
        for (RecordingEffects.Sent<M> s : fx.drainSent()) {
            if (s.to().equals(node)) {
                violations.add(node + " sent a message to itself: " + s.message());
            }
            Envelope<M> e = new Envelope<>(nextSeq++, node, s.to(), s.message());
            inFlight.add(e);
            sent.add(e);
        }
        for (long fence : fx.drainGrants()) {
            if (!waiting.remove(node)) {
                violations.add(node + " granted without an outstanding request");
            }
            if (!inCS.isEmpty()) {
                violations.add("ME1: " + node + " entered while " + inCS + " in the critical section");
            }
            if (fence <= highestFence) {
                violations.add("fence " + fence + " granted to " + node + " is not above " + highestFence);
            }
            highestFence = Math.max(highestFence, fence);
            inCS.add(node);
            entries.add(node);
            fences.add(fence);
        }
    }

    /** Whether {@code node} is in the critical section. */
    public boolean inCS(long node) {
        return inCS.contains(id(node));
    }

    /** Whether {@code node} has a request that is not granted yet. */
    public boolean waiting(long node) {
        return waiting.contains(id(node));
    }

    /** Nodes that entered the critical section, in entry order. */
    public List<NodeId> entries() {
        return List.copyOf(entries);
    }

    /** Fencing tokens granted, in grant order. */
    public List<Long> fences() {
        return List.copyOf(fences);
    }

    /** Everything the checker found wrong so far. */
    public List<String> violations() {
        return List.copyOf(violations);
    }

    /** Every network message sent so far (duplicates made by the test are not counted). */
    public List<Envelope<M>> sent() {
        return List.copyOf(sent);
    }

    /** Number of network messages sent so far. */
    public int messagesSent() {
        return sent.size();
    }

    /** Number of network messages of {@code type} sent so far (census messages match as in {@link #peek}). */
    public long messagesSent(Class<?> type) {
        return sent.stream().filter(e -> isOfType(e.message(), type)).count();
    }

    /** Whether {@code node} has a protocol instance (in lazy mode, whether it has been used). */
    public boolean created(long node) {
        return protocols.containsKey(id(node));
    }

    @Override
    public String toString() {
        return "Cluster" + protocols.values() + " inFlight=" + inFlight;
    }
}
