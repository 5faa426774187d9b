package io.dlock.runtime;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;

/**
 * The lock engines of one node, by name, in two places:
 * <ul>
 *   <li><b>in use</b>: a Caffeine cache whose entries expire after the idle expiry without an access (every
 *       lock, unlock and message of the lock is one). Caffeine keeps the access order and expires on the
 *       node's timer thread;</li>
 *   <li><b>idle</b>: engines the cache expired. They keep their state and still work (any access brings one
 *       back into use); they are what the node nominates for reclamation, and where a reclamation round finds
 *       the engines it may freeze. A committed round {@link #bury buries} them: gone from both places.</li>
 * </ul>
 * The cache never drops state on its own: an expired engine only moves to the idle place; whether its state
 * may go is decided cluster-wide ({@link io.dlock.reclaim.Reclamation}), by the algorithm's own rule
 * ({@link io.dlock.protocol.MutexProtocol#atRest()}).
 *
 * <p><b>Pins.</b> A caller that uses an engine {@link #pin pins} it first and unpins it after; an engine is
 * buried only when nobody pins it ({@link LockEngine#tryBury()}), and a pin on a buried engine fails, so the
 * caller looks the name up again and gets a new engine. A name therefore never has two live engines on a node.
 */
final class LockRegistry {

    private final Cache<String, LockEngine<?>> inUse;
    private final Map<String, LockEngine<?>> idle = new ConcurrentHashMap<>();
    private final Function<String, LockEngine<?>> factory;

    /**
     * @param idleExpiry how long an engine stays in use without an access; {@link Duration#ZERO}: for ever
     * @param timers     the node's timer thread, on which Caffeine expires entries
     * @param pool       where Caffeine does its maintenance
     * @param factory    creates the engine of a name seen for the first time (or again after a burial)
     */
    LockRegistry(Duration idleExpiry, ScheduledExecutorService timers, Executor pool,
                 Function<String, LockEngine<?>> factory) {
        this.factory = factory;
        Caffeine<Object, Object> builder = Caffeine.newBuilder().executor(pool);
        if (!idleExpiry.isZero()) {
            builder.expireAfterAccess(idleExpiry).scheduler(Scheduler.forScheduledExecutorService(timers));
        }
        this.inUse = builder.<String, LockEngine<?>>evictionListener((name, engine, cause) -> {
            if (cause == RemovalCause.EXPIRED && name != null && engine != null && !engine.buried()) {
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
        while (true) {
            LockEngine<?> engine = inUse.get(name, this::revive);
            if (engine.pin()) {
                return engine;
            }
            inUse.asMap().remove(name, engine); // buried between the lookup and the pin: look again
        }
    }

    private LockEngine<?> revive(String name) {
        LockEngine<?> engine = idle.remove(name);
        if (engine != null && !engine.buried()) {
            engine.markIdle(false);
            return engine;
        }
        return factory.apply(name);
    }

    /** The engine of {@code name} if there is one, without creating it and without counting an access. */
    LockEngine<?> peek(String name) {
        LockEngine<?> engine = inUse.policy().getIfPresentQuietly(name);
        return engine != null ? engine : idle.get(name);
    }

    /**
     * What a reclamation vote finds for {@code name}, atomically with creation and expiry of its engine: an
     * idle engine (it votes itself), {@link Lookup#inUse()} (busy), or {@link Lookup#absent()} (no state here,
     * and any engine created from now on belongs to the lock's next incarnation or to a message the round's
     * counters see).
     */
    Lookup lookupForVote(String name) {
        Lookup[] found = new Lookup[1];
        inUse.asMap().compute(name, (key, current) -> {
            if (current != null) {
                found[0] = Lookup.IN_USE;
            } else {
                LockEngine<?> engine = idle.get(key);
                found[0] = engine == null || engine.buried() ? Lookup.ABSENT : new Lookup(engine);
            }
            return current;
        });
        return found[0];
    }

    /** See {@link #lookupForVote}: the idle engine, or none with whether the lock is in use. */
    record Lookup(LockEngine<?> engine, boolean inUse) {
        static final Lookup IN_USE = new Lookup(null, true);
        static final Lookup ABSENT = new Lookup(null, false);

        Lookup(LockEngine<?> engine) {
            this(engine, false);
        }

        boolean absent() {
            return engine == null && !inUse;
        }
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
        idle.remove(name, engine);
        inUse.asMap().remove(name, engine);
        return true;
    }

    /** Every engine, in use or idle. */
    List<LockEngine<?>> all() {
        List<LockEngine<?>> all = new ArrayList<>(inUse.asMap().values());
        all.addAll(idle.values());
        return all;
    }

    /** The idle engines. */
    Iterable<LockEngine<?>> idleEngines() {
        return idle.values();
    }

    /** Engines in use and idle (estimates; for metrics and tests). */
    long inUseCount() {
        return inUse.estimatedSize();
    }

    long idleCount() {
        return idle.size();
    }

    /** Lets Caffeine expire what is due now (tests with a short expiry call it instead of waiting for the timer). */
    void cleanUp() {
        inUse.cleanUp();
    }
}
