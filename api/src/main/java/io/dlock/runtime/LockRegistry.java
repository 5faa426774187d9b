package io.dlock.runtime;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;

/**
 * The lock drivers of one node, by name:
 * <ul>
 *   <li>{@code drivers}: every live driver, from its creation to its burial, the one authority on whether the
 *       node has state for a name;</li>
 *   <li>{@code inUse}: a Caffeine cache of the same drivers, whose entries expire after the idle expiry without
 *       an access (every lock, unlock and message of the lock is one), and which holds at most
 *       {@code dlock.lock.max-live} drivers (Caffeine evicts the least used first, by frequency and recency).
 *       Caffeine keeps the access order and expires on the node's timer thread. An expired or evicted driver is
 *       <em>idle</em>: it keeps its state and still
 *       works (any access brings it back into use); it is what the node nominates for reclamation, and the only
 *       kind of driver a reclamation round may freeze. A committed round {@link #bury buries} it.</li>
 * </ul>
 * The cache never drops state on its own: expiry only marks a driver idle; whether its state may go is decided
 * cluster-wide ({@link io.dlock.reclaim.Reclamation}) by the algorithm's own rule
 * ({@link io.dlock.protocol.MutexProtocol#atRest()}). A reclamation vote reads {@code drivers} only, never the
 * cache, so that voting does not count as a use.
 *
 * <p><b>Uses.</b> A lookup of a driver in use reads the map of live drivers and tells the cache of the use at
 * most once per eighth of the expiry, so a driver expires between 7/8 of the expiry and the expiry after its
 * last use. An idle driver is brought back into use through the cache.
 *
 * <p><b>Pins.</b> A caller that uses a driver {@link #pin pins} it first and unpins it after; a driver is
 * buried only when nobody pins it ({@link LockPins#tryBury()}), and a pin on a buried driver fails, so the
 * caller looks the name up again and gets a new driver. A name therefore never has two live drivers on a node.
 */
final class LockRegistry {

    private final Map<String, LockDriver<?>> drivers = new ConcurrentHashMap<>();
    private final Cache<String, LockDriver<?>> inUse;
    /** The drivers that expired from use, for nomination (a subset of {@code drivers}). */
    private final Map<String, LockDriver<?>> idle = new ConcurrentHashMap<>();
    /**
     * Names this node voted absent for in an undecided reclamation round. A driver created for one of them
     * meanwhile starts frozen ({@link LockDriver#freezeUntilDecided()}): it belongs to the lock's next
     * incarnation, so it must be created again after the node raised its fencing floor, if the round commits.
     * Reserved and created under the same map bin ({@link ConcurrentHashMap#compute}), so no driver slips between.
     */
    private final Set<String> reserved = ConcurrentHashMap.newKeySet();
    private final Function<String, LockDriver<?>> factory;
    /**
     * The hot path tells the cache of a use at most this often per driver (an eighth of the expiry): a lock in
     * steady use costs one map lookup per call, not a cache read, and still never expires.
     */
    private final long touchEveryNanos;

    /**
     * @param idleExpiry how long a driver stays in use without an access; {@link Duration#ZERO}: for ever
     * @param maxLive    how many drivers stay in use at most (Caffeine's size bound, by frequency and recency of
     *                   use); the ones evicted become idle at once; 0: no bound
     * @param timers     the node's timer thread, on which Caffeine expires entries
     * @param pool       where Caffeine does its maintenance
     * @param factory    creates the driver of a name seen for the first time (or again after a burial)
     */
    LockRegistry(Duration idleExpiry, int maxLive, ScheduledExecutorService timers, Executor pool,
                 Function<String, LockDriver<?>> factory) {
        this.factory = factory;
        this.touchEveryNanos = idleExpiry.isZero() ? Long.MAX_VALUE : idleExpiry.toNanos() / 8;
        Caffeine<Object, Object> builder = Caffeine.newBuilder().executor(pool);
        if (!idleExpiry.isZero()) {
            builder.expireAfterAccess(idleExpiry).scheduler(Scheduler.forScheduledExecutorService(timers));
            if (maxLive > 0) {
                builder.maximumSize(maxLive);
            }
        }
        this.inUse = builder.<String, LockDriver<?>>evictionListener((name, driver, cause) -> {
            if ((cause == RemovalCause.EXPIRED || cause == RemovalCause.SIZE) && name != null && driver != null
                    && !driver.pins().buried()) {
                driver.pins().markIdle(true);
                idle.put(name, driver);
            }
        }).build();
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
                inUse.getIfPresent(name); // a use, for the cache's expiry; at most once per touch interval
            }
            return driver;
        }
        while (true) {
            driver = inUse.get(name, this::toUse);
            if (driver.pin()) {
                driver.pins().touched(System.nanoTime());
                return driver;
            }
            inUse.asMap().remove(name, driver); // buried between the lookup and the pin: look again
        }
    }

    /** Caffeine's loader: the node's driver of {@code name} (created if it has none) goes back into use. */
    private LockDriver<?> toUse(String name) {
        LockDriver<?> driver = drivers.compute(name, (key, current) ->
                current == null || current.pins().buried() ? create(key) : current);
        if (idle.remove(name, driver)) {
            driver.pins().markIdle(false);
        }
        return driver;
    }

    private LockDriver<?> create(String name) {
        LockDriver<?> driver = factory.apply(name);
        if (reserved.contains(name)) {
            driver.freezeUntilDecided(); // not yet published: no event has reached it
        }
        return driver;
    }

    /** The driver of {@code name} if there is one, without creating it and without counting an access. */
    LockDriver<?> peek(String name) {
        return drivers.get(name);
    }

    /**
     * What a reclamation vote finds for {@code name}: the live driver (it votes itself, and refuses unless it
     * is idle); or, with no state here, the name reserved until the round's decision ({@link #unreserve}), so
     * that a driver created meanwhile waits for it; or a name another undecided round reserved already. Not an
     * access.
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
        inUse.asMap().remove(name, driver);
        return true;
    }

    /** Every live driver. */
    Iterable<LockDriver<?>> all() {
        return drivers.values();
    }

    /** The idle drivers (expired from use, not buried). */
    Iterable<LockDriver<?>> idleDrivers() {
        return idle.values();
    }

    /** Live drivers (for metrics and tests). */
    long size() {
        return drivers.size();
    }

    /** Lets Caffeine expire what is due now (tests with a short expiry call it instead of waiting for the timer). */
    void cleanUp() {
        inUse.cleanUp();
    }
}
