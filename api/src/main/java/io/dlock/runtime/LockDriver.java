package io.dlock.runtime;

import io.dlock.LockMetrics;
import io.dlock.OwnershipLoss;
import io.dlock.membership.EpochInbox;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.membership.PrimaryGate;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.spi.MalformedMessageException;
import io.dlock.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.View;
import io.dlock.spi.WireReader;
import io.dlock.reclaim.LockVote;
import io.dlock.reclaim.PeerCounters;
import io.dlock.runtime.LockMessageReader.BundledMessage;
import io.dlock.runtime.LockMessageReader.Incoming;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives one lock's {@link MutexProtocol} on one node: a serial event loop that feeds it requests,
 * releases, messages, views and timers; the effects that turn its answers into sends, grants and timers;
 * epoch filtering; and the lock's counters. Beside it, each with one job: {@link LocalLockState} (the local
 * threads), {@link LockMessageSender} and {@link LockMessageReader} (the lock's messages on the wire),
 * {@link LockConditions} (the lock's conditions), {@link ReclaimFreeze} (the events that wait for a
 * reclamation round's decision) and {@link LockPins} (the pins and the marks of use that reclamation reads).
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
 * to {@linkplain #vote vote}: if the lock has been idle here for the expiry ({@link LockPins#markIdle}), nobody pins
 * it, no local thread holds or waits for it, no condition has a waiter and the algorithm says it is at rest,
 * the driver <em>freezes</em>: every event (message, request, view, timer) waits in its {@link ReclaimFreeze}
 * until the decision. {@link #commit} replaces the protocol by a fresh one (a new incarnation, fenced above the node's
 * floor) and, if nothing waits and nobody pins the driver, buries it; {@link #thaw} replays what waited.
 *
 * <p><b>Pins.</b> Whoever submits an event pins the driver (a facade call, a message delivery); each queued
 * event holds a pin of its own until it runs or is held ({@link LockPins} says why burying it then loses nothing).
 *
 * @param <M> the algorithm's message type
 */
final class LockDriver<M extends ProtocolMessage> {

    private static final Logger LOG = LoggerFactory.getLogger(LockDriver.class);
    /** Messages of future epochs kept at most; beyond that they are dropped and counted as stale. */
    private static final int MAX_EARLY_MESSAGES = 10_000;

    private final String name;
    private final MutexProtocolDefinition<M> definition;
    private final NodeId self;
    private final SerialExecutor loop;
    /** The way out of the lock's messages: encodes, counts, and writes them at the end of each pass. */
    private final LockMessageSender<M> sender;
    private final LockMessageReader<M> reader;
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
    /** Pins (see the class comment) and the registry's and the reclamation's marks of use. */
    private final LockPins pins = new LockPins();
    /** The newest view epoch queued to the loop (a cheap check before queuing another). */
    private volatile long viewQueued;
    private final LongAdder entries = new LongAdder();
    private final LongAdder messagesReceived = new LongAdder();
    private final LongAdder malformed = new LongAdder();
    private final LongAdder stale = new LongAdder();
    /** Grants since the current view was installed; written on the event loop only, read by any thread. */
    private volatile long epochGrants;

    // Loop-confined state.
    private boolean stopped;
    /** Frozen by a reclamation vote: events wait there until the round's decision. */
    private final ReclaimFreeze freeze = new ReclaimFreeze();
    private final PeerCounters peers = new PeerCounters();
    private View view;
    /** Whether {@link #view} is primary for this node. */
    private boolean primary;
    private PrimaryGate<M> protocol;
    private final EpochInbox<Incoming> inbox = new EpochInbox<>(MAX_EARLY_MESSAGES, this::receive);
    private final LoopTimers protocolTimers;
    /** The lock's conditions on this node. */
    private final LockConditions conditions;

    /**
     * @param fencingFloor  the node's fencing floor, read whenever the protocol is created
     * @param ownershipLost tells the lock's ownership listeners of a lost hold
     * @param facade        what {@code LockService.lock(name)} returns while this driver lives
     * @param callbacks     the node's event thread: completes asynchronous acquisitions (leases use the timers and
     *                      the pool)
     */
    LockDriver(String name, MutexProtocolDefinition<M> definition, ProtocolOptions options, Transport transport,
               View initialView, boolean primary, Executor pool, ScheduledExecutorService timers,
               int localHandoff, LeaseCheck lease, LongSupplier fencingFloor, Consumer<OwnershipLoss> ownershipLost,
               RuntimeLock facade, Executor callbacks) {
        this.name = name;
        this.facade = facade;
        this.definition = definition;
        this.options = options;
        this.self = transport.self();
        this.sender = new LockMessageSender<>(definition.name(), name, definition.codec(), transport, peers);
        this.reader = new LockMessageReader<>(definition.name(), name, definition.codec());
        this.conditions = new LockConditions(self, () -> view, sender);
        this.loop = new SerialExecutor(pool, sender::flush);
        this.fencingFloor = fencingFloor;
        this.ownershipLost = ownershipLost;
        this.protocolTimers = new LoopTimers(timers, task -> loop.execute(() -> runOrHold(task)), () -> !stopped,
                timer -> protocol.onTimer(timer));
        this.lease = lease;
        this.local = new LocalLockState(name, () -> submit(this::request), () -> submit(this::release),
                () -> submit(this::releaseAndRequest), () -> submit(this::tryEnterLocally), localHandoff, lease,
                lost -> ownershipLost.accept(lost.toLoss(name, viewQueued)),
                new HoldExecutors(callbacks, timers, pool));
        this.view = initialView;
        this.viewQueued = initialView.epoch();
        this.primary = primary;
        inbox.install(initialView.epoch(), initialView::contains);
        this.protocol = newProtocol();
        sender.flush(); // what the algorithm sent when it was created (nothing runs the loop yet)
    }

    /** A fresh instance of the algorithm in the current view, fenced above the node's floor. */
    private PrimaryGate<M> newProtocol() {
        return PrimaryGate.create(definition,
                new ProtocolContext<>(self, view, new Effects(), options, false, fencingFloor.getAsLong(), name),
                primary);
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
        return pins.pin();
    }

    void unpin() {
        pins.unpin();
    }

    /** This driver's pins, burial and marks of use, for the registry and the reclamation. */
    LockPins pins() {
        return pins;
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
        freeze.runOrHold(event);
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
        freeze.freezeUntilDecided();
    }

    /** Whether this driver started frozen ({@link #freezeUntilDecided()}). */
    boolean createdFrozen() {
        return freeze.createdFrozen();
    }

    /**
     * Votes on reclaiming this lock in a round of {@code epoch}, on the loop: at rest (and then frozen) only if
     * it has been idle here for the expiry, nobody pins it, no local thread holds or waits for it, no condition
     * has a waiter, this driver is in {@code epoch}, and the algorithm is at rest.
     */
    void vote(long epoch, Consumer<LockVote> answer) {
        loop.execute(() -> {
            boolean atRest = !stopped && !freeze.frozen() && pins.idle() && pins.unpinned() && freeze.nothingHeld()
                    && view.epoch() == epoch && local.idle() && conditions.atRest() && protocol.atRest();
            if (atRest) {
                freeze.freeze();
                answer.accept(peers.atRestVote(name, protocol.highestFence()));
            } else {
                answer.accept(LockVote.busy(name));
            }
        });
    }

    /**
     * The round committed: the lock's state here is replaced by a fresh instance (fenced above the node's floor,
     * which the caller raised first); then the driver is buried if nothing waits and nobody pins it ({@code
     * buried} is told), else it thaws and goes on as the lock's next incarnation.
     */
    void commit(LockRegistry registry, Consumer<LockDriver<?>> buried) {
        loop.execute(() -> {
            if (!freeze.frozen()) {
                return;
            }
            protocolTimers.cancelAll();
            conditions.clear();
            peers.clear();
            epochGrants = 0;
            protocol = newProtocol();
            freeze.unfreeze();
            if (freeze.nothingHeld() && registry.bury(name, this)) {
                stopped = true;
                buried.accept(this);
                return;
            }
            freeze.thaw();
        });
    }

    /** The round did not reclaim this lock: events that waited are handled now. */
    void thaw() {
        loop.execute(() -> {
            if (freeze.frozen()) {
                freeze.thaw();
            }
        });
    }

    // ---- conditions (called by RuntimeCondition's threads) ----

    /** Registers a new waiter of condition {@code condition} and queues its await on the event loop. */
    ConditionWaiter conditionAwait(String condition) {
        ConditionWaiter waiter = conditions.register();
        submit(() -> {
            if (stopped) {
                conditions.wake(waiter.id());
            } else {
                conditions.await(condition, waiter.id());
            }
        });
        return waiter;
    }

    /** The waiter's thread stopped waiting without a wake-up (timeout, interrupt). */
    void conditionGiveUp(String condition, ConditionWaiter waiter) {
        conditions.forget(waiter);
        submit(() -> {
            if (!stopped) {
                conditions.giveUp(condition, waiter.id());
            }
        });
    }

    /** A holder signals condition {@code condition}: one waiter anywhere, or all. */
    void conditionSignal(String condition, boolean all) {
        submit(() -> {
            if (!stopped) {
                conditions.signal(condition, all);
            }
        });
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
            freeze.dropHeld();
            protocolTimers.cancelAll();
            conditions.wakeAll(); // they wake, and fail to reacquire: closed
        });
    }

    LockMetrics metrics() {
        return LockMetrics.builder(definition.name()).entries(entries.sum()).messagesSent(sender.messagesSent())
                .bytesSent(sender.bytesSent()).messagesReceived(messagesReceived.sum()).malformedDropped(malformed.sum())
                .staleDropped(stale.sum()).localHandoffs(local.localHandoffs()).acquireWait(local.acquireWaitTimes())
                .hold(local.holdTimes()).waitingThreads(local.queueLength()).epochGrants(epochGrants)
                .framesSent(sender.framesSent()).build();
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
                ownershipLost.accept(lost.toLoss(name, newView.epoch()));
            }
        }
        conditions.onView(newView); // wakes every waiter: none is lost with a keeper or a member that left
        inbox.install(newView.epoch(), newView::contains); // replays the messages that waited for it
    }

    private void receiveBundle(NodeId from, WireReader in) {
        List<BundledMessage> parts;
        try {
            parts = reader.readBundle(in);
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
            message = reader.readMutex(in);
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
        LockMessageReader.ConditionFrame frame;
        try {
            frame = reader.readCondition(in);
        } catch (MalformedMessageException e) {
            malformed(from, e);
            return;
        }
        messagesReceived.increment();
        conditions.receive(from, frame.condition(), frame.message());
    }

    private void malformed(NodeId from, RuntimeException e) {
        malformed.increment();
        if (inbox.firstUnreadable()) {
            LOG.warn("lock '{}': dropped a malformed message from {} ({}); further ones are only counted", name, from,
                    e.getMessage());
        }
    }

    /** The protocol's effects; called only from the event loop, while the protocol handles an event. */
    private final class Effects implements MutexEffects<M> {

        @Override
        public void send(NodeId to, M message) {
            if (LOG.isTraceEnabled()) {
                LOG.trace("lock '{}' epoch {}: {} -> {}: {}", name, view.epoch(), self, to, message);
            }
            sender.send(to, message, view.epoch());
        }

        @Override
        public void broadcast(M message) {
            if (LOG.isTraceEnabled()) {
                LOG.trace("lock '{}' epoch {}: {} -> all of {}: {}", name, view.epoch(), self, view.members(), message);
            }
            sender.broadcast(view, message);
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
