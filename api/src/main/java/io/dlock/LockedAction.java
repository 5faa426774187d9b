package io.dlock;

/**
 * Work to run while a {@link DistributedLock} is held, for
 * {@link DistributedLock#callWithLock(LockedAction)}: like {@link java.util.concurrent.Callable}, but
 * the checked exception it may throw is a type parameter, so the caller handles exactly that exception
 * (or none) and nothing is wrapped.
 *
 * <pre>{@code
 * long balance = lock.callWithLock(() -> accounts.balance(id));        // X = RuntimeException: no catch
 * String text = lock.callWithLock(() -> Files.readString(path));       // X = IOException, thrown as is
 * }</pre>
 *
 * @param <T> the result's type
 * @param <X> the checked exception the action may throw; the compiler infers
 *            {@link RuntimeException} when the action throws none
 */
@FunctionalInterface
public interface LockedAction<T, X extends Exception> {

    /**
     * Does the work; called on the thread that holds the lock.
     *
     * @return the result, handed back to the caller of {@code callWithLock}
     * @throws X whatever the work throws; the lock is released before it reaches the caller
     */
    T call() throws X;
}
