package io.dlock;

import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A value guarded by fencing tokens, the way a storage system should guard data written under a
 * {@link DistributedLock}: it remembers the highest {@link DistributedLock#fencingToken() token} it has
 * accepted and refuses any write that carries an older one.
 *
 * <p>Why: no lock service can stop a holder that is paused (a long GC, {@code SIGSTOP}) from waking up
 * after the others have declared it dead and granted the lock again. Mutual exclusion alone cannot
 * protect the data then; the fencing token can, because every grant's token is greater than every earlier
 * grant's, so the paused holder's late write carries a token older than the new holder's.
 *
 * <pre>{@code
 * FencedResource<Order> order = new FencedResource<>(initial);
 * lock.lock();
 * try {
 *     order.update(lock.fencingToken(), o -> o.withStatus(PAID)); // throws if a newer holder wrote first
 * } finally {
 *     lock.unlock();
 * }
 * }</pre>
 *
 * <p>A holder may write several times with the same token; a token equal to the highest accepted is
 * accepted. Thread-safe: each write is atomic with its check. This class lives in one JVM; a real store
 * keeps the highest token next to the data and checks it in the same transaction as the write.
 *
 * @param <T> the value's type
 */
public final class FencedResource<T> {

    private T value;
    private long highestAccepted = Long.MIN_VALUE;

    /** A resource holding {@code initial}, with no token accepted yet. */
    public FencedResource(T initial) {
        this.value = initial;
    }

    /** The current value. */
    public synchronized T read() {
        return value;
    }

    /**
     * Replaces the value if {@code fencingToken} is not older than every token accepted so far.
     *
     * @throws StaleFencingTokenException if a newer token was accepted before; nothing changes
     */
    public synchronized void write(long fencingToken, T newValue) {
        admit(fencingToken);
        value = newValue;
    }

    /**
     * Applies {@code change} to the value if {@code fencingToken} is not older than every token accepted
     * so far, and returns the new value.
     *
     * @throws StaleFencingTokenException if a newer token was accepted before; nothing changes
     */
    public synchronized T update(long fencingToken, UnaryOperator<T> change) {
        Objects.requireNonNull(change, "change");
        if (fencingToken < highestAccepted) {
            throw new StaleFencingTokenException(fencingToken, highestAccepted);
        }
        T updated = change.apply(value);
        admit(fencingToken);
        value = updated;
        return updated;
    }

    /** The highest token accepted so far, or {@link Long#MIN_VALUE} if none. */
    public synchronized long highestAccepted() {
        return highestAccepted;
    }

    private void admit(long fencingToken) {
        if (fencingToken < highestAccepted) {
            throw new StaleFencingTokenException(fencingToken, highestAccepted);
        }
        highestAccepted = fencingToken;
    }
}
