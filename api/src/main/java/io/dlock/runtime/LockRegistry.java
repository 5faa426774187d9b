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
 * The lock engines of one node, by name:
 * <ul>
 *   <li>{@code engines}: every live engine, from its creation to its burial, the one authority on whether the
 *       node has state for a name;</li>
 *   <li>{@code inUse}: a Caffeine cache of the same engines, whose entries expire after the idle expiry without
 *       an access (every lock, unlock and message of the lock is one), and which holds at most
 *       {@code dlock.lock.max-live} engines (Caffeine evicts the least used first, by frequency and recency).
 *       Caffeine keeps the access order and expires on the node's timer thread. An expired or evicted engine is
 *       <em>idle</em>: it keeps its state and still
 *       works (any access brings it back into use); it is what the node nominates for reclamation, and the only
 *       kind of engine a reclamation round may freeze. A committed round {@link #bury buries} it.</li>
 * </ul>
 * The cache never drops state on its own: expiry only marks an engine idle; whether its state may go is decided
 * cluster-wide ({@link io.dlock.reclaim.Reclamation}) by the algorithm's own rule
 * ({@link io.dlock.protocol.MutexProtocol#atRest()}). A reclamation vote reads {@code engines} only, never the
 * cache, so that voting does not count as a use.
 *
 * <p><b>Uses.</b> A lookup of an engine in use reads the map of live engines and tells the cache of the use at
 * most once per eighth of the expiry, so an engine expires between 7/8 of the expiry and the expiry after its
 * last use. An idle engine is brought back into use through the cache.
 *
 * <p><b>Pins.</b> A caller that uses an engine {@link #pin pins} it first and unpins it after; an engine is
 * buried only when nobody pins it ({@link LockEngine#tryBury()}), and a pin on a buried engine fails, so the
 * caller looks the name up again and gets a new engine. A name therefore never has two live engines on a node.
 */
final class LockRegistry {

    private final Map<String, LockEngine<?>> engines = new ConcurrentHashMap<>();
    private final Cache<String, LockEngine<?>> inUse;
    /** The engines that expired from use, for nomination (a subset of {@code engines}). */
    private final Map<String, LockEngine<?>> idle = new ConcurrentHashMap<>();
    /**
     * Names this node voted absent for in an undecided reclamation round. An engine created for one of them
     * meanwhile starts frozen ({@link LockEngine#freezeUntilDecided()}): it belongs to the lock's next
     * incarnation, so it must be created again after the node raised its fencing floor, if the round commits.
     * Reserved and created under the same map bin ({@link ConcurrentHashMap#compute}), so no engine slips between.
     */
    private final Set<String> reserved = ConcurrentHashMap.newKeySet();
    private final Function<String, LockEngine<?>> factory;
    /**
     * The hot path tells the cache of a use at most this often per engine (an eighth of the expiry): a lock in
     * steady use costs one map lookup per call, not a cache read, and still never expires.
     */
    private final long touchEveryNanos;

    /**
     * @param idleExpiry how long an engine stays in use without an access; {@link Duration#ZERO}: for ever
     * @param maxLive    how many engines stay in use at most (Caffeine's size bound, by frequency and recency of
     *                   use); the ones evicted become idle at once; 0: no bound
     * @param timers     the node's timer thread, on which Caffeine expires entries
     * @param pool       where Caffeine does its maintenance
     * @param factory    creates the engine of a name seen for the first time (or again after a burial)
     */
    LockRegistry(Duration idleExpiry, int maxLive, ScheduledExecutorService timers, Executor pool,
                 Function<String, LockEngine<?>> factory) {
        this.factory = factory;
        this.touchEveryNanos = idleExpiry.isZero() ? Long.MAX_VALUE : idleExpiry.toNanos() / 8;
        Caffeine<Object, Object> builder = Caffeine.newBuilder().executor(pool);
        if (!idleExpiry.isZero()) {
            builder.expireAfterAccess(idleExpiry).scheduler(Scheduler.forScheduledExecutorService(timers));
            if (maxLive > 0) {
                builder.maximumSize(maxLive);
            }
        }
        this.inUse = builder.<String, LockEngine<?>>evictionListener((name, engine, cause) -> {
            if ((cause == RemovalCause.EXPIRED || cause == RemovalCause.SIZE) && name != null && engine != null
                    && !engine.buried()) {
                engine.markIdle(true);
                idle.put(name, engine);
            }
        }).build();
    }

    /**
     * The engine of {@code name}, pinned (the caller must {@link LockEngine#unpin()} it): the one in use, else
     * the idle one (back in use now), else a new one.
     */
    LockEngine<?> pin(String name) {
        LockEngine<?> engine = engines.get(name);
        if (engine != null && !engine.idle() && engine.pin()) {
            long now = System.nanoTime();
            if (now - engine.touchedAt() > touchEveryNanos) {
                engine.touched(now);
                inUse.getIfPresent(name); // a use, for the cache's expiry; at most once per touch interval
            }
            return engine;
        }
        while (true) {
            engine = inUse.get(name, this::toUse);
            if (engine.pin()) {
                engine.touched(System.nanoTime());
                return engine;
            }
            inUse.asMap().remove(name, engine); // buried between the lookup and the pin: look again
        }
    }

    /** Caffeine's loader: the node's engine of {@code name} (created if it has none) goes back into use. */
    private LockEngine<?> toUse(String name) {
        LockEngine<?> engine = engines.compute(name, (key, current) ->
                current == null || current.buried() ? create(key) : current);
        if (idle.remove(name, engine)) {
            engine.markIdle(false);
        }
        return engine;
    }

    private LockEngine<?> create(String name) {
        LockEngine<?> engine = factory.apply(name);
        if (reserved.contains(name)) {
            engine.freezeUntilDecided(); // not yet published: no event has reached it
        }
        return engine;
    }

    /** The engine of {@code name} if there is one, without creating it and without counting an access. */
    LockEngine<?> peek(String name) {
        return engines.get(name);
    }

    /**
     * What a reclamation vote finds for {@code name}: the live engine (it votes itself, and refuses unless it
     * is idle); or, with no state here, the name reserved until the round's decision ({@link #unreserve}), so
     * that an engine created meanwhile waits for it; or a name another undecided round reserved already. Not an
     * access.
     */
    VoteTarget forVote(String name) {
        VoteTarget[] found = new VoteTarget[1];
        engines.compute(name, (key, current) -> {
            if (current != null && !current.buried()) {
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
     * @return the engine created during the reservation, frozen, for the decision to apply to; null if none
     */
    LockEngine<?> unreserve(String name) {
        LockEngine<?>[] created = new LockEngine<?>[1];
        engines.compute(name, (key, current) -> {
            if (reserved.remove(key) && current != null && !current.buried() && current.createdFrozen()) {
                created[0] = current;
            }
            return current;
        });
        return created[0];
    }

    /**
     * Removes {@code engine} for good if nobody pins it (see {@link LockEngine#tryBury()}).
     *
     * @return whether it was buried
     */
    boolean bury(String name, LockEngine<?> engine) {
        if (!engine.tryBury()) {
            return false;
        }
        engines.remove(name, engine);
        idle.remove(name, engine);
        inUse.asMap().remove(name, engine);
        return true;
    }

    /** Every live engine. */
    Iterable<LockEngine<?>> all() {
        return engines.values();
    }

    /** The idle engines (expired from use, not buried). */
    Iterable<LockEngine<?>> idleEngines() {
        return idle.values();
    }

    /** Live engines (for metrics and tests). */
    long size() {
        return engines.size();
    }

    /** Lets Caffeine expire what is due now (tests with a short expiry call it instead of waiting for the timer). */
    void cleanUp() {
        inUse.cleanUp();
    }
}
