package io.dlock.runtime;

import io.dlock.LockMetrics;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives one lock's {@link MutexProtocol} on one node: a serial event loop that feeds it requests,
 * releases, messages, views and timers; the effects that turn its answers into transport sends, grants
 * and timers; epoch filtering; and the lock's counters.
 *
 * <p>Every protocol call happens on the event loop, one at a time. Messages of an older epoch are
 * dropped; messages of a newer epoch (the sender installed the view first) wait until this node
 * installs that view.
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
    private final ScheduledExecutorService timers;
    private final LocalLockState local;
    private final RuntimeLock facade;
    private final Map<String, PendingTimer> runningTimers = new HashMap<>();
    private final List<Early> early = new ArrayList<>();

    private final LongAdder entries = new LongAdder();
    private final LongAdder messagesSent = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder messagesReceived = new LongAdder();
    private final LongAdder malformed = new LongAdder();
    private final LongAdder stale = new LongAdder();
    private boolean malformedLogged;

    // Loop-confined state.
    private boolean stopped;
    private View view;
    private PrimaryGate<M> protocol;

    /** A timer set by the protocol; its identity tells a fired timer from a superseded one. */
    private static final class PendingTimer {
        private ScheduledFuture<?> future;
    }

    /** A message that arrived before this node installed its epoch's view. */
    private record Early(NodeId from, long epoch, byte[] bytes, int offset) {
    }

    LockEngine(String name, MutexProtocolDefinition<M> definition, ProtocolOptions options, Transport transport,
               View initialView, boolean primary, Executor pool, ScheduledExecutorService timers,
               long tryTimeoutNanos, int localHandoff) {
        this.name = name;
        this.definition = definition;
        this.codec = definition.codec();
        this.transport = transport;
        this.self = transport.self();
        this.loop = new SerialExecutor(pool);
        this.timers = timers;
        this.local = new LocalLockState(() -> loop.execute(this::request), () -> loop.execute(this::release),
                localHandoff);
        this.facade = new RuntimeLock(name, local, this, tryTimeoutNanos);
        this.view = initialView;
        this.protocol = PrimaryGate.create(definition,
                new ProtocolContext<>(self, initialView, new Effects(), options, false), primary);
    }

    RuntimeLock facade() {
        return facade;
    }

    String name() {
        return name;
    }

    /** Queues a message received from the transport; {@code in} is positioned at the algorithm's payload. */
    void deliver(NodeId from, long epoch, byte[] bytes, int offset) {
        loop.execute(() -> receive(from, epoch, bytes, offset));
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
            runningTimers.values().forEach(t -> t.future.cancel(false));
            runningTimers.clear();
        });
    }

    LockMetrics metrics() {
        return LockMetrics.of(definition.name(), entries.sum(), messagesSent.sum(), bytesSent.sum(),
                messagesReceived.sum(), malformed.sum(), stale.sum(), local.localHandoffs());
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
        if (!primary) {
            local.endHandoffs(); // a grant cut off from the majority must not pass to more local holders
        }
        protocol.onView(newView, primary);
        Iterator<Early> it = early.iterator();
        List<Early> due = new ArrayList<>();
        while (it.hasNext()) {
            Early e = it.next();
            if (e.epoch <= newView.epoch()) {
                it.remove();
                due.add(e);
            }
        }
        for (Early e : due) {
            receive(e.from, e.epoch, e.bytes, e.offset);
        }
    }

    private void receive(NodeId from, long epoch, byte[] bytes, int offset) {
        if (stopped) {
            return;
        }
        if (epoch < view.epoch() || (epoch == view.epoch() && !view.contains(from))) {
            stale.increment();
            return;
        }
        if (epoch > view.epoch()) {
            if (early.size() >= MAX_EARLY_MESSAGES) {
                stale.increment();
            } else {
                early.add(new Early(from, epoch, bytes, offset));
            }
            return;
        }
        M message;
        try {
            WireReader in = new WireReader(bytes, offset, bytes.length - offset);
            message = codec.decode(in);
            in.expectEnd();
        } catch (MalformedMessageException e) {
            malformed(from, e);
            return;
        }
        messagesReceived.increment();
        protocol.onMessage(from, message);
    }

    void malformed(NodeId from, RuntimeException e) {
        malformed.increment();
        if (!malformedLogged) {
            malformedLogged = true;
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

    private void fireTimer(String timer, PendingTimer pending) {
        loop.execute(() -> {
            if (!stopped && runningTimers.get(timer) == pending) {
                runningTimers.remove(timer);
                protocol.onTimer(timer);
            }
        });
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
            local.onGranted(fencingToken);
        }

        @Override
        public void setTimer(String timer, long delayMillis) {
            cancelTimer(timer);
            PendingTimer pending = new PendingTimer();
            try {
                // The fire task re-enters the loop, so it runs after this handler has stored the future.
                pending.future = timers.schedule(() -> fireTimer(timer, pending), delayMillis, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                return; // the node is closing: its timers are shut down and the protocol stops with them
            }
            runningTimers.put(timer, pending);
        }

        @Override
        public void cancelTimer(String timer) {
            PendingTimer pending = runningTimers.remove(timer);
            if (pending != null) {
                pending.future.cancel(false);
            }
        }
    }
}
