package io.dlock.runtime;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A protocol's named timers ({@code setTimer}/{@code cancelTimer} of its effects) on a serial event
 * loop: setting a name again replaces its timer; a timer fires on the loop, and reaches the protocol
 * only if it is still the one set under its name and the owner is still live. Used by
 * {@code LockDriver} (one per lock) and {@code ElectionDriver} (one per run).
 *
 * <p>Loop-confined: call every method from the owner's loop; the timers' own thread only hands the
 * firing back to the loop. If the scheduler refuses a timer (the node is closing), it is not set.
 */
final class LoopTimers {

    private final ScheduledExecutorService scheduler;
    private final Executor loop;
    private final BooleanSupplier live;
    private final Consumer<String> fire;
    /** Null until the first timer: most locks never set one. */
    private Map<String, ScheduledFuture<?>> running;

    /**
     * @param scheduler the node's timer thread
     * @param loop      the owner's serial event loop
     * @param live      whether the owner still takes events (read on the loop)
     * @param fire      the protocol's {@code onTimer}, called on the loop
     */
    LoopTimers(ScheduledExecutorService scheduler, Executor loop, BooleanSupplier live, Consumer<String> fire) {
        this.scheduler = scheduler;
        this.loop = loop;
        this.live = live;
        this.fire = fire;
    }

    /** Sets timer {@code name} to fire after {@code delayMillis}, replacing one of the same name. */
    void set(String name, long delayMillis) {
        cancel(name);
        if (!live.getAsBoolean()) {
            return;
        }
        ScheduledFuture<?>[] self = new ScheduledFuture<?>[1];
        try {
            // The fire task re-enters the loop, so it runs after this handler has stored the future.
            self[0] = scheduler.schedule(() -> loop.execute(() -> {
                if (live.getAsBoolean() && running != null && running.get(name) == self[0]) {
                    running.remove(name);
                    fire.accept(name);
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
        ScheduledFuture<?> future = running == null ? null : running.remove(name);
        if (future != null) {
            future.cancel(false);
        }
    }

    /** Cancels every timer. */
    void cancelAll() {
        if (running != null) {
            running.values().forEach(f -> f.cancel(false));
            running = null;
        }
    }
}
