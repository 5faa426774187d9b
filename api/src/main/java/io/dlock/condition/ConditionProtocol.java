package io.dlock.condition;

import io.dlock.condition.ConditionMessage.Await;
import io.dlock.condition.ConditionMessage.Cancel;
import io.dlock.condition.ConditionMessage.Declined;
import io.dlock.condition.ConditionMessage.Registered;
import io.dlock.condition.ConditionMessage.Signal;
import io.dlock.condition.ConditionMessage.Wake;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One condition of one distributed lock on one node: the protocol behind
 * {@link io.dlock.DistributedLock#newCondition()}. It works beside any mutual-exclusion algorithm, because
 * it relies only on what every one of them gives: {@code await} and {@code signal} are called by a thread
 * that holds the lock.
 *
 * <h2>Source and semantics</h2>
 * A monitor condition with Mesa semantics (B. W. Lampson and D. D. Redell, "Experience with processes
 * and monitors in Mesa", CACM 23(2), 1980): a signal is a hint, the woken thread reacquires the lock
 * and must check its predicate again, and spurious wake-ups may happen; exactly what
 * {@link java.util.concurrent.locks.Condition} allows. The waiter set is kept by one node, as JGroups'
 * old {@code LockService} kept it at its coordinator.
 *
 * <h2>Protocol</h2>
 * <ul>
 *   <li>The <em>keeper</em> is the lowest member of the current view. It keeps the queue of waiters,
 *       in the order they were queued.</li>
 *   <li>await: the waiter's node sends AWAIT to the keeper, which queues the waiter and answers
 *       REGISTERED; only then ({@link Effects#registered}) does the waiter release the lock. So every
 *       signal from a later holder of the lock reaches the keeper after the waiter is queued: no
 *       wake-up is lost between "decided to wait" and "waiting".</li>
 *   <li>signal / signalAll: the holder's node sends SIGNAL to the keeper, which takes the first waiter
 *       (or all) out of the queue and sends each WAKE; the waiter's node wakes it
 *       ({@link Effects#wake}), and the waiter reacquires the lock before its await returns.</li>
 *   <li>A waiter that gives up (timeout, interrupt) sends CANCEL. If a WAKE crossed it, the waiter's
 *       node answers DECLINED and the keeper passes the signal on to the next waiter: a signal is not
 *       lost on a waiter that left while others wait.</li>
 *   <li><b>View change.</b> Every waiter on every node is woken (a spurious wake-up), and every keeper
 *       forgets its queue. Waiters of a node that left are thereby forgotten, a signal that was in flight
 *       to or from a node that left cannot be lost (everybody woke), and a new keeper starts with an
 *       empty queue, which the woken waiters fill again when they wait again. Messages of an older epoch
 *       never reach the protocol (the runtime drops them).</li>
 * </ul>
 * A keeper that is the waiter's or the signaller's own node sends nothing to itself.
 *
 * <h2>Assumptions</h2>
 * Reliable delivery within a view (dlock's transports), no FIFO needed: the only ordering the
 * protocol needs (AWAIT queued before a later holder's SIGNAL) comes from waiting for REGISTERED
 * while holding the lock.
 *
 * <h2>Message complexity</h2>
 * await: 2 messages (AWAIT, REGISTERED), 0 if this node is the keeper. signal: 1 (SIGNAL), 0 from the
 * keeper, plus 1 WAKE per woken waiter on another node than the keeper. A cancel: 1; a crossed
 * cancel: 1 more (DECLINED).
 *
 * <p>Pure: no threads, clocks or I/O; it acts only through its {@link Effects}. Not thread-safe: used from
 * the lock's event loop only.
 */
public final class ConditionProtocol {

    /** What the protocol asks of the runtime (or of the simulator). */
    public interface Effects {

        /** Sends {@code message} to {@code to} (never this node). */
        void send(NodeId to, ConditionMessage message);

        /** Local {@code waiter} is queued at the keeper: its thread may release the lock and wait. */
        void registered(long waiter);

        /**
         * Local {@code waiter} is woken: its thread reacquires the lock and returns from await. Also
         * called for a waiter not yet registered (a view changed first, or its WAKE overtook its
         * REGISTERED): its thread has not released the lock and returns at once.
         *
         * @return false if the waiter's thread has already given up (its timeout or interrupt won the
         *         race with this wake-up): the protocol then passes the signal on, as if the waiter had
         *         declined it
         */
        boolean wake(long waiter);
    }

    /** A waiter in the keeper's queue. */
    private record Queued(NodeId node, long waiter) {
    }

    private final NodeId self;
    private final Effects effects;
    private View view;
    private NodeId keeper;
    /** Keeper only: the waiters in the order they were queued. */
    private final ArrayDeque<Queued> queue = new ArrayDeque<>();
    /** Local waiters that sent AWAIT and wait for REGISTERED. */
    private final Set<Long> registering = new LinkedHashSet<>();
    /** Local waiters registered at the keeper and not woken yet. */
    private final Set<Long> waiting = new LinkedHashSet<>();

    /**
     * @param self    this node, a member of {@code view}
     * @param view    the current view
     * @param effects where the protocol's answers go
     */
    public ConditionProtocol(NodeId self, View view, Effects effects) {
        this.self = Objects.requireNonNull(self, "self");
        this.effects = Objects.requireNonNull(effects, "effects");
        install(view);
    }

    /** The keeper of the current view. */
    public NodeId keeper() {
        return keeper;
    }

    /** How many waiters this node's keeper queue holds (0 on a node that is not the keeper). */
    public int queued() {
        return queue.size();
    }

    /** How many local waiters are registering or waiting. */
    public int localWaiters() {
        return registering.size() + waiting.size();
    }

    /**
     * A local thread that holds the lock begins to wait as {@code waiter} (a number unique on this node).
     *
     * @throws IllegalArgumentException if {@code waiter} is below 1 or already waiting
     */
    public void onAwait(long waiter) {
        if (waiter < 1 || registering.contains(waiter) || waiting.contains(waiter)) {
            throw new IllegalArgumentException("waiter must be a new number >= 1, got " + waiter);
        }
        if (keeper.equals(self)) {
            queue.add(new Queued(self, waiter));
            waiting.add(waiter);
            effects.registered(waiter);
        } else {
            registering.add(waiter);
            effects.send(keeper, new Await(waiter));
        }
    }

    /**
     * Local {@code waiter} gives up (timeout, interrupt) before it was woken. Nothing happens for a waiter
     * that is not waiting (already woken, or never registered).
     */
    public void onGiveUp(long waiter) {
        if (!waiting.remove(waiter)) {
            return;
        }
        if (keeper.equals(self)) {
            queue.remove(new Queued(self, waiter));
        } else {
            effects.send(keeper, new Cancel(waiter));
        }
    }

    /** A local thread that holds the lock signals one waiter, or all if {@code all}. */
    public void onSignal(boolean all) {
        if (keeper.equals(self)) {
            signal(all);
        } else {
            effects.send(keeper, new Signal(all));
        }
    }

    /** A message from {@code from}, of the current epoch. */
    public void onMessage(NodeId from, ConditionMessage message) {
        Objects.requireNonNull(from, "from");
        if (message instanceof Await a) {
            if (keeper.equals(self) && view.contains(from)) {
                queue.add(new Queued(from, a.waiter()));
                effects.send(from, new Registered(a.waiter()));
            }
        } else if (message instanceof Registered r) {
            if (registering.remove(r.waiter())) {
                waiting.add(r.waiter());
                effects.registered(r.waiter());
            }
        } else if (message instanceof Cancel c) {
            queue.remove(new Queued(from, c.waiter()));
        } else if (message instanceof Signal s) {
            if (keeper.equals(self)) {
                signal(s.all());
            }
        } else if (message instanceof Wake w) {
            wakeLocal(w.waiter());
        } else if (message instanceof Declined) {
            if (keeper.equals(self)) {
                signal(false);
            }
        }
    }

    /**
     * A new view: every local waiter is woken (registering ones too), the keeper's queue is forgotten, and
     * the keeper is the new view's lowest member.
     */
    public void onView(View newView) {
        List<Long> woken = new ArrayList<>(registering);
        woken.addAll(waiting);
        registering.clear();
        waiting.clear();
        queue.clear();
        install(newView);
        for (long waiter : woken) {
            effects.wake(waiter); // one that already gave up declines: no signal to pass on, the queue is gone
        }
    }

    private void install(View newView) {
        Objects.requireNonNull(newView, "view");
        if (!newView.contains(self)) {
            throw new IllegalArgumentException("node " + self + " is not a member of its view " + newView.members());
        }
        view = newView;
        keeper = newView.members().get(0);
    }

    /** Keeper: wakes the first queued waiter, or every one. */
    private void signal(boolean all) {
        do {
            Queued next = queue.poll();
            if (next == null) {
                return;
            }
            if (next.node().equals(self)) {
                wakeLocal(next.waiter());
            } else {
                effects.send(next.node(), new Wake(next.waiter()));
            }
        } while (all);
    }

    /**
     * Wakes a local waiter; one that already gave up declines, and the keeper passes the signal on. A WAKE
     * may overtake its waiter's REGISTERED (channels need not be FIFO; the keeper signals it on a DECLINED
     * that arrives between the two): that waiter still holds the lock and is woken at once, as on a view
     * change, and its late REGISTERED is ignored. Declining it instead would lose it: out of the keeper's
     * queue, yet waiting once REGISTERED arrives.
     */
    private void wakeLocal(long waiter) {
        if ((waiting.remove(waiter) || registering.remove(waiter)) && effects.wake(waiter)) {
            return;
        }
        if (keeper.equals(self)) {
            signal(false);
        } else {
            effects.send(keeper, new Declined(waiter));
        }
    }

    @Override
    public String toString() {
        return "ConditionProtocol[" + self + ", keeper " + keeper + ", queued " + queue.size() + ", registering "
                + registering + ", waiting " + waiting + "]";
    }
}
