package io.dlock.spring.integration;

import io.dlock.LockService;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.springframework.integration.support.locks.ExpirableLockRegistry;
import org.springframework.integration.support.locks.RenewableLockRegistry;
import org.springframework.scheduling.TaskScheduler;

/**
 * Spring Integration's lock registry on dlock: {@link #obtain(Object)} gives, for a key, a {@link DlockRegistryLock}
 * backed by the dlock lock named by the key's {@code toString()} on {@code service}, so every node of the cluster that
 * obtains the same key gets locks that exclude each other. Use it wherever Spring Integration takes a
 * {@code LockRegistry}: an aggregator's or a file filter's lock registry, {@code LockRegistryLeaderInitiator},
 * {@link #executeLocked(Object, org.springframework.integration.util.CheckedRunnable) executeLocked}.
 *
 * <pre>{@code
 * DlockLockRegistry registry = new DlockLockRegistry(lockService);
 * registry.executeLocked("orders", () -> store.write(order));
 *
 * DlockRegistryLock lock = registry.obtain("orders");
 * lock.lock(Duration.ofSeconds(30));                 // TTL: the hold ends by itself after 30 s unless renewed
 * try {
 *     for (Batch batch : batches) {
 *         store.write(batch, lock.fencingToken());
 *         registry.renewLock("orders");              // 30 s more, from now
 *     }
 * } finally {
 *     lock.unlock();
 * }
 * }</pre>
 *
 * <h2>Locks and keys</h2>
 * The same key gives the same lock object as long as this registry keeps it: until
 * {@link #expireUnusedOlderThan(long)} forgets it, which it does only for a lock that no thread of this node holds.
 * A lock object kept by the application after that still works: exclusion is by name, in dlock, not by object.
 * Keys whose {@code toString()} are equal are the same lock; the name must be 1 to 200 characters.
 *
 * <h2>Time to live and renewal</h2>
 * A TTL ({@link DlockRegistryLock#lock(Duration)}, {@link DlockRegistryLock#tryLock(Duration, Duration)}) is a
 * dlock lease, measured on the holder's node (see {@link DlockRegistryLock}). {@link #renewLock(Object, Duration)}
 * renews the calling thread's hold for {@code ttl} from now; {@link #renewLock(Object)} for the TTL the hold was
 * taken (or last renewed) with. Renewal is by the holding thread: dlock's thread-owned holds are renewed by their
 * owner, so {@link #setRenewalTaskScheduler(TaskScheduler)} (renewal by a scheduler's thread) is not supported.
 *
 * <p>Thread-safe.
 */
public final class DlockLockRegistry
        implements ExpirableLockRegistry<DlockRegistryLock>, RenewableLockRegistry<DlockRegistryLock> {

    private final LockService service;
    private final Map<String, DlockRegistryLock> locks = new ConcurrentHashMap<>();

    /**
     * @param service the node's lock service, which must outlive the registry's use
     * @throws NullPointerException if {@code service} is null
     */
    public DlockLockRegistry(LockService service) {
        this.service = Objects.requireNonNull(service, "service");
    }

    /**
     * The lock of {@code lockKey}: backed by the dlock lock named {@code lockKey.toString()}.
     *
     * @throws NullPointerException     if {@code lockKey} is null
     * @throws IllegalArgumentException if {@code lockKey.toString()} is empty or longer than 200 characters
     * @throws IllegalStateException    if the lock service is closed
     */
    @Override
    public DlockRegistryLock obtain(Object lockKey) {
        String name = nameOf(lockKey);
        return locks.compute(name, (key, known) -> known != null ? known.touch()
                : new DlockRegistryLock(service.lock(key)));
    }

    /**
     * Forgets the locks that no thread of this node holds and that were last obtained or acquired at least
     * {@code age} milliseconds ago (on this node's monotonic clock); a later {@link #obtain(Object)} of their key
     * gives a new lock object. dlock reclaims the distributed state of idle locks by itself
     * ({@code dlock.lock.idle-expiry-ms}); this bounds the registry's own map.
     *
     * @param age the idle time in milliseconds, zero or more
     * @throws IllegalArgumentException if {@code age} is negative
     */
    @Override
    public void expireUnusedOlderThan(long age) {
        if (age < 0) {
            throw new IllegalArgumentException("age must be zero or more milliseconds, got " + age);
        }
        long ageNanos = TimeUnit.MILLISECONDS.toNanos(age);
        for (String name : locks.keySet()) {
            locks.computeIfPresent(name, (key, lock) -> lock.unusedFor(ageNanos) ? null : lock);
        }
    }

    /**
     * Renews the calling thread's hold of {@code lockKey}'s lock for the TTL it was taken or last renewed with, from
     * now. A hold taken without a TTL has nothing to renew: the call only checks that the thread holds it.
     *
     * @throws IllegalStateException               if this registry has no lock for {@code lockKey} (never obtained,
     *                                             or expired since)
     * @throws IllegalMonitorStateException        if the calling thread does not hold the lock
     * @throws io.dlock.LockOwnershipLostException if its hold was lost (its TTL ran out, or its node was cut off)
     */
    @Override
    public void renewLock(Object lockKey) {
        DlockRegistryLock lock = known(lockKey);
        Duration ttl = lock.ttl();
        if (ttl == null) {
            lock.fencingToken(); // throws unless the calling thread holds the lock
        } else {
            lock.dlockLock().renew(ttl);
        }
    }

    /**
     * Renews the calling thread's hold of {@code lockKey}'s lock to end {@code ttl} from now (it may shorten it); a
     * hold taken without a TTL gets one.
     *
     * @throws NullPointerException                if {@code ttl} is null
     * @throws IllegalArgumentException            if {@code ttl} is zero, negative or longer than
     *                                             {@link io.dlock.DistributedLock#MAX_LEASE}
     * @throws IllegalStateException               if this registry has no lock for {@code lockKey}
     * @throws IllegalMonitorStateException        if the calling thread does not hold the lock
     * @throws io.dlock.LockOwnershipLostException if its hold was lost; nothing is renewed
     */
    @Override
    public void renewLock(Object lockKey, Duration ttl) {
        DlockRegistryLock lock = known(lockKey);
        lock.dlockLock().renew(ttl);
        lock.renewed(ttl);
    }

    /**
     * Not supported: a dlock hold taken by a thread is renewed by that thread ({@link #renewLock(Object)}). A hold
     * without a TTL needs no renewal (the membership ends a crashed node's holds).
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public void setRenewalTaskScheduler(TaskScheduler renewalTaskScheduler) {
        throw new UnsupportedOperationException("DlockLockRegistry does not renew holds from a scheduler: a dlock hold "
                + "is renewed by the thread that holds it (renewLock), or taken without a TTL (lock(), tryLock(time, "
                + "unit)), which the membership ends if its node crashes");
    }

    @Override
    public String toString() {
        return "DlockLockRegistry[node " + service.nodeId() + ", " + locks.size() + " locks]";
    }

    private DlockRegistryLock known(Object lockKey) {
        String name = nameOf(lockKey);
        DlockRegistryLock lock = locks.get(name);
        if (lock == null) {
            throw new IllegalStateException("no lock for key '" + name + "' in this registry (never obtained, or "
                    + "expired by expireUnusedOlderThan): obtain and lock it before renewing");
        }
        return lock;
    }

    private static String nameOf(Object lockKey) {
        return Objects.requireNonNull(lockKey, "lockKey").toString();
    }
}
