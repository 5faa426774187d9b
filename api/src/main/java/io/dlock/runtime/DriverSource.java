package io.dlock.runtime;

import io.dlock.OwnershipListener;

/**
 * Where a lock's facade ({@link RuntimeLock}) and its conditions find the lock's driver on every call: the
 * driver may have been reclaimed and recreated since the facade was handed out, so the facade keeps only the
 * name.
 */
interface DriverSource {

    /**
     * The driver of {@code name}, created if needed, pinned: the caller must {@link LockDriver#unpin()} it.
     *
     * @throws IllegalStateException if the node is closed (nothing is created then)
     */
    LockDriver<?> pin(String name);

    /** @throws IllegalStateException if the node is closed */
    void requireOpen();

    /** The driver of {@code name} if it exists; neither created nor pinned. */
    LockDriver<?> peek(String name);

    /** Adds a listener of lock {@code name}; it outlives the lock's driver. */
    void addOwnershipListener(String name, OwnershipListener listener);

    /** Removes a listener of lock {@code name}. */
    void removeOwnershipListener(String name, OwnershipListener listener);
}
