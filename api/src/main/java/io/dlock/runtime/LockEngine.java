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
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
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
 * @param <M> the algorithm's message type
 */
final class LockEngine<M extends ProtocolMessage> {

    private static final Logger LOG = LoggerFactory.getLogger(LockEngine.class);
    /** Messages of future epochs kept at most; beyond that they are dropped and counted as stale. */
    private static final int MAX_EARLY_MESSAGES = 10_000;

    private final String name;
    private final MutexProtocolDefinition<M> definition;
    private final MessageCodec<M> codec;
    private final Transport transport;
    private final NodeId self;
    private final SerialExecutor loop;
    private final LocalLockState local;
    private final RuntimeLock facade;
    private final OwnershipListeners ownershipListeners;
    private static final ConditionCodec CONDITION_CODEC = new ConditionCodec();
    /** The waiters of this lock's conditions on this node, by waiter number; the event loop wakes them. */
    private final Map<Long, ConditionWaiter> conditionWaiters = new ConcurrentHashMap<>();
    private final AtomicLong lastWaiter = new AtomicLong();

    private final LongAdder entries = new LongAdder();
    private final LongAdder messagesSent = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder messagesReceived = new LongAdder();
    private final LongAdder malformed = new LongAdder();
    private final LongAdder stale = new LongAdder();
    /** Grants since the current view was installed; written on the event loop only, read by any thread. */
    private volatile long epochGrants;

    // Loop-confined state.
    private boolean stopped;
    private View view;
    private PrimaryGate<M> protocol;
    private final EpochInbox<Incoming> inbox = new EpochInbox<>(MAX_EARLY_MESSAGES, this::receive);
    private final LoopTimers protocolTimers;
    /** The protocol of each condition of this lock used on this node, created on first use. */
    private final Map<String, ConditionProtocol> conditions = new HashMap<>();

    /** A received message, positioned at its payload: the algorithm's, or ({@code condition}) a condition's. */
    private record Incoming(WireReader in, boolean condition) {
    }

    LockEngine(String name, MutexProtocolDefinition<M> definition, ProtocolOptions options, Transport transport,
               View initialView, boolean primary, Executor pool, ScheduledExecutorService timers, Executor events,
               long tryTimeoutNanos, int localHandoff) {
        this.name = name;
        this.definition = definition;
        this.codec = definition.codec();
        this.transport = transport;
        this.self = transport.self();
        this.loop = new SerialExecutor(pool);
        this.protocolTimers = new LoopTimers(timers, loop, () -> !stopped, timer -> protocol.onTimer(timer));
        this.local = new LocalLockState(name, () -> loop.execute(this::request), () -> loop.execute(this::release),
                () -> loop.execute(this::tryEnterLocally), localHandoff);
        this.ownershipListeners = new OwnershipListeners(events);
        this.facade = new RuntimeLock(name, local, this, tryTimeoutNanos);
        this.view = initialView;
        inbox.install(initialView.epoch(), initialView::contains);
        this.protocol = PrimaryGate.create(definition,
                new ProtocolContext<>(self, initialView, new Effects(), options, false), primary);
    }

    RuntimeLock facade() {
        return facade;
    }

    OwnershipListeners ownershipListeners() {
        return ownershipListeners;
    }

    String name() {
        return name;
    }

    /** Queues a message received from the transport; {@code in} is positioned at the algorithm's payload. */
    void deliver(NodeId from, long epoch, byte[] bytes, int offset) {
        loop.execute(() -> receive(from, epoch, new Incoming(new WireReader(bytes, offset, bytes.length - offset), false)));
    }

    /** Queues a message of one of this lock's conditions; {@code offset} is at the condition's name. */
    void deliverCondition(NodeId from, long epoch, byte[] bytes, int offset) {
        loop.execute(() -> receive(from, epoch, new Incoming(new WireReader(bytes, offset, bytes.length - offset), true)));
    }

    // ---- conditions (called by RuntimeCondition's threads) ----

    /** Registers a new waiter of condition {@code condition} and queues its await on the event loop. */
    ConditionWaiter conditionAwait(String condition) {
        ConditionWaiter waiter = new ConditionWaiter(lastWaiter.incrementAndGet());
        conditionWaiters.put(waiter.id(), waiter);
        loop.execute(() -> {
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
        loop.execute(() -> {
            if (!stopped) {
                condition(condition).onGiveUp(waiter.id());
            }
        });
    }

    /** A holder signals condition {@code condition}: one waiter anywhere, or all. */
    void conditionSignal(String condition, boolean all) {
        loop.execute(() -> {
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
        loop.execute(() -> installView(newView, primary));
    }

    /** Queues the election's result for {@code epoch} (see {@link MutexProtocol#onLeader}). */
    void leaderElected(NodeId leader, long epoch) {
        loop.execute(() -> {
            if (!stopped) {
                protocol.onLeader(leader, epoch);
            }
        });
    }

    /** Fails every waiting thread; the protocol is stopped. */
    void close(String reason) {
        local.close(reason);
        loop.execute(() -> {
            stopped = true;
            protocolTimers.cancelAll();
            conditionWaiters.keySet().forEach(this::wakeWaiter); // they wake, and fail to reacquire: closed
        });
    }

    LockMetrics metrics() {
        return LockMetrics.of(definition.name(), entries.sum(), messagesSent.sum(), bytesSent.sum(),
                messagesReceived.sum(), malformed.sum(), stale.sum(), local.localHandoffs(), local.acquireWaitTimes(),
                local.holdTimes(), local.queueLength(), epochGrants);
    }

    long abandonedGrants() {
        return local.abandonedGrants();
    }

    // ---- event loop ----

    private void request() {
        if (!stopped) {
            protocol.onRequest();
        }
    }

    /** tryLock(0): enter without a message if the protocol can, else tell the waiting thread at once. */
    private void tryEnterLocally() {
        if (stopped || !protocol.tryEnterLocally()) {
            local.onLocalTryRefused();
        }
    }

    private void release() {
        if (!stopped) {
            protocol.onRelease();
        }
    }

    private void installView(View newView, boolean primary) {
        if (stopped || newView.epoch() <= view.epoch()) {
            return;
        }
        view = newView;
        epochGrants = 0;
        if (!primary) {
            local.endHandoffs(); // a grant cut off from the majority must not pass to more local holders
        }
        long fencedOutBefore = protocol.fencedOut();
        protocol.onView(newView, primary);
        if (protocol.fencedOut() != fencedOutBefore) {
            // the gate fenced out this node's grant: the majority side may grant the lock again
            LocalLockState.LostHold lost = local.loseOwnership();
            if (lost != null) {
                ownershipListeners.tell(new OwnershipLoss(name, lost.fencingToken(), lost.holder(), newView.epoch()));
            }
        }
        for (ConditionProtocol condition : conditions.values()) {
            condition.onView(newView); // wakes every waiter: none is lost with a keeper or a member that left
        }
        inbox.install(newView.epoch(), newView::contains); // replays the messages that waited for it
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
            return;
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
            messagesSent.increment();
            bytesSent.add(bytes.length);
            transport.send(to, bytes);
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
            byte[] bytes = encode(message);
            if (!to.equals(self)) {
                messagesSent.increment();
                bytesSent.add(bytes.length);
            }
            transport.send(to, bytes);
        }

        @Override
        public void broadcast(M message) {
            byte[] bytes = encode(message);
            for (NodeId member : view.members()) {
                if (!member.equals(self)) {
                    messagesSent.increment();
                    bytesSent.add(bytes.length);
                    transport.send(member, bytes);
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
