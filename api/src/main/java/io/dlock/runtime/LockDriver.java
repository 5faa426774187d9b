package io.dlock.runtime;

import io.dlock.LockMetrics;
import io.dlock.condition.ConditionMessage;
import io.dlock.membership.EpochInbox;
import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.MutexProtocol;
import io.dlock.membership.PrimaryGate;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.spi.MalformedMessageException;
import io.dlock.NodeId;
import io.dlock.spi.View;
import io.dlock.spi.WireReader;
import io.dlock.reclaim.LockVote;
import io.dlock.reclaim.PeerCounters;
import io.dlock.runtime.LockWireFormat.BundledMessage;
import io.dlock.runtime.LockWireFormat.Incoming;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives one lock's {@link MutexProtocol} on one node: a serial event loop that feeds it requests,
 * releases, messages, views and timers; the effects that turn its answers into sends, grants and timers;
 * epoch filtering; the lock's send path (every message counted, then kept in the pass's {@link Outbox}, written at
 * the end of the pass); and the lock's counters. Beside it, each with one job: {@link LocalLockState} (the local
 * threads), the node's {@link LockWireFormat} (the messages on the wire), {@link LockConditions} (the lock's
 * conditions), {@link ReclaimFreeze} (the events that wait for a reclamation round's decision) and
 * {@link LockPins} (the pins and the marks of use that reclamation reads).
 *
 * <p><b>Memory.</b> A node may keep the state of a million locks, so a driver is its own event loop (it extends
 * {@link SerialExecutor}, whose queue lives in its fields) and keeps nothing a lock at rest does not need: the
 * outbox exists during a pass, the freeze during a reclamation round, the local threads' state, the conditions,
 * the timers and the facade from their first use; what every lock of the node shares is in one
 * {@link LockDriverContext}.
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
final class LockDriver<M extends ProtocolMessage> extends SerialExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(LockDriver.class);
    /** Messages of future epochs kept at most; beyond that they are dropped and counted as stale. */
    private static final int MAX_EARLY_MESSAGES = 10_000;

    private final String name;
    /** What the node's drivers share. */
    private final LockDriverContext<M> node;
    /**
     * The local threads' state: null until a local thread uses the lock (a node that only takes part in the lock's
     * protocol for others never needs it); made once, by a compare-and-set, by whichever thread uses it first.
     */
    private volatile LocalLockState local;
    /** Why the lock was closed, for a local state made afterwards; null while open. */
    private volatile String closedReason;
    /**
     * The facade handed out for this lock while this driver lives (facades find drivers by name, so an older facade
     * keeps working too); null until asked for (a node that only takes part in the protocol for others never is),
     * then made once by a compare-and-set.
     */
    private volatile RuntimeLock facade;
    /** Pins (see the class comment) and the registry's and the reclamation's marks of use. */
    private final LockPins pins = new LockPins();
    /** The newest view epoch queued to the loop (a cheap check before queuing another). */
    private volatile long viewQueued;
    /** The lock's counters, for its metrics; written on the event loop. */
    private final LockCounts counts = new LockCounts();
    /** Grants since the current view was installed; written on the event loop only, read by any thread. */
    private volatile long epochGrants;

    /** Created while its name was reserved by a reclamation round; set before publication, never changed. */
    private boolean createdFrozen;

    // Loop-confined state.
    private boolean stopped;
    /** While frozen by a reclamation vote (or created frozen): events wait there until the round's decision; else null. */
    private ReclaimFreeze freeze;
    /** The messages of the loop's current pass, per destination, until {@link #afterPass()}; null between passes. */
    private Outbox outbox;
    private final PeerCounters peers = new PeerCounters();
    private View view;
    /** Whether {@link #view} is primary for this node. */
    private boolean primary;
    private PrimaryGate<M> protocol;
    /** What the lock's gate, protocol, inbox and timers call back ({@link Callbacks}): one object for the driver's life. */
    private final Callbacks callbacks = new Callbacks();
    private final EpochInbox<Incoming> inbox = new EpochInbox<>(MAX_EARLY_MESSAGES, callbacks);
    /** The protocol's timers; loop-confined; null while none is set (most locks never set one). */
    private LoopTimers protocolTimers;
    /**
     * The lock's conditions on this node; null until the first use of a condition of the lock here (made once, by
     * a compare-and-set, as a waiting thread may be first).
     */
    private volatile LockConditions conditions;

    private static final VarHandle LOCAL;
    private static final VarHandle CONDITIONS;
    private static final VarHandle FACADE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            LOCAL = lookup.findVarHandle(LockDriver.class, "local", LocalLockState.class);
            CONDITIONS = lookup.findVarHandle(LockDriver.class, "conditions", LockConditions.class);
            FACADE = lookup.findVarHandle(LockDriver.class, "facade", RuntimeLock.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * @param node        what the node's drivers share
     * @param initialView the node's view when the lock is created here
     * @param primary     whether that view is primary for this node
     */
    LockDriver(String name, LockDriverContext<M> node, View initialView, boolean primary) {
        super(node.pool());
        this.name = name;
        this.node = node;
        this.view = initialView;
        this.viewQueued = initialView.epoch();
        this.primary = primary;
        inbox.install(initialView.epoch(), callbacks);
        this.protocol = newProtocol();
        afterPass(); // what the algorithm sent when it was created (nothing runs the loop yet)
    }

    /** The lock's protocol afresh, gated: a new instance of the algorithm in the current view (see {@link Callbacks}). */
    private PrimaryGate<M> newProtocol() {
        return PrimaryGate.create(callbacks, view, false, primary);
    }

    /** What {@code LockService.lock(name)} returns while this driver lives, made at the first call. */
    RuntimeLock facade() {
        RuntimeLock made = facade;
        if (made == null) {
            FACADE.compareAndSet(this, null, node.facades().apply(name));
            made = facade;
        }
        return made;
    }

    /** The local threads' state, made now if no local thread used the lock before. */
    LocalLockState local() {
        LocalLockState made = local;
        return made != null ? made : makeLocal();
    }

    private LocalLockState makeLocal() {
        LocalLockState made = new LocalLockState(name, new LocalSide(), true, node.localHandoff(), node.lease(),
                node.holdExecutors(), node.grantSpin());
        if (!LOCAL.compareAndSet(this, null, made)) {
            return local; // another thread was first
        }
        String reason = closedReason; // a close that did not see this state yet: close it too
        if (reason != null) {
            made.close(reason);
        }
        return made;
    }

    /** The lock's conditions here, made now if none was used before. */
    private LockConditions conditions() {
        LockConditions made = conditions;
        if (made == null) {
            CONDITIONS.compareAndSet(this, null, new LockConditions(self(), () -> view, this::sendCondition));
            made = conditions;
        }
        return made;
    }

    /** The protocol's timers, made at the first one; on the loop. */
    private LoopTimers protocolTimers() {
        if (protocolTimers == null) {
            protocolTimers = new LoopTimers(node.timers(), callbacks);
        }
        return protocolTimers;
    }

    /**
     * On the loop: lets the protocol's timers go once none is set (a timer set later makes them again; a firing of
     * one cancelled meanwhile finds nothing set in the timers it belonged to).
     */
    private void dropTimersIfNoneSet() {
        if (protocolTimers != null && protocolTimers.noneSet()) {
            protocolTimers = null;
        }
    }

    /** On the loop: cancels every timer of the protocol. */
    private void cancelTimers() {
        if (protocolTimers != null) {
            protocolTimers.cancelAll();
        }
    }

    String name() {
        return name;
    }

    /** This node (the transport's address, known once the transport runs). */
    private NodeId self() {
        return node.transport().self();
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
        runOrQueue(() -> {
            unpin();
            runOrHold(event);
        });
    }

    /** On the loop: runs {@code event} now, or keeps it for the decision while frozen. */
    private void runOrHold(Runnable event) {
        if (freeze == null) {
            event.run();
        } else {
            freeze.hold(event);
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
        createdFrozen = true;
        freeze = new ReclaimFreeze();
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
        execute(() -> {
            boolean atRest = !stopped && freeze == null && pins.idle() && pins.unpinned()
                    && view.epoch() == epoch && (local == null || local.idle())
                    && (conditions == null || conditions.atRest()) && protocol.atRest();
            if (atRest) {
                freeze = new ReclaimFreeze();
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
        execute(() -> {
            if (freeze == null) {
                return;
            }
            cancelTimers();
            if (conditions != null) {
                conditions.clear();
            }
            peers.clear();
            epochGrants = 0;
            protocol = newProtocol();
            ReclaimFreeze ended = freeze;
            freeze = null;
            if (ended.nothingHeld() && registry.bury(name, this)) {
                stopped = true;
                buried.accept(this);
                return;
            }
            ended.runHeld();
        });
    }

    /** The round did not reclaim this lock: events that waited are handled now. */
    void thaw() {
        execute(() -> {
            ReclaimFreeze ended = freeze;
            if (ended != null) {
                freeze = null;
                ended.runHeld();
            }
        });
    }

    // ---- conditions (called by RuntimeCondition's threads) ----

    /** Registers a new waiter of condition {@code condition} and queues its await on the event loop. */
    ConditionWaiter conditionAwait(String condition) {
        ConditionWaiter waiter = conditions().register();
        submit(() -> {
            if (stopped) {
                conditions().wake(waiter.id());
            } else {
                conditions().await(condition, waiter.id());
            }
        });
        return waiter;
    }

    /** The waiter's thread stopped waiting without a wake-up (timeout, interrupt). */
    void conditionGiveUp(String condition, ConditionWaiter waiter) {
        conditions().forget(waiter);
        submit(() -> {
            if (!stopped) {
                conditions().giveUp(condition, waiter.id());
            }
        });
    }

    /** A holder signals condition {@code condition}: one waiter anywhere, or all. */
    void conditionSignal(String condition, boolean all) {
        submit(() -> {
            if (!stopped) {
                conditions().signal(condition, all);
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
        LocalLockState used = local;
        if (used != null) {
            used.holdLeaseLapsed();
        }
    }

    /** Fails every waiting thread; the protocol is stopped. */
    void close(String reason) {
        closedReason = reason;
        LocalLockState used = local; // null: a local state made from now on closes itself (see makeLocal)
        if (used != null) {
            used.close(reason);
        }
        execute(() -> {
            stopped = true;
            if (freeze != null) {
                freeze.dropHeld();
            }
            cancelTimers();
            if (conditions != null) {
                conditions.wakeAll(); // they wake, and fail to reacquire: closed
            }
        });
    }

    LockMetrics metrics() {
        LockMetrics.Builder metrics = LockMetrics.builder(node.definition().name()).entries(counts.entries())
                .messagesSent(counts.messagesSent()).bytesSent(counts.bytesSent())
                .messagesReceived(counts.messagesReceived()).malformedDropped(counts.malformedDropped())
                .staleDropped(counts.staleDropped()).epochGrants(epochGrants).framesSent(counts.framesSent());
        LocalLockState used = local;
        if (used != null) {
            metrics.localHandoffs(used.localHandoffs()).acquireWait(used.acquireWaitTimes()).hold(used.holdTimes())
                    .waitingThreads(used.queueLength());
        }
        return metrics.build();
    }

    // ---- the send path (on the loop) ----

    /** A condition's message, in the current view: the same path as the algorithm's. */
    private void sendCondition(NodeId to, String condition, ConditionMessage message) {
        queue(to, node.wire().encodeCondition(name, condition, message, view.epoch()));
    }

    /**
     * The send path of every message: counted (messages, bytes, per-peer sends for the reclamation's census)
     * unless it goes to this node, then kept in the pass's outbox.
     */
    private void queue(NodeId to, byte[] bytes) {
        if (!to.equals(self())) {
            counts.sent(bytes.length);
            peers.sent(to);
        }
        Outbox pass = outbox;
        if (pass == null) {
            pass = new Outbox(node.wire().algorithm(), name);
            outbox = pass;
        }
        pass.add(to, bytes);
    }

    /** Writes what the loop's pass sent: one frame per destination ({@link Outbox}); on the loop, after each pass. */
    @Override
    protected void afterPass() {
        Outbox pass = outbox;
        if (pass != null) {
            outbox = null;
            pass.flush(this::writeFrame);
        }
    }

    private void writeFrame(NodeId to, byte[] frame) {
        if (!to.equals(self())) {
            counts.framed();
        }
        node.transport().send(to, frame);
    }

    // ---- event loop ----

    private void request() {
        if (!stopped) {
            protocol.onRequest();
        }
    }

    /** tryLock(0): enter without a message if the protocol can, else tell the waiting thread at once. */
    private void tryEnterLocally() {
        if (stopped || !node.lease().mayGrant() || !protocol.tryEnterLocally()) {
            local().onLocalTryRefused(); // asked by a local thread: made already
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
        LocalLockState used = local;
        if (!primary && used != null) {
            used.endHandoffs(); // a grant cut off from the majority must not pass to more local holders
        }
        long fencedOutBefore = protocol.fencedOut();
        protocol.onView(newView, primary);
        used = local;
        if (protocol.fencedOut() != fencedOutBefore && used != null) {
            // the gate fenced out this node's grant: the majority side may grant the lock again
            LocalLockState.LostHold lost = used.loseOwnership();
            if (lost != null) {
                node.ownershipLost().accept(lost.toLoss(name, newView.epoch()));
            }
        }
        if (conditions != null) {
            conditions.onView(newView); // wakes every waiter: none is lost with a keeper or a member that left
        }
        inbox.install(newView.epoch(), callbacks); // replays the messages that waited for it
    }

    private void receiveBundle(NodeId from, WireReader in) {
        List<BundledMessage> parts;
        try {
            parts = node.wire().readBundle(name, in);
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
                counts.stale();
            }
            if (LOG.isTraceEnabled()) {
                LOG.trace("lock '{}' epoch {}: {} from {} of epoch {}", name, inbox.epoch(), verdict, from, epoch);
            }
            return;
        }
        if (!from.equals(self())) {
            peers.received(from);
        }
        WireReader in = incoming.in();
        if (incoming.condition()) {
            receiveCondition(from, in);
            return;
        }
        M message;
        try {
            message = node.wire().readMutex(in);
        } catch (MalformedMessageException e) {
            malformed(from, e);
            return;
        }
        counts.received();
        if (LOG.isTraceEnabled()) {
            LOG.trace("lock '{}' epoch {}: {} <- {}: {}", name, view.epoch(), self(), from, message);
        }
        protocol.onMessage(from, message);
    }

    private void receiveCondition(NodeId from, WireReader in) {
        LockWireFormat.ConditionFrame frame;
        try {
            frame = node.wire().readCondition(in);
        } catch (MalformedMessageException e) {
            malformed(from, e);
            return;
        }
        counts.received();
        conditions().receive(from, frame.condition(), frame.message());
    }

    private void malformed(NodeId from, RuntimeException e) {
        counts.malformed();
        if (inbox.firstUnreadable()) {
            LOG.warn("lock '{}': dropped a malformed message from {} ({}); further ones are only counted", name, from,
                    e.getMessage());
        }
    }

    /** What the local threads' state asks of the lock: events on its loop, and lost holds told to the listeners. */
    private final class LocalSide implements LocalLockState.Distributed {

        @Override
        public void request() {
            submit(LockDriver.this::request);
        }

        @Override
        public void release() {
            submit(LockDriver.this::release);
        }

        @Override
        public void releaseAndRequest() {
            submit(LockDriver.this::releaseAndRequest);
        }

        @Override
        public void tryLocally() {
            submit(LockDriver.this::tryEnterLocally);
        }

        @Override
        public void holdLapsed(LocalLockState.LostHold lost) {
            node.ownershipLost().accept(lost.toLoss(name, viewQueued));
        }
    }

    /**
     * What the lock's gate, protocol, inbox and timers call back, on the event loop: the gate's new instances of the
     * algorithm (each in the view given, not idle, fenced above the node's fencing floor as it is then, so an
     * instance made at a rejoin starts above any floor a reclamation raised meanwhile); the protocol's effects
     * (while it handles an event); the inbox's test of a sender (a member of the current view, which is always the
     * view of the inbox's epoch: {@link #installView} sets both) and its replay of held messages; the timers' way
     * back to the loop (held while frozen, like every event). One object for all of them, made once per driver:
     * every live lock has one.
     */
    private final class Callbacks implements PrimaryGate.Host<M>, Predicate<NodeId>, EpochInbox.Replay<Incoming>,
            LoopTimers.Owner {

        @Override
        public void runOnLoop(Runnable timer) {
            execute(() -> runOrHold(timer));
        }

        @Override
        public boolean live() {
            return !stopped;
        }

        @Override
        public void fire(String timer) {
            protocol.onTimer(timer);
            dropTimersIfNoneSet();
        }

        @Override
        public MutexProtocol<M> newInstance(View instanceView, MutexEffects<M> effects, boolean startsIdle) {
            return node.definition().create(new ProtocolContext<>(self(), instanceView, effects, node.options(),
                    startsIdle, node.fencingFloor().getAsLong(), name));
        }

        @Override
        public boolean test(NodeId sender) {
            return view.contains(sender);
        }

        @Override
        public void receive(NodeId from, long epoch, Incoming message) {
            LockDriver.this.receive(from, epoch, message);
        }

        @Override
        public void send(NodeId to, M message) {
            if (LOG.isTraceEnabled()) {
                LOG.trace("lock '{}' epoch {}: {} -> {}: {}", name, view.epoch(), self(), to, message);
            }
            queue(to, node.wire().encode(name, message, view.epoch()));
        }

        @Override
        public void broadcast(M message) {
            if (LOG.isTraceEnabled()) {
                LOG.trace("lock '{}' epoch {}: {} -> all of {}: {}", name, view.epoch(), self(), view.members(),
                        message);
            }
            byte[] bytes = node.wire().encode(name, message, view.epoch());
            for (NodeId member : view.members()) {
                if (!member.equals(self())) {
                    queue(member, bytes);
                }
            }
        }

        @Override
        public void granted(long fencingToken) {
            counts.entered();
            epochGrants++; // single writer (the event loop): a volatile read and write, no atomic
            local().onGranted(fencingToken); // a grant answers a local request, or is released at once
        }

        @Override
        public void setTimer(String timer, long delayMillis) {
            protocolTimers().set(timer, delayMillis);
        }

        @Override
        public void cancelTimer(String timer) {
            if (protocolTimers != null) {
                protocolTimers.cancel(timer);
                dropTimersIfNoneSet();
            }
        }
    }
}
