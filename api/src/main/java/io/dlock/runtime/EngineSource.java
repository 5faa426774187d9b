package io.dlock.runtime;

import io.dlock.OwnershipListener;

/**
 * Where a lock's facade ({@link RuntimeLock}) and its conditions find the lock's engine on every call: the
 * engine may have been reclaimed and recreated since the facade was handed out, so the facade keeps only the
 * name.
 */
interface EngineSource {

    /**
     * The engine of {@code name}, created if needed, pinned: the caller must {@link LockEngine#unpin()} it.
     *
     * @throws IllegalStateException if the node is closed (nothing is created then)
     */
    LockEngine<?> pin(String name);

    /** @throws IllegalStateException if the node is closed */
    void requireOpen();

    /** The engine of {@code name} if it exists; neither created nor pinned. */
    LockEngine<?> peek(String name);

    /** Adds a listener of lock {@code name}; it outlives the lock's engine. */
    void addOwnershipListener(String name, OwnershipListener listener);

    /** Removes a listener of lock {@code name}. */
    void removeOwnershipListener(String name, OwnershipListener listener);
}
