package io.dlock;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A {@link Lock} held by at most one thread in the whole cluster at a time. Obtain one from
 * {@link LockService#lock(String)}; every node that asks for the same name gets a lock that excludes
 * all the others. Which distributed algorithm decides who enters is chosen by configuration
 * ({@code dlock.mutex}); the semantics below hold for all of them.
 *
 * <pre>{@code
 * DistributedLock lock = service.lock("orders");
 * lock.lock();
 * try {
 *     store.write(record, lock.fencingToken());
 * } finally {
 *     lock.unlock();
 * }
 * }</pre>
 *
 * <h2>Ownership</h2>
 * The lock is owned by a thread on a node. Between nodes the algorithm guarantees that at most one
 * node holds it; within a node the runtime lets one local thread at a time issue a distributed request
 * (the other local threads queue, in arrival order), so the owner is always one thread.
 * With {@code dlock.lock.local-handoff} = H &gt; 0, a node that holds the lock while local threads
 * wait passes it to the next of them up to H times in a row before releasing it to the cluster
 * (more throughput, less fairness between nodes); each local holder still gets a fencing token
 * greater than all before (see {@link #fencingToken()}; H must be the same on every node).
 *
 * <h2>Reentrancy</h2>
 * The owning thread may call {@code lock()} again; it must call {@link #unlock()} as many times.
 * Only the first acquisition sends messages; only the last release does.
 *
 * <h2>Interruption and abandoned requests</h2>
 * {@link #lockInterruptibly()} and {@link #tryLock(long, TimeUnit)} respond to interruption while
 * the request is in flight by throwing {@link InterruptedException}. A request that was given up (by
 * interruption or timeout) cannot be recalled from the other nodes: it stays outstanding, and when
 * its grant arrives it is either handed to the next local thread that waits for this lock or
 * released at once, so the lock never leaks.
 *
 * <h2>Untimed {@code tryLock()}</h2>
 * Whether a distributed lock is free cannot be known without asking the other nodes. The untimed
 * {@link #tryLock()} therefore makes a request and waits for at most the configured try timeout
 * ({@code dlock.lock.try-timeout-ms}, default 1000 ms), uninterruptibly (an interrupt is kept and
 * makes it return {@code false} at once). It returns {@code false} if the lock is held elsewhere for
 * longer than that.
 *
 * <h2>Conditions</h2>
 * {@link #newCondition()} is not supported and throws {@link UnsupportedOperationException}.
 *
 * <h2>Non-owner unlock</h2>
 * {@link #unlock()} by a thread that does not hold the lock throws
 * {@link IllegalMonitorStateException} and changes nothing.
 *
 * <h2>Memory effects</h2>
 * Within one JVM, a successful {@code unlock()} happens-before every subsequent successful
 * acquisition, as for {@link java.util.concurrent.locks.ReentrantLock}. Across JVMs the lock gives
 * mutual exclusion and a {@link #fencingToken() fencing token}: shared state must live in a store
 * that orders the writers' operations, and the token lets that store refuse a late writer.
 *
 * <h2>Failures</h2>
 * A node that crashes leaves the membership view after the transport's failure detection; a view
 * change starts a new epoch in which the algorithm rebuilds its state without that node. A node that
 * is merely paused (a long GC) may still believe it holds the lock after the others have moved on;
 * no lock service can prevent that, which is why every grant carries a fencing token that strictly
 * increases across the cluster.
 *
 * <p><b>Partitions (majority rule).</b> Only a view that holds a strict majority of the members of
 * the last primary view may grant. On a minority side
 * (or on both halves of an even split) nothing is granted: {@code tryLock(timeout)} times out and
 * {@code lock()} waits until the partition heals. A thread that held the lock when its node fell
 * into the minority keeps it locally (it cannot be interrupted) but is fenced out: the majority side
 * may grant the lock again, with a higher fencing token, and the late holder's {@code unlock()}
 * merely ends its local hold. After the heal the node rejoins and locks again as any other member.
 */
public interface DistributedLock extends Lock {

    /** The lock's name, as given to {@link LockService#lock(String)}. */
    String name();

    /**
     * The fencing token of the current grant: a number greater than that of every earlier grant of
     * this lock anywhere in the cluster.
     *
     * @throws IllegalMonitorStateException if the calling thread does not hold the lock
     */
    long fencingToken();

    /** Whether the calling thread holds this lock. */
    boolean isHeldByCurrentThread();

    /** How many times the calling thread holds this lock (0 if it does not). */
    int getHoldCount();

    /** Message and entry counters of this lock on this node. */
    LockMetrics metrics();

    /**
     * Not supported.
     *
     * @throws UnsupportedOperationException always: a distributed condition would need its own
     *                                       protocol, which dlock does not provide
     */
    @Override
    Condition newCondition();
}
