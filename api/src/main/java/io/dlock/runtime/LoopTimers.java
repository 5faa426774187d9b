package io.dlock.runtime;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A protocol's named timers ({@code setTimer}/{@code cancelTimer} of its effects) on a serial event
 * loop: setting a name again replaces its timer; a timer fires on the loop, and reaches the protocol
 * only if it is still the one set under its name and the owner is still live. Used by
 * {@code LockDriver} (one per lock) and {@code ElectionDriver} (one per run).
 *
 * <p>Loop-confined: call every method from the owner's loop; the timers' own thread only hands the
 * firing back to the loop. If the scheduler refuses a timer (the node is closing), it is not set.
 *
 * <p><b>Memory.</b> Every live lock may have one, so it keeps two references and, only while a timer is set, a
 * map of the set timers (dropped when the last one fires or is cancelled).
 */
final class LoopTimers {

    /** What the timers' owner gives them. */
    interface Owner {

        /** Queues {@code task} on the owner's serial event loop. */
        void runOnLoop(Runnable task);

        /** Whether the owner still takes events (read on the loop). */
        boolean live();

        /** Timer {@code name} fired (on the loop): the protocol's {@code onTimer}. */
        void fire(String name);
    }

    private final ScheduledExecutorService scheduler;
    private final Owner owner;
    /** Null while no timer is set: most locks never set one, and most timers fire or are cancelled soon. */
    private Map<String, ScheduledFuture<?>> running;

    /**
     * @param scheduler the node's timer thread
     * @param owner     the owner's loop, liveness and protocol
     */
    LoopTimers(ScheduledExecutorService scheduler, Owner owner) {
        this.scheduler = scheduler;
        this.owner = owner;
    }

    /** Sets timer {@code name} to fire after {@code delayMillis}, replacing one of the same name. */
    void set(String name, long delayMillis) {
        cancel(name);
        if (!owner.live()) {
            return;
        }
        ScheduledFuture<?>[] self = new ScheduledFuture<?>[1];
        try {
            // The fire task re-enters the loop, so it runs after this handler has stored the future.
            self[0] = scheduler.schedule(() -> owner.runOnLoop(() -> {
                if (owner.live() && running != null && running.get(name) == self[0]) {
                    forget(name);
                    owner.fire(name);
                }
            }), delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            return; // the node is closing: its timers are shut down and the protocol stops with them
        }
        if (running == null) {
            running = new HashMap<>(4);
        }
        running.put(name, self[0]);
    }

    /** Cancels timer {@code name}, if set. */
    void cancel(String name) {
        ScheduledFuture<?> future = running == null ? null : forget(name);
        if (future != null) {
            future.cancel(false);
        }
    }

    /** Whether no timer is set. */
    boolean noneSet() {
        return running == null;
    }

    /** Cancels every timer. */
    void cancelAll() {
        if (running != null) {
            running.values().forEach(f -> f.cancel(false));
            running = null;
        }
    }

    /** Removes timer {@code name} from the set ones (the map goes with the last); its future, or null. */
    private ScheduledFuture<?> forget(String name) {
        ScheduledFuture<?> future = running.remove(name);
        if (running.isEmpty()) {
            running = null;
        }
        return future;
    }
}
