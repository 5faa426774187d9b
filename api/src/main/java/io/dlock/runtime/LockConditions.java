package io.dlock.runtime;

import io.dlock.condition.ConditionMessage;
import io.dlock.condition.ConditionProtocol;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The conditions of one lock on this node: a {@link ConditionProtocol} per condition name used here (created on
 * first use), and this node's waiters, by waiter number, whose threads the protocols wake. The waiters are
 * registered and forgotten by their own threads ({@link #register}, {@link #forget}); everything else runs on
 * the lock's loop, which owns the protocols. The protocols' messages leave through the lock's
 * {@link LockMessageSender}.
 */
final class LockConditions {

    private final NodeId self;
    /** The lock's current view, read on the loop. */
    private final Supplier<View> view;
    private final LockMessageSender<?> sender;
    /** The waiters of this lock's conditions on this node, by waiter number; the loop wakes them. */
    private final Map<Long, ConditionWaiter> waiters = new ConcurrentHashMap<>();
    private final AtomicLong lastWaiter = new AtomicLong();
    /** The protocol of each condition of this lock used on this node; loop-confined. */
    private final Map<String, ConditionProtocol> conditions = new HashMap<>();

    LockConditions(NodeId self, Supplier<View> view, LockMessageSender<?> sender) {
        this.self = self;
        this.view = view;
        this.sender = sender;
    }

    /** A new waiter, registered for wake-ups (on the waiting thread, before its await is queued). */
    ConditionWaiter register() {
        ConditionWaiter waiter = new ConditionWaiter(lastWaiter.incrementAndGet());
        waiters.put(waiter.id(), waiter);
        return waiter;
    }

    /** The waiter's thread stopped waiting without a wake-up (on that thread). */
    void forget(ConditionWaiter waiter) {
        waiters.remove(waiter.id());
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
        for (ConditionProtocol condition : conditions.values()) {
            condition.onView(newView);
        }
    }

    /** On the loop: no waiter here, and no condition keeps or expects one (what a reclamation vote needs). */
    boolean atRest() {
        if (!waiters.isEmpty()) {
            return false;
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
        conditions.clear();
    }

    /** Wakes waiter {@code id}; false if it is gone or was woken already. */
    boolean wake(long id) {
        ConditionWaiter waiter = waiters.remove(id);
        return waiter != null && waiter.wake();
    }

    /** Wakes every waiter (the node closes: they wake, and fail to reacquire the lock). */
    void wakeAll() {
        waiters.keySet().forEach(this::wake);
    }

    private ConditionProtocol condition(String condition) {
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
            sender.sendCondition(to, condition, message, view.get().epoch());
        }

        @Override
        public void registered(long waiter) {
            ConditionWaiter w = waiters.get(waiter);
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
