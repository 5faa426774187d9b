package io.dlock.spring.integration;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import org.springframework.integration.support.locks.DistributedLock;

/**
 * The lock a {@link DlockLockRegistry} hands out for one key: Spring Integration's {@link DistributedLock} over
 * the dlock lock named by the key's {@code toString()} ({@link io.dlock.DistributedLock}), with its semantics: held by
 * one thread in the whole cluster at a time, reentrant, and every grant numbered by a {@link #fencingToken() fencing
 * token} greater than all before.
 *
 * <h2>Time to live</h2>
 * {@link #lock(Duration)} and {@link #tryLock(Duration, Duration)} take the lock with a dlock <em>lease</em> of
 * {@code ttl}: if the holder has not unlocked within {@code ttl} of the grant (or of its last renewal, see
 * {@link DlockLockRegistry#renewLock(Object, Duration)}), the hold ends by itself and the lock goes to the next
 * waiter, with a higher fencing token. The TTL is measured on the holder's node with its monotonic clock, from the
 * moment the grant reached it; no other node's clock is read. It does not stop the holder: a thread still working
 * when its TTL runs out keeps running, and its late writes are refused only by a store that checks the fencing
 * token ({@link io.dlock.FencedResource}); {@link #unlock()} then throws {@link io.dlock.LockOwnershipLostException}.
 * The methods without a TTL ({@link #lock()}, {@link #tryLock(long, TimeUnit)} and the rest) hold until
 * {@code unlock()}: a crashed holder's node leaves dlock's membership, which ends its holds, so no TTL is needed for
 * crashes, only for holders that hang. A TTL is at most {@link io.dlock.DistributedLock#MAX_LEASE}.
 *
 * <h2>Fencing token</h2>
 * {@link #fencingToken()} gives the calling thread's grant number; pass it to the store with each write:
 * <pre>{@code
 * DlockRegistryLock lock = registry.obtain("orders");
 * if (lock.tryLock(Duration.ofSeconds(5), Duration.ofSeconds(30))) {
 *     try {
 *         store.write(order, lock.fencingToken());
 *     } finally {
 *         lock.unlock();
 *     }
 * }
 * }</pre>
 * {@link #dlockLock()} gives the dlock lock itself, for what Spring's interface has no word for (ownership-loss
 * listeners, owner-free holds, metrics).
 *
 * <p>Everything else (interruption, the untimed {@code tryLock()}'s bound, conditions, failures) is as
 * {@link io.dlock.DistributedLock} documents it.
 */
public final class DlockRegistryLock implements DistributedLock {

    private final io.dlock.DistributedLock lock;
    /** Holds of this object by this node's threads not yet unlocked; the registry forgets it only at zero. */
    private final AtomicInteger holds = new AtomicInteger();
    /** {@link System#nanoTime()} of the last {@code obtain} or acquisition; volatile, read by the expiry. */
    private volatile long lastUsedNanos = System.nanoTime();
    /**
     * The TTL of the current hold (null: none), written by the holding thread only (one thread of this node holds
     * the lock at a time) and read by it in {@link DlockLockRegistry#renewLock(Object)}; volatile for the next holder.
     */
    private volatile Duration ttl;

    DlockRegistryLock(io.dlock.DistributedLock lock) {
        this.lock = lock;
    }

    /** The dlock lock behind this one (its name is the key's {@code toString()}). */
    public io.dlock.DistributedLock dlockLock() {
        return lock;
    }

    /**
     * The fencing token of the calling thread's grant: greater than that of every earlier grant of this lock anywhere
     * in the cluster.
     *
     * @throws IllegalMonitorStateException       if the calling thread does not hold the lock
     * @throws io.dlock.LockOwnershipLostException if its hold was lost (its TTL ran out, or its node was cut off)
     */
    public long fencingToken() {
        return lock.fencingToken();
    }

    @Override
    public void lock() {
        lock.lock();
        acquired(null);
    }

    /**
     * Acquires the lock, waiting as long as it takes, with a time to live (see "Time to live" above); the owner
     * re-enters and moves the end of its hold to {@code ttl} from now.
     *
     * @throws NullPointerException     if {@code ttl} is null
     * @throws IllegalArgumentException if {@code ttl} is zero, negative or longer than
     *                                  {@link io.dlock.DistributedLock#MAX_LEASE}
     */
    @Override
    public void lock(Duration ttl) {
        lock.lock(ttl);
        acquired(ttl);
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        lock.lockInterruptibly();
        acquired(null);
    }

    @Override
    public boolean tryLock() {
        return acquiredIf(lock.tryLock(), null);
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return acquiredIf(lock.tryLock(time, unit), null);
    }

    /**
     * Acquires the lock if it can within {@code waitTime}, with a time to live (see "Time to live" above).
     *
     * @throws NullPointerException     if {@code waitTime} or {@code ttl} is null
     * @throws IllegalArgumentException if {@code waitTime} is negative, or {@code ttl} is zero, negative or longer
     *                                  than {@link io.dlock.DistributedLock#MAX_LEASE}
     */
    @Override
    public boolean tryLock(Duration waitTime, Duration ttl) throws InterruptedException {
        Objects.requireNonNull(ttl, "ttl");
        return acquiredIf(lock.tryLock(waitTime, ttl), ttl);
    }

    /**
     * Releases one hold of the calling thread.
     *
     * @throws IllegalMonitorStateException       if the calling thread does not hold the lock
     * @throws io.dlock.LockOwnershipLostException if its hold had been lost (the hold still ends)
     */
    @Override
    public void unlock() {
        try {
            lock.unlock();
        } catch (io.dlock.LockOwnershipLostException lost) {
            released(); // dlock counts a lost hold down as well
            throw lost;
        }
        released();
    }

    /** A distributed condition of the dlock lock (see {@link io.dlock.DistributedLock}'s "Conditions"). */
    @Override
    public Condition newCondition() {
        return lock.newCondition();
    }

    @Override
    public String toString() {
        return "DlockRegistryLock[" + lock.name() + "]";
    }

    /** The dlock lock's name: the key's {@code toString()}. */
    String name() {
        return lock.name();
    }

    /** The TTL the calling thread's hold was taken or last renewed with; null if it has none. */
    Duration ttl() {
        return ttl;
    }

    /** Records the renewal of the calling thread's hold with {@code newTtl}. */
    void renewed(Duration newTtl) {
        ttl = newTtl;
    }

    /** Marks this lock as used now (by {@code obtain}). */
    DlockRegistryLock touch() {
        lastUsedNanos = System.nanoTime();
        return this;
    }

    /** Whether no thread of this node holds this object and it was last used at least {@code ageNanos} ago. */
    boolean unusedFor(long ageNanos) {
        return holds.get() == 0 && System.nanoTime() - lastUsedNanos >= ageNanos;
    }

    private boolean acquiredIf(boolean acquired, Duration newTtl) {
        if (acquired) {
            acquired(newTtl);
        }
        return acquired;
    }

    /** After a successful acquisition by the calling thread: a plain re-entry keeps the hold's TTL. */
    private void acquired(Duration newTtl) {
        if (holds.getAndIncrement() == 0 || newTtl != null) {
            ttl = newTtl;
        }
        touch();
    }

    private void released() {
        holds.decrementAndGet();
    }
}
