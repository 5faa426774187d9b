package io.dlock.protocol;

import io.dlock.NodeId;
import io.dlock.spi.View;

/**
 * Everything a {@link MutexProtocol} is created with.
 *
 * @param self       this node; a member of {@code view}
 * @param view       the view at creation (the first epoch the protocol runs in)
 * @param effects    where the protocol's answers go
 * @param options    algorithm-specific settings
 * @param startsIdle whether every member of {@code view} is known to start idle for this lock, as at
 *                   the start of a simulation. When false (a real node creating a lock's protocol on
 *                   first use, while other members may already hold or wait for it), an algorithm
 *                   that keeps state at one place must first learn it from the other members
 * @param fencingFloor every fencing token this protocol grants or helps to grant must be greater than it:
 *                   the node's floor after a reclamation (docs/algorithms.md R3). A lock whose state was
 *                   dropped on every member and is used again starts from nothing; the round that dropped
 *                   it raised every member's floor to the highest token of the lock anywhere, so the new
 *                   incarnation's tokens stay above the old ones. Algorithms seed their
 *                   highest fence with it ({@code FencedMutexProtocol}). 0 for a fresh cluster and in the simulator
 * @param lockName   the name of the lock this protocol runs for, the same on every member (what
 *                   {@code LockService.lock(name)} was given); an algorithm may derive a per-lock choice from it,
 *                   such as the centralized coordinator of the lock. {@link #DEFAULT_LOCK_NAME} where the driver
 *                   runs one unnamed lock (the single-lock simulator, unit tests)
 * @param <M>        the algorithm's message type
 */
public record ProtocolContext<M extends ProtocolMessage>(NodeId self, View view, MutexEffects<M> effects,
                                                         ProtocolOptions options, boolean startsIdle,
                                                         long fencingFloor, String lockName) {

    /** The name of the one lock of a driver that does not name its lock (the single-lock simulator, unit tests). */
    public static final String DEFAULT_LOCK_NAME = "lock";

    public ProtocolContext {
        java.util.Objects.requireNonNull(lockName, "lockName");
        if (!view.contains(self)) {
            throw new IllegalArgumentException("node " + self + " is not a member of its view " + view.members());
        }
        if (fencingFloor < 0) {
            throw new IllegalArgumentException("fencing floor must be >= 0, got " + fencingFloor);
        }
    }

    /** A context for the lock named {@link #DEFAULT_LOCK_NAME}. */
    public ProtocolContext(NodeId self, View view, MutexEffects<M> effects, ProtocolOptions options,
                           boolean startsIdle, long fencingFloor) {
        this(self, view, effects, options, startsIdle, fencingFloor, DEFAULT_LOCK_NAME);
    }

    /** A context with no fencing floor (a lock never reclaimed on this node), for the lock named {@link #DEFAULT_LOCK_NAME}. */
    public ProtocolContext(NodeId self, View view, MutexEffects<M> effects, ProtocolOptions options,
                           boolean startsIdle) {
        this(self, view, effects, options, startsIdle, 0);
    }

    /**
     * The protocol's own random source (e.g. a back-off): seeded with the driver's random seed
     * ({@link ProtocolOptions#randomSeed()}, which a simulator forks per node from its run's seed), or,
     * when the driver gives none (the runtime, a test harness), with {@code fallbackSeed} and this
     * node's id. Deterministic either way (docs/algorithms.md 0.3); each call returns a new source with the same
     * seed, so call it once.
     */
    public java.util.SplittableRandom random(long fallbackSeed) {
        return random(self, options, fallbackSeed);
    }

    /**
     * What {@link #random(long)} returns for node {@code self} with {@code options}, for a protocol that makes its
     * source later than its creation (the same seed, so the same draws).
     */
    public static java.util.SplittableRandom random(NodeId self, ProtocolOptions options, long fallbackSeed) {
        long seed = options.randomSeed().isPresent() ? options.randomSeed().getAsLong()
                : fallbackSeed * 0x9E3779B97F4A7C15L + self.value();
        return new java.util.SplittableRandom(seed);
    }

    /** A context in which every member starts idle (simulations, tests), for the lock named {@link #DEFAULT_LOCK_NAME}. */
    public ProtocolContext(NodeId self, View view, MutexEffects<M> effects, ProtocolOptions options) {
        this(self, view, effects, options, true, 0);
    }
}
