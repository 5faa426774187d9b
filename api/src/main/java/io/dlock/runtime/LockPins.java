package io.dlock.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What reclamation needs to know about the use of one lock's {@link LockDriver}, kept by the driver and read and
 * written by any thread: its pins and its burial, and the marks the {@link LockRegistry} and the
 * {@link ReclaimDriver} leave on it (idle, last touched, last nominated).
 *
 * <p><b>Pins.</b> Whoever submits an event to the driver pins it first (a facade call, a message delivery); each
 * queued event holds a pin of its own until it runs or is held. So, on the driver's event loop, "no pin and nothing
 * held" means no event of the lock is on its way there, and burying the driver loses nothing. A burial succeeds
 * only with no pin ({@link #tryBury()}) and no pin succeeds after it: a caller whose {@link #pin()} fails looks the
 * name up again and gets a new driver.
 */
final class LockPins {

    /** Pins; -1 once buried. */
    private volatile int pins;
    private static final VarHandle PINS;

    static {
        try {
            PINS = MethodHandles.lookup().findVarHandle(LockPins.class, "pins", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Whether the registry has moved the driver to its idle place (unused here for the idle expiry). */
    private volatile boolean idle;
    /** When the registry last told its cache of a use of the driver ({@link System#nanoTime()}). */
    private volatile long touchedAt;
    /** When the driver was last nominated for reclamation ({@link System#nanoTime()}), 0 if never. */
    private volatile long nominatedAt;

    /** Pins the driver; false if it is buried (look the name up again). */
    boolean pin() {
        while (true) {
            int n = pins;
            if (n < 0) {
                return false;
            }
            if (PINS.compareAndSet(this, n, n + 1)) {
                return true;
            }
        }
    }

    /** Ends a pin taken by {@link #pin()}. */
    void unpin() {
        PINS.getAndAdd(this, -1);
    }

    /** Whether nobody pins the driver now (and it is not buried). */
    boolean unpinned() {
        return pins == 0;
    }

    /** Buries the driver if nobody pins it: no pin succeeds afterwards. */
    boolean tryBury() {
        return PINS.compareAndSet(this, 0, -1);
    }

    /** Whether the driver is buried. */
    boolean buried() {
        return pins < 0;
    }

    /** Whether the registry has marked the driver idle (expired from use). */
    boolean idle() {
        return idle;
    }

    /** The registry moved the driver to its idle place ({@code true}) or back into use. */
    void markIdle(boolean idle) {
        this.idle = idle;
    }

    /** When the registry last told its cache of a use ({@link System#nanoTime()}). */
    long touchedAt() {
        return touchedAt;
    }

    /** The registry told its cache of a use at {@code nanoTime}. */
    void touched(long nanoTime) {
        touchedAt = nanoTime;
    }

    /**
     * When the driver was last nominated for reclamation ({@link System#nanoTime()}), 0 if never or considered since.
     */
    long nominatedAt() {
        return nominatedAt;
    }

    /** The driver was nominated at {@code nanoTime}; 0: a round considered it, it may be nominated again. */
    void nominated(long nanoTime) {
        nominatedAt = nanoTime;
    }
}
