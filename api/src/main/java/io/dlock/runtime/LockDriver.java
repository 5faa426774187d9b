package io.dlock.runtime;

import io.dlock.LockMetrics;
import io.dlock.OwnershipLoss;
import io.dlock.condition.ConditionCodec;
import io.dlock.condition.ConditionMessage;
import io.dlock.condition.ConditionProtocol;
import io.dlock.membership.EpochInbox;
import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.membership.PrimaryGate;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.spi.MalformedMessageException;
import io.dlock.spi.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.View;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import io.dlock.reclaim.LockVote;
import io.dlock.reclaim.PeerCounters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives one lock's {@link MutexProtocol} on one node: a serial event loop that feeds it requests,
 * releases, messages, views and timers; the effects that turn its answers into transport sends, grants
 * and timers; epoch filtering; and the lock's counters.
 *
 * <p>Every protocol call happens on the event loop, one at a time. Messages pass the lock's
 * {@link EpochInbox}: those of an older epoch are dropped; those of a newer epoch (the sender installed
 * the view first) wait until this node installs that view.
 *
 * <p>The protocol is wrapped in a {@link PrimaryGate}: in a view that is not primary for this node
 * (the node runtime's {@link io.dlock.membership.PrimaryComponent} decides) nothing is granted, requests
 * wait, and the protocol sees the next primary view only.
 *
 * <h2>Reclamation</h2>
 * A reclamation round ({@link io.dlock.reclaim.Reclamation}, driven by {@link ReclaimDriver}) asks the driver
 * to {@linkplain #vote vote}: if the lock has been idle here for the expiry ({@link #markIdle}), nobody pins
 * it, no local thread holds or waits for it, no condition has a waiter and the algorithm says it is at rest,
 * the driver <em>freezes</em>: every event (message, request, view, timer) waits in {@code held} until the
 * decision. {@link #commit} replaces the protocol by a fresh one (a new incarnation, fenced above the node's
 * floor) and, if nothing waits and nobody pins the driver, buries it; {@link #thaw} replays what waited.
 *
 * <p><b>Pins.</b> Whoever submits an event pins the driver (a facade call, a message delivery); each queued
 * event holds a pin of its own until it runs or is held. So, on the event loop, "no pin and nothing held"
 * means no event of the lock is on its way here, and burying it loses nothing.
 *
 * @param <M> the algorithm's message type
 */
final class LockDriver<M extends ProtocolMessage> {

    private static final Logger LOG = LoggerFactory.getLogger(LockDriver.class);
    /** Messages of future epochs kept at most; beyond that they are dropped and counted as stale. */
    private static final int MAX_EARLY_MESSAGES = 10_000;

    private final String name;
    private final MutexProtocolDefinition<M> definition;
    private final MessageCodec<M> codec;
    private final Transport transport;
    private final NodeId self;
    private final SerialExecutor loop;
    /** What the loop's current pass sends; written at the end of the pass, one frame per destination. */
    private final Outbox outbox;
    private final LocalLockState local;
    /** The facade handed out for this lock while this driver lives (facades find drivers by name, so an
     * older facade keeps working too). */
    private final RuntimeLock facade;
    private final ProtocolOptions options;
    /** The node's epoch lease: a grant reaches a local thread only while it runs. */
    private final LeaseCheck lease;
    /** The node's fencing floor, read when the protocol is (re)created. */
    private final LongSupplier fencingFloor;
    /** Tells the lock's ownership listeners (kept by the node, by lock name, so they outlive this driver). */
    private final Consumer<OwnershipLoss> ownershipLost;
    /** Pins (see the class comment); -1 once buried. */
    private final AtomicInteger pins = new AtomicInteger();
    /** Whether the registry has moved this driver to its idle place (unused here for the idle expiry). */
    private volatile boolean idle;
    /** When the registry last told its cache of a use of this driver ({@link System#nanoTime()}). */
    private volatile long touchedAt;
    /** The newest view epoch queued to the loop (a cheap check before queuing another). */
    private volatile long viewQueued;
    /** When this driver was last nominated for reclamation ({@link System#nanoTime()}), 0 if never. */
    private volatile long nominatedAt;
    private static final ConditionCodec CONDITION_CODEC = new ConditionCodec();
    /** The waiters of this lock's conditions on this node, by waiter number; the event loop wakes them. */
    private final Map<Long, ConditionWaiter> conditionWaiters = new ConcurrentHashMap<>();
    private final AtomicLong lastWaiter = new AtomicLong();

    private final LongAdder entries = new LongAdder();
    private final LongAdder messagesSent = new LongAdder();
    private final LongAdder framesSent = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder messagesReceived = new LongAdder();
    private final LongAdder malformed = new LongAdder();
    private final LongAdder stale = new LongAdder();
    /** Grants since the current view was installed; written on the event loop only, read by any thread. */
    private volatile long epochGrants;

    // Loop-confined state.
    private boolean stopped;
    /** Frozen by a reclamation vote: events wait in {@link #held} until the round's decision. */
    private boolean frozen;
    /** Created while its name was reserved by a reclamation round; set before publication, never changed. */
    private boolean createdFrozen;
    private final List<Runnable> held = new ArrayList<>();
    private final PeerCounters peers = new PeerCounters();
    private View view;
    /** Whether {@link #view} is primary for this node. */
    private boolean primary;
    private PrimaryGate<M> protocol;
    private final EpochInbox<Incoming> inbox = new EpochInbox<>(MAX_EARLY_MESSAGES, this::receive);
    private final LoopTimers protocolTimers;
    /** The protocol of each condition of this lock used on this node, created on first use. */
    private final Map<String, ConditionProtocol> conditions = new HashMap<>();

    /** A received message, positioned at its payload: the algorithm's, or ({@code condition}) a condition's. */
    private record Incoming(WireReader in, boolean condition) {
    }

    /**
     * @param fencingFloor  the node's fencing floor, read whenever the protocol is created
     * @param ownershipLost tells the lock's ownership listeners of a lost hold
     * @param facade        what {@code LockService.lock(name)} returns while this driver lives
     */
    LockDriver(String name, MutexProtocolDefinition<M> definition, ProtocolOptions options, Transport transport,
               View initialView, boolean primary, Executor pool, ScheduledExecutorService timers,
               int localHandoff, LeaseCheck lease, LongSupplier fencingFloor, Consumer<OwnershipLoss> ownershipLost,
               RuntimeLock facade) {
        this.name = name;
        this.facade = facade;
        this.definition = definition;
        this.options = options;
        this.codec = definition.codec();
        this.transport = transport;
        this.self = transport.self();
        this.outbox = new Outbox(definition.name(), name);
        this.loop = new SerialExecutor(pool, this::flush);
        this.fencingFloor = fencingFloor;
        this.ownershipLost = ownershipLost;
        this.protocolTimers = new LoopTimers(timers, task -> loop.execute(() -> runOrHold(task)), () -> !stopped,
                timer -> protocol.onTimer(timer));
        this.lease = lease;
        this.local = new LocalLockState(name, () -> submit(this::request), () -> submit(this::release),
                () -> submit(this::releaseAndRequest), () -> submit(this::tryEnterLocally), localHandoff, lease,
                lost -> ownershipLost.accept(new OwnershipLoss(name, lost.fencingToken(), lost.holder(), viewQueued)));
        this.view = initialView;
        this.viewQueued = initialView.epoch();
        this.primary = primary;
        inbox.install(initialView.epoch(), initialView::contains);
        this.protocol = newProtocol();
        flush(); // what the algorithm sent when it was created (nothing runs the loop yet)
    }

    /** A fresh instance of the algorithm in the current view, fenced above the node's floor. */
    private PrimaryGate<M> newProtocol() {
        return PrimaryGate.create(definition,
                new ProtocolContext<>(self, view, new Effects(), options, false, fencingFloor.getAsLong()), primary);
    }

    RuntimeLock facade() {
        return facade;
    }

    LocalLockState local() {
        return local;
    }

    String name() {
        return name;
    }

    // ---- pins and the event loop ----

    /** Pins this driver; false if it is buried (look the name up again). */
    boolean pin() {
        while (true) {
            int n = pins.get();
            if (n < 0) {
                return false;
            }
            if (pins.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    void unpin() {
        pins.decrementAndGet();
    }

    /** Buries this driver if nobody pins it: no pin succeeds afterwards. */
    boolean tryBury() {
        return pins.compareAndSet(0, -1);
    }

    boolean buried() {
        return pins.get() < 0;
    }

    /** Whether the registry has marked this driver idle (expired from use). */
    boolean idle() {
        return idle;
    }

    long touchedAt() {
        return touchedAt;
    }

    void touched(long nanoTime) {
        touchedAt = nanoTime;
    }

    /** The registry moved this driver to its idle place ({@code true}) or back into use. */
    void markIdle(boolean idle) {
        this.idle = idle;
    }

    long nominatedAt() {
        return nominatedAt;
    }

    void nominated(long nanoTime) {
        nominatedAt = nanoTime;
    }

    /**
     * Hands an event of the lock to its loop, with a pin of its own until it runs (or waits, frozen): on the
     * calling thread if the loop is idle (a caller's request or release, a transport thread's delivery), else
     * queued. An event for a buried driver is dropped: nobody can be waiting for it.
     */
    private void submit(Runnable event) {
        if (!pin()) {
            return;
        }
        loop.runOrQueue(() -> {
            unpin();
            runOrHold(event);
        });
    }

    /** On the loop: runs {@code event} now, or keeps it for the decision while frozen. */
    private void runOrHold(Runnable event) {
        if (frozen) {
            held.add(event);
        } else {
            event.run();
        }
    }

    /** Queues a message received from the transport; {@code in} is positioned at the algorithm's payload. */
    void deliver(NodeId from, long epoch, byte[] bytes, int offset) {
        submit(() -> receive(from, epoch, new Incoming(new WireReader(bytes, offset, bytes.length - offset), false)));
    }

    /** Queues a message of one of this lock's conditions; {@code offset} is at the condition's name. */
    void deliverCondition(NodeId from, long epoch, byte[] bytes, int offset) {
        submit(() -> receive(from, epoch, new Incoming(new WireReader(bytes, offset, bytes.length - offset), true)));
    }

    /**
     * Queues a bundle ({@link Envelope#KIND_BUNDLE}, {@code offset} at the count of its messages): its messages
     * are handled in order in one event, so what they make this node send leaves together too. A bundle with a
     * malformed part is dropped whole, and counted once as malformed.
     */
    void deliverBundle(NodeId from, byte[] bytes, int offset) {
        submit(() -> receiveBundle(from, new WireReader(bytes, offset, bytes.length - offset)));
    }

    // ---- reclamation (called by ReclaimDriver) ----

    /**
     * Called by the registry before this driver is published, when its name is reserved by an undecided round
     * this node voted absent in: the driver starts frozen, and its events wait for the round's decision (a
     * commit creates its algorithm again above the raised fencing floor, a thaw lets it go on).
     */
    void freezeUntilDecided() {
        frozen = true;
        createdFrozen = true;
    }

    /** Whether this driver started frozen ({@link #freezeUntilDecided()}). */
    boolean createdFrozen() {
        return createdFrozen;
    }

    /**
     * Votes on reclaiming this lock in a round of {@code epoch}, on the loop: at rest (and then frozen) only if
     * it has been idle here for the expiry, nobody pins it, no local thread holds or waits for it, no condition
     * has a waiter, this driver is in {@code epoch}, and the algorithm is at rest.
     */
    void vote(long epoch, Consumer<LockVote> answer) {
        loop.execute(() -> {
            boolean atRest = !stopped && !frozen && idle && pins.get() == 0 && held.isEmpty()
                    && view.epoch() == epoch && local.idle() && conditionWaiters.isEmpty() && conditionsAtRest()
                    && protocol.atRest();
            if (atRest) {
                frozen = true;
                answer.accept(peers.atRestVote(name, protocol.highestFence()));
            } else {
                answer.accept(LockVote.busy(name));
            }
        });
    }

    private boolean conditionsAtRest() {
        for (ConditionProtocol condition : conditions.values()) {
            if (condition.queued() > 0 || condition.localWaiters() > 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The round committed: the lock's state here is replaced by a fresh instance (fenced above the node's floor,
     * which the caller raised first); then the driver is buried if nothing waits and nobody pins it ({@code
     * buried} is told), else it thaws and goes on as the lock's next incarnation.
     */
    void commit(LockRegistry registry, Consumer<LockDriver<?>> buried) {
        loop.execute(() -> {
            if (!frozen) {
                return;
            }
            protocolTimers.cancelAll();
            conditions.clear();
            peers.clear();
            epochGrants = 0;
            protocol = newProtocol();
            frozen = false;
            if (held.isEmpty() && registry.bury(name, this)) {
                stopped = true;
                buried.accept(this);
                return;
            }
            replayHeld();
        });
    }

    /** The round did not reclaim this lock: events that waited are handled now. */
    void thaw() {
        loop.execute(() -> {
            if (frozen) {
                frozen = false;
                replayHeld();
            }
        });
    }

    private void replayHeld() {
        List<Runnable> due = new ArrayList<>(held);
        held.clear();
        for (Runnable event : due) {
            event.run();
        }
    }

    // ---- conditions (called by RuntimeCondition's threads) ----

    /** Registers a new waiter of condition {@code condition} and queues its await on the event loop. */
    ConditionWaiter conditionAwait(String condition) {
        ConditionWaiter waiter = new ConditionWaiter(lastWaiter.incrementAndGet());
        conditionWaiters.put(waiter.id(), waiter);
        submit(() -> {
            if (stopped) {
                wakeWaiter(waiter.id());
            } else {
                condition(condition).onAwait(waiter.id());
            }
        });
        return waiter;
    }

    /** The waiter's thread stopped waiting without a wake-up (timeout, interrupt). */
    void conditionGiveUp(String condition, ConditionWaiter waiter) {
        conditionWaiters.remove(waiter.id());
        submit(() -> {
            if (!stopped) {
                condition(condition).onGiveUp(waiter.id());
            }
        });
    }

    /** A holder signals condition {@code condition}: one waiter anywhere, or all. */
    void conditionSignal(String condition, boolean all) {
        submit(() -> {
            if (!stopped) {
                condition(condition).onSignal(all);
            }
        });
    }

    private ConditionProtocol condition(String condition) {
        return conditions.computeIfAbsent(condition, c -> new ConditionProtocol(self, view, new ConditionEffects(c)));
    }

    private boolean wakeWaiter(long id) {
        ConditionWaiter waiter = conditionWaiters.remove(id);
        return waiter != null && waiter.wake();
    }

    /**
     * Queues a view change and whether the view is primary for this node; views not newer than the
     * one installed are ignored.
     */
    void viewChanged(View newView, boolean primary) {
        if (newView.epoch() <= viewQueued) {
            return; // queued already (every lookup of the driver offers the node's view; most offer no news)
        }
        viewQueued = newView.epoch();
        submit(() -> installView(newView, primary));
    }

    /** Queues the election's result for {@code epoch} (see {@link MutexProtocol#onLeader}). */
    void leaderElected(NodeId leader, long epoch) {
        submit(() -> {
            if (!stopped) {
                protocol.onLeader(leader, epoch);
            }
        });
    }

    /**
     * The node's hold lease ran out (a pause, a cut): a hold here can no longer be vouched for, so its holder
     * loses it and the lock's ownership listeners are told (see {@link LocalLockState#holdLeaseLapsed()}).
     */
    void holdLeaseLapsed() {
        local.holdLeaseLapsed();
    }

    /** Fails every waiting thread; the protocol is stopped. */
    void close(String reason) {
        local.close(reason);
        loop.execute(() -> {
            stopped = true;
            held.clear();
            protocolTimers.cancelAll();
            conditionWaiters.keySet().forEach(this::wakeWaiter); // they wake, and fail to reacquire: closed
        });
    }

    LockMetrics metrics() {
        return LockMetrics.of(definition.name(), entries.sum(), messagesSent.sum(), bytesSent.sum(),
                messagesReceived.sum(), malformed.sum(), stale.sum(), local.localHandoffs(), local.acquireWaitTimes(),
                local.holdTimes(), local.queueLength(), epochGrants, framesSent.sum());
    }

    // ---- event loop ----

    private void request() {
        if (!stopped) {
            protocol.onRequest();
        }
    }

    /** tryLock(0): enter without a message if the protocol can, else tell the waiting thread at once. */
    private void tryEnterLocally() {
        if (stopped || !lease.mayGrant() || !protocol.tryEnterLocally()) {
            local.onLocalTryRefused();
        }
    }

    private void release() {
        if (!stopped) {
            protocol.onRelease();
        }
    }

    /** A holder released while local threads wait: the node asks again at once, in the same event. */
    private void releaseAndRequest() {
        release();
        request();
    }

    private void installView(View newView, boolean primary) {
        if (stopped || newView.epoch() <= view.epoch()) {
            return;
        }
        if (LOG.isTraceEnabled()) {
            LOG.trace("lock '{}': view {} -> {} (primary {})", name, view, newView, primary);
        }
        view = newView;
        this.primary = primary;
        epochGrants = 0;
        peers.clear();
        if (!primary) {
            local.endHandoffs(); // a grant cut off from the majority must not pass to more local holders
        }
        long fencedOutBefore = protocol.fencedOut();
        protocol.onView(newView, primary);
        if (protocol.fencedOut() != fencedOutBefore) {
            // the gate fenced out this node's grant: the majority side may grant the lock again
            LocalLockState.LostHold lost = local.loseOwnership();
            if (lost != null) {
                ownershipLost.accept(new OwnershipLoss(name, lost.fencingToken(), lost.holder(), newView.epoch()));
            }
        }
        for (ConditionProtocol condition : conditions.values()) {
            condition.onView(newView); // wakes every waiter: none is lost with a keeper or a member that left
        }
        inbox.install(newView.epoch(), newView::contains); // replays the messages that waited for it
    }

    /** A message of a bundle: the epoch its envelope names, and its payload. */
    private record BundledMessage(long epoch, Incoming incoming) {
    }

    private void receiveBundle(NodeId from, WireReader in) {
        List<BundledMessage> parts = new ArrayList<>();
        try {
            int count = in.readVarInt(Outbox.MAX_BUNDLE);
            for (int i = 0; i < count; i++) {
                WireReader part = in.slice(in.readVarInt(in.remaining()));
                Envelope header = Envelope.readFrom(part);
                boolean condition = header.kind() == Envelope.KIND_CONDITION;
                if ((!condition && header.kind() != Envelope.KIND_MUTEX) || !header.name().equals(name)
                        || !header.algorithm().equals(definition.name())) {
                    throw new MalformedMessageException("a bundle of lock '" + name + "' carries a message of kind "
                            + header.kind() + " of lock '" + header.name() + "' (" + header.algorithm()
                            + "); a bundle carries only its own lock's mutex and condition messages");
                }
                parts.add(new BundledMessage(header.epoch(), new Incoming(part, condition)));
            }
            in.expectEnd();
        } catch (MalformedMessageException e) {
            malformed(from, e);
            return;
        }
        for (BundledMessage part : parts) {
            receive(from, part.epoch(), part.incoming());
        }
    }

    private void receive(NodeId from, long epoch, Incoming incoming) {
        if (stopped) {
            return;
        }
        EpochInbox.Verdict verdict = inbox.offer(from, epoch, incoming);
        if (verdict != EpochInbox.Verdict.DELIVER) {
            if (verdict != EpochInbox.Verdict.HELD) {
                stale.increment();
            }
            if (LOG.isTraceEnabled()) {
                LOG.trace("lock '{}' epoch {}: {} from {} of epoch {}", name, inbox.epoch(), verdict, from, epoch);
            }
            return;
        }
        if (!from.equals(self)) {
            peers.received(from);
        }
        WireReader in = incoming.in();
        if (incoming.condition()) {
            receiveCondition(from, in);
            return;
        }
        M message;
        try {
            message = codec.decode(in);
            in.expectEnd();
        } catch (MalformedMessageException e) {
            malformed(from, e);
            return;
        }
        messagesReceived.increment();
        if (LOG.isTraceEnabled()) {
            LOG.trace("lock '{}' epoch {}: {} <- {}: {}", name, view.epoch(), self, from, message);
        }
        protocol.onMessage(from, message);
    }

    private void receiveCondition(NodeId from, WireReader in) {
        String condition;
        ConditionMessage message;
        try {
            condition = in.readString();
            message = CONDITION_CODEC.decode(in);
            in.expectEnd();
        } catch (MalformedMessageException e) {
            malformed(from, e);
            return;
        }
        messagesReceived.increment();
        condition(condition).onMessage(from, message);
    }

    private void malformed(NodeId from, RuntimeException e) {
        malformed.increment();
        if (inbox.firstUnreadable()) {
            LOG.warn("lock '{}': dropped a malformed message from {} ({}); further ones are only counted", name, from,
                    e.getMessage());
        }
    }

    /** Writes what the loop's pass sent: one frame per destination ({@link Outbox}); on the loop, after each pass. */
    private void flush() {
        outbox.flush(this::sendFrame);
    }

    private void sendFrame(NodeId to, byte[] frame) {
        if (!to.equals(self)) {
            framesSent.increment();
        }
        transport.send(to, frame);
    }

    private byte[] encode(M message) {
        WireWriter out = new WireWriter(48);
        new Envelope(Envelope.KIND_MUTEX, definition.name(), name, view.epoch()).writeTo(out);
        codec.encode(message, out);
        return out.toByteArray();
    }

    /** A condition protocol's effects; called only from the event loop. */
    private final class ConditionEffects implements ConditionProtocol.Effects {

        private final String condition;

        ConditionEffects(String condition) {
            this.condition = condition;
        }

        @Override
        public void send(NodeId to, ConditionMessage message) {
            WireWriter out = new WireWriter(48);
            new Envelope(Envelope.KIND_CONDITION, definition.name(), name, view.epoch()).writeTo(out);
            out.writeString(condition);
            CONDITION_CODEC.encode(message, out);
            byte[] bytes = out.toByteArray();
            if (!to.equals(self)) {
                messagesSent.increment();
                bytesSent.add(bytes.length);
                peers.sent(to);
            }
            outbox.add(to, bytes);
        }

        @Override
        public void registered(long waiter) {
            ConditionWaiter w = conditionWaiters.get(waiter);
            if (w != null) {
                w.registered();
            }
        }

        @Override
        public boolean wake(long waiter) {
            return wakeWaiter(waiter);
        }
    }

    /** The protocol's effects; called only from the event loop, while the protocol handles an event. */
    private final class Effects implements MutexEffects<M> {

        @Override
        public void send(NodeId to, M message) {
            if (LOG.isTraceEnabled()) {
                LOG.trace("lock '{}' epoch {}: {} -> {}: {}", name, view.epoch(), self, to, message);
            }
            byte[] bytes = encode(message);
            if (!to.equals(self)) {
                messagesSent.increment();
                bytesSent.add(bytes.length);
                peers.sent(to);
            }
            outbox.add(to, bytes);
        }

        @Override
        public void broadcast(M message) {
            if (LOG.isTraceEnabled()) {
                LOG.trace("lock '{}' epoch {}: {} -> all of {}: {}", name, view.epoch(), self, view.members(), message);
            }
            byte[] bytes = encode(message);
            for (NodeId member : view.members()) {
                if (!member.equals(self)) {
                    messagesSent.increment();
                    bytesSent.add(bytes.length);
                    peers.sent(member);
                    outbox.add(member, bytes);
                }
            }
        }

        @Override
        public void granted(long fencingToken) {
            entries.increment();
            epochGrants++; // single writer (the event loop): a volatile read and write, no atomic
            local.onGranted(fencingToken);
        }

        @Override
        public void setTimer(String timer, long delayMillis) {
            protocolTimers.set(timer, delayMillis);
        }

        @Override
        public void cancelTimer(String timer) {
            protocolTimers.cancel(timer);
        }
    }
}
