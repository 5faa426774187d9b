package io.dlock.runtime;

import io.dlock.condition.ConditionMessage;
import io.dlock.condition.ConditionProtocol;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The conditions of one lock on this node: a {@link ConditionProtocol} per condition name used here (created on
 * first use), and this node's waiters, by waiter number, whose threads the protocols wake. The waiters are
 * registered and forgotten by their own threads ({@link #register}, {@link #forget}); everything else runs on
 * the lock's loop, which owns the protocols. The protocols' messages leave through the lock's send path
 * ({@link Outgoing}).
 */
final class LockConditions {

    private final NodeId self;
    /** The lock's current view, read on the loop. */
    private final Supplier<View> view;
    private final Outgoing sender;
    private static final VarHandle WAITERS;
    private static final VarHandle LAST_WAITER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            WAITERS = lookup.findVarHandle(LockConditions.class, "waiters", Map.class);
            LAST_WAITER = lookup.findVarHandle(LockConditions.class, "lastWaiter", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /*
     * Every live lock has its conditions object, and most locks never use a condition, so nothing below is made
     * before the first use.
     */

    /**
     * The waiters of this lock's conditions on this node, by waiter number; the loop wakes them. Null until the
     * first waiter registers (made by a compare-and-set, as waiting threads register concurrently).
     */
    private volatile Map<Long, ConditionWaiter> waiters;
    /** The last waiter number handed out (atomically, through {@link #LAST_WAITER}). */
    private long lastWaiter;
    /** The protocol of each condition of this lock used on this node; loop-confined; null until the first. */
    private Map<String, ConditionProtocol> conditions;

    /** The lock's send path for its conditions' messages (encoded, counted and bundled like its own). */
    @FunctionalInterface
    interface Outgoing {
        /** Sends {@code message} of condition {@code condition} to {@code to}, in the lock's current view. */
        void send(NodeId to, String condition, ConditionMessage message);
    }

    LockConditions(NodeId self, Supplier<View> view, Outgoing sender) {
        this.self = self;
        this.view = view;
        this.sender = sender;
    }

    /** A new waiter, registered for wake-ups (on the waiting thread, before its await is queued). */
    ConditionWaiter register() {
        ConditionWaiter waiter = new ConditionWaiter((long) LAST_WAITER.getAndAdd(this, 1L) + 1);
        Map<Long, ConditionWaiter> registered = waiters;
        if (registered == null) {
            WAITERS.compareAndSet(this, null, new ConcurrentHashMap<Long, ConditionWaiter>());
            registered = waiters;
        }
        registered.put(waiter.id(), waiter);
        return waiter;
    }

    /** The waiter's thread stopped waiting without a wake-up (on that thread). */
    void forget(ConditionWaiter waiter) {
        Map<Long, ConditionWaiter> registered = waiters;
        if (registered != null) {
            registered.remove(waiter.id());
        }
    }

    /** On the loop: {@code waiter} waits on {@code condition}. */
    void await(String condition, long waiter) {
        condition(condition).onAwait(waiter);
    }

    /** On the loop: {@code waiter} gave up waiting on {@code condition}. */
    void giveUp(String condition, long waiter) {
        condition(condition).onGiveUp(waiter);
    }

    /** On the loop: a holder signals {@code condition}, one waiter anywhere or all. */
    void signal(String condition, boolean all) {
        condition(condition).onSignal(all);
    }

    /** On the loop: a message of {@code condition} from {@code from}. */
    void receive(NodeId from, String condition, ConditionMessage message) {
        condition(condition).onMessage(from, message);
    }

    /** On the loop: a new view wakes every waiter, so none is lost with a keeper or a member that left. */
    void onView(View newView) {
        if (conditions == null) {
            return;
        }
        for (ConditionProtocol condition : conditions.values()) {
            condition.onView(newView);
        }
    }

    /** On the loop: no waiter here, and no condition keeps or expects one (what a reclamation vote needs). */
    boolean atRest() {
        Map<Long, ConditionWaiter> registered = waiters;
        if (registered != null && !registered.isEmpty()) {
            return false;
        }
        if (conditions == null) {
            return true;
        }
        for (ConditionProtocol condition : conditions.values()) {
            if (condition.queued() > 0 || condition.localWaiters() > 0) {
                return false;
            }
        }
        return true;
    }

    /** On the loop: forgets every condition's protocol (the lock starts a new incarnation). */
    void clear() {
        conditions = null;
    }

    /** Wakes waiter {@code id}; false if it is gone or was woken already. */
    boolean wake(long id) {
        Map<Long, ConditionWaiter> registered = waiters;
        ConditionWaiter waiter = registered == null ? null : registered.remove(id);
        return waiter != null && waiter.wake();
    }

    /** Wakes every waiter (the node closes: they wake, and fail to reacquire the lock). */
    void wakeAll() {
        Map<Long, ConditionWaiter> registered = waiters;
        if (registered != null) {
            registered.keySet().forEach(this::wake);
        }
    }

    private ConditionProtocol condition(String condition) {
        if (conditions == null) {
            conditions = new HashMap<>(4);
        }
        return conditions.computeIfAbsent(condition, c -> new ConditionProtocol(self, view.get(), new Effects(c)));
    }

    /** A condition protocol's effects; called only from the loop. */
    private final class Effects implements ConditionProtocol.Effects {

        private final String condition;

        Effects(String condition) {
            this.condition = condition;
        }

        @Override
        public void send(NodeId to, ConditionMessage message) {
            sender.send(to, condition, message);
        }

        @Override
        public void registered(long waiter) {
            Map<Long, ConditionWaiter> registered = waiters;
            ConditionWaiter w = registered == null ? null : registered.get(waiter);
            if (w != null) {
                w.registered();
            }
        }

        @Override
        public boolean wake(long waiter) {
            return LockConditions.this.wake(waiter);
        }
    }
}
