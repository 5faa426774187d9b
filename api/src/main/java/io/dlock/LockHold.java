package io.dlock;

import java.time.Duration;

/**
 * A hold of a {@link DistributedLock} that belongs to no thread: obtained with {@link DistributedLock#acquire()},
 * {@link DistributedLock#tryAcquire(Duration, Duration)} or {@link DistributedLock#acquireAsync()}, released with
 * {@link #release()} (or {@link #close()}) by any thread. Work handed between threads, reactive pipelines and a task
 * whose lock must outlive its thread use it where the thread-owned {@link java.util.concurrent.locks.Lock} face
 * cannot serve.
 *
 * <pre>{@code
 * lock.acquireAsync(Duration.ofSeconds(30))
 *     .thenCompose(hold -> store.writeAsync(record, hold.fencingToken())
 *             .whenComplete((ok, failure) -> hold.release()));
 * }</pre>
 *
 * <h2>Exclusion</h2>
 * A hold excludes every other holder in the cluster, threads and holds alike, exactly as a thread's hold does, and it
 * has a {@linkplain #fencingToken() fencing token} greater than every earlier grant's. On its node it waits in the
 * same queue, in arrival order, as the threads that call {@code lock()}. It is not reentrant: each acquisition is a
 * new hold that waits for the current one, so a thread that holds the lock and waits for a hold of the same lock on
 * the same node waits for itself.
 *
 * <h2>Lease</h2>
 * A hold acquired with a lease ends by itself when the lease runs out before {@link #release()}, as an
 * <em>ownership loss</em> (see {@link DistributedLock}'s "Leases"): the lock's {@link OwnershipListener}s are told
 * (with {@link OwnershipLoss#hold()} this hold), the lock goes back to the cluster, the next holder's token is higher,
 * and this hold's {@link #fencingToken()}, {@link #renew(Duration)} and {@link #release()} throw
 * {@link LockOwnershipLostException}. {@link #renew(Duration)} moves the end of a live hold's lease.
 *
 * <h2>Threads</h2>
 * Every method may be called from any thread; a hold is safe to share between threads. Within one JVM, a
 * {@code release()} happens-before the next successful acquisition of the lock, by a thread or a hold.
 */
public interface LockHold extends AutoCloseable {

    /** The name of the lock this hold is of. */
    String lockName();

    /**
     * This hold's fencing token: greater than that of every earlier grant of the lock anywhere in the cluster.
     *
     * @throws LockOwnershipLostException   if the hold was lost (its lease ran out, or its node fell out of the
     *                                      primary component)
     * @throws IllegalMonitorStateException if the hold was released
     * @throws IllegalStateException        if its lock service is closed
     */
    long fencingToken();

    /**
     * Whether this hold still holds the lock: not released, not lost, its lease (if any) not run out. A
     * {@code true} answer is a snapshot; only the fencing token protects what the holder writes.
     */
    boolean isHeld();

    /**
     * Sets this hold's lease to end {@code lease} from now, measured on this node's monotonic clock; a hold acquired
     * without a lease gets one. It may shorten the lease as well as extend it.
     *
     * @param lease how long the hold may last from now unless renewed again or released
     * @throws NullPointerException         if {@code lease} is null
     * @throws IllegalArgumentException     if {@code lease} is zero, negative or longer than
     *                                      {@link DistributedLock#MAX_LEASE}
     * @throws LockOwnershipLostException   if the hold was lost; nothing is renewed
     * @throws IllegalMonitorStateException if the hold was released, or its lock service closed
     */
    void renew(Duration lease);

    /**
     * Releases the lock, from any thread: the next waiter, on this node or another, may take it.
     *
     * @throws LockOwnershipLostException   if the hold had been lost before (its lease ran out, or its node fell out of
     *                                      the primary component): the release ends what was left of it, and the
     *                                      exception tells that another holder may have overlapped with this one
     * @throws IllegalMonitorStateException if the hold was released already, or its lock service closed (which
     *                                      dropped every hold)
     */
    void release();

    /** The same as {@link #release()}, for try-with-resources. */
    @Override
    default void close() {
        release();
    }
}
