package io.dlock.runtime;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * The lock drivers of one node, by name: one map of every live driver, from its creation to its burial, the one
 * authority on whether the node has state for a name. A driver is <em>in use</em> or <em>idle</em>:
 * <ul>
 *   <li>in use: used (locked, unlocked, or a message of it arrived) within the idle expiry;</li>
 *   <li>idle: unused for the expiry, or among the least recently used when more than {@code dlock.lock.max-live}
 *       drivers are in use. An idle driver keeps its state and still works (any use brings it back into use); it
 *       is what the node nominates for reclamation, and the only kind of driver a reclamation round may freeze.
 *       A committed round {@link #bury buries} it.</li>
 * </ul>
 * Becoming idle never drops state on its own: whether the state may go is decided cluster-wide
 * ({@link io.dlock.reclaim.Reclamation}) by the algorithm's own rule
 * ({@link io.dlock.protocol.MutexProtocol#atRest()}). A reclamation vote reads the map only ({@link #peek},
 * {@link #forVote}), never as a use.
 *
 * <p><b>Uses and the sweep.</b> A lookup ({@link #pin}) stamps the driver's last use ({@link LockPins#touched}) at
 * most once per {@code touchEvery} (an eighth of the expiry, at most 100 ms), so a lock in steady use costs one map
 * lookup and a clock read per call. A sweep on the node's timer thread, every eighth of the expiry (at least every
 * second when a size bound is set), marks idle the drivers whose last use is older than the expiry: a driver
 * becomes idle between the expiry and the expiry plus a sweep period and a stamp interval after its last use. Over
 * the size bound, the sweep also marks idle the least recently used drivers in use, down to the bound; a new driver
 * that takes the count over the bound asks for a sweep at once. A sweep reads every driver once: with a million
 * live locks, a few milliseconds of the timer thread per period.
 *
 * <p><b>Memory.</b> Every live lock has one entry here (the map's node and the name) and nothing else: no cache
 * entry, no access-order node. Idle drivers have a second entry, in the map of idle drivers the nomination reads.
 *
 * <p><b>Pins.</b> A caller that uses a driver {@link #pin pins} it first and unpins it after; a driver is
 * buried only when nobody pins it ({@link LockPins#tryBury()}), and a pin on a buried driver fails, so the
 * caller looks the name up again and gets a new driver. A name therefore never has two live drivers on a node.
 */
final class LockRegistry implements AutoCloseable {

    /** The longest interval between two stamps of a driver's use: the size bound's recency is this fine. */
    private static final long MAX_TOUCH_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** The longest sweep period when a size bound is set: a burst of new names is cut down within a second. */
    private static final long MAX_BOUNDED_SWEEP_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long MIN_SWEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final Map<String, LockDriver<?>> drivers = new ConcurrentHashMap<>();
    /** The idle drivers, for nomination (a subset of {@code drivers}). */
    private final Map<String, LockDriver<?>> idle = new ConcurrentHashMap<>();
    /**
     * Names this node voted absent for in an undecided reclamation round. A driver created for one of them
     * meanwhile starts frozen ({@link LockDriver#freezeUntilDecided()}): it belongs to the lock's next
     * incarnation, so it must be created again after the node raised its fencing floor, if the round commits.
     * Reserved and created under the same map bin ({@link ConcurrentHashMap#compute}), so no driver slips between.
     */
    private final Set<String> reserved = ConcurrentHashMap.newKeySet();
    private final Function<String, LockDriver<?>> factory;
    /** The idle expiry; {@link Long#MAX_VALUE}: never idle by time (the expiry is 0, and so is reclamation). */
    private final long expiryNanos;
    /** Drivers in use at most before the least recently used become idle; 0: no bound. */
    private final int maxLive;
    /** How often a lookup stamps a driver's use at most. */
    private final long touchEveryNanos;
    private final ScheduledExecutorService timers;
    /** The periodic sweep; null when nothing ever becomes idle (expiry 0). */
    private final ScheduledFuture<?> sweep;
    /** Whether a sweep asked for by the size bound is queued on the timer thread already. */
    private final AtomicBoolean boundSweepQueued = new AtomicBoolean();

    /**
     * @param idleExpiry how long a driver stays in use without a use; {@link Duration#ZERO}: for ever
     * @param maxLive    how many drivers stay in use at most (the least recently used beyond it become idle at
     *                   once); 0: no bound; ignored when the expiry is 0
     * @param timers     the node's timer thread, which runs the sweep
     * @param factory    creates the driver of a name seen for the first time (or again after a burial)
     */
    LockRegistry(Duration idleExpiry, int maxLive, ScheduledExecutorService timers,
                 Function<String, LockDriver<?>> factory) {
        this.factory = factory;
        this.timers = timers;
        if (idleExpiry.isZero()) {
            this.expiryNanos = Long.MAX_VALUE;
            this.maxLive = 0;
            this.touchEveryNanos = Long.MAX_VALUE;
            this.sweep = null;
            return;
        }
        this.expiryNanos = idleExpiry.toNanos();
        this.maxLive = maxLive;
        this.touchEveryNanos = Math.min(expiryNanos / 8, MAX_TOUCH_EVERY_NANOS);
        long period = Math.max(MIN_SWEEP_NANOS, expiryNanos / 8);
        if (maxLive > 0) {
            period = Math.min(period, MAX_BOUNDED_SWEEP_NANOS);
        }
        this.sweep = timers.scheduleWithFixedDelay(this::sweep, period, period, TimeUnit.NANOSECONDS);
    }

    /**
     * The driver of {@code name}, pinned (the caller must {@link LockDriver#unpin()} it): the one in use, else
     * the idle one (back in use now), else a new one.
     */
    LockDriver<?> pin(String name) {
        LockDriver<?> driver = drivers.get(name);
        if (driver != null && !driver.pins().idle() && driver.pin()) {
            long now = System.nanoTime();
            if (now - driver.pins().touchedAt() > touchEveryNanos) {
                driver.pins().touched(now);
            }
            return driver;
        }
        while (true) {
            boolean[] created = new boolean[1];
            driver = drivers.compute(name, (key, current) -> {
                if (current == null || current.pins().buried()) {
                    created[0] = true;
                    return create(key);
                }
                return current;
            });
            if (driver.pin()) {
                LockPins pins = driver.pins();
                pins.touched(System.nanoTime());
                if (pins.idle()) {
                    pins.markIdle(false); // back into use
                    idle.remove(name, driver);
                }
                if (created[0]) {
                    afterCreation();
                }
                return driver;
            }
            // buried between the lookup and the pin: look again (the compute creates a new driver)
        }
    }

    private LockDriver<?> create(String name) {
        LockDriver<?> driver = factory.apply(name);
        if (reserved.contains(name)) {
            driver.freezeUntilDecided(); // not yet published: no event has reached it
        }
        driver.pins().touched(System.nanoTime());
        return driver;
    }

    /** A new driver that takes the count in use over the size bound asks for a sweep now. */
    private void afterCreation() {
        if (maxLive > 0 && inUse() > maxLive && boundSweepQueued.compareAndSet(false, true)) {
            try {
                timers.execute(() -> {
                    boundSweepQueued.set(false);
                    sweep();
                });
            } catch (RejectedExecutionException e) {
                boundSweepQueued.set(false); // the node is closing
            }
        }
    }

    /** Drivers in use now (live and not idle), as the maps count them. */
    private long inUse() {
        return (long) drivers.size() - idle.size();
    }

    /**
     * Marks idle every driver in use whose last use is older than the expiry, then, over the size bound, the least
     * recently used of the others down to the bound. On the timer thread (or a test's, through {@link #cleanUp()}).
     */
    private synchronized void sweep() {
        long now = System.nanoTime();
        int inUse = 0;
        for (Map.Entry<String, LockDriver<?>> e : drivers.entrySet()) {
            LockPins pins = e.getValue().pins();
            if (pins.idle() || pins.buried()) {
                continue;
            }
            if (now - pins.touchedAt() > expiryNanos) {
                markIdle(e.getKey(), e.getValue());
            } else {
                inUse++;
            }
        }
        if (maxLive > 0 && inUse > maxLive) {
            idleLeastRecentlyUsed(inUse - maxLive);
        }
    }

    /** Marks idle the {@code excess} drivers in use with the oldest last use (a few more when uses tie). */
    private void idleLeastRecentlyUsed(int excess) {
        long[] lastUses = new long[drivers.size() + 16];
        int n = 0;
        for (LockDriver<?> driver : drivers.values()) {
            LockPins pins = driver.pins();
            if (!pins.idle() && !pins.buried() && n < lastUses.length) {
                lastUses[n++] = pins.touchedAt();
            }
        }
        if (n <= excess) {
            return;
        }
        // nanoTime values: compare by difference from the oldest, which sorts correctly across a wrap-around
        long base = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            base = Math.min(base, lastUses[i]);
        }
        for (int i = 0; i < n; i++) {
            lastUses[i] -= base;
        }
        Arrays.sort(lastUses, 0, n);
        long newestIdled = lastUses[excess - 1];
        for (Map.Entry<String, LockDriver<?>> e : drivers.entrySet()) {
            LockPins pins = e.getValue().pins();
            if (!pins.idle() && !pins.buried() && pins.touchedAt() - base <= newestIdled) {
                markIdle(e.getKey(), e.getValue());
            }
        }
    }

    private void markIdle(String name, LockDriver<?> driver) {
        driver.pins().markIdle(true);
        idle.put(name, driver);
        if (driver.pins().buried()) {
            idle.remove(name, driver); // buried meanwhile: its burial may have looked here before the put
        }
    }

    /** The driver of {@code name} if there is one, without creating it and without counting a use. */
    LockDriver<?> peek(String name) {
        return drivers.get(name);
    }

    /**
     * What a reclamation vote finds for {@code name}: the live driver (it votes itself, and refuses unless it
     * is idle); or, with no state here, the name reserved until the round's decision ({@link #unreserve}), so
     * that a driver created meanwhile waits for it; or a name another undecided round reserved already. Not a
     * use.
     */
    VoteTarget forVote(String name) {
        VoteTarget[] found = new VoteTarget[1];
        drivers.compute(name, (key, current) -> {
            if (current != null && !current.pins().buried()) {
                found[0] = VoteTarget.live(current);
            } else {
                found[0] = reserved.add(key) ? VoteTarget.RESERVED : VoteTarget.RESERVED_BEFORE;
            }
            return current;
        });
        return found[0];
    }

    /**
     * Ends the reservation of {@code name} (its round is decided).
     *
     * @return the driver created during the reservation, frozen, for the decision to apply to; null if none
     */
    LockDriver<?> unreserve(String name) {
        LockDriver<?>[] created = new LockDriver<?>[1];
        drivers.compute(name, (key, current) -> {
            if (reserved.remove(key) && current != null && !current.pins().buried() && current.createdFrozen()) {
                created[0] = current;
            }
            return current;
        });
        return created[0];
    }

    /**
     * Removes {@code driver} for good if nobody pins it (see {@link LockPins#tryBury()}).
     *
     * @return whether it was buried
     */
    boolean bury(String name, LockDriver<?> driver) {
        if (!driver.pins().tryBury()) {
            return false;
        }
        drivers.remove(name, driver);
        idle.remove(name, driver);
        return true;
    }

    /** Every live driver. */
    Iterable<LockDriver<?>> all() {
        return drivers.values();
    }

    /** The idle drivers (not buried). */
    Iterable<LockDriver<?>> idleDrivers() {
        return idle.values();
    }

    /** Live drivers (for metrics and tests). */
    long size() {
        return drivers.size();
    }

    /** Sweeps now (tests with a short expiry call it instead of waiting for the timer); nothing with expiry 0. */
    void cleanUp() {
        if (sweep != null) {
            sweep();
        }
    }

    /** Stops the sweep (the node is closing). */
    @Override
    public void close() {
        if (sweep != null) {
            sweep.cancel(false);
        }
    }
}
