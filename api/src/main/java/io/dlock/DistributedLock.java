package io.dlock;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
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
 * <p>Or, the same with the lock released on every path:
 * {@code lock.withLock(() -> store.write(record, lock.fencingToken()));} (see
 * <a href="#actions">Running an action under the lock</a>).
 *
 * <h2>Ownership</h2>
 * The lock is owned by a thread on a node (or by an owner-free {@link LockHold}, see
 * <a href="#holds">Owner-free holds</a>). Between nodes the algorithm guarantees that at most one
 * node holds it; within a node the runtime lets one local thread at a time issue a distributed request
 * (the other local threads and holds queue, in arrival order), so the owner is always one thread or hold.
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
 * <h2>{@code tryLock(0, unit)}</h2>
 * As {@code ReentrantLock.tryLock(0, unit)}: it never waits for the cluster. It succeeds at once where this
 * node can know the lock is free without asking anyone: a token algorithm whose node holds the idle token
 * (suzuki-kasami, raymond, naimi-trehel, token-ring), or the centralized algorithm on the coordinator's own
 * node while its lock is free; it sends no message. Everywhere else (another local thread holds or waits
 * for the lock, the token is elsewhere, a permission-based algorithm that must always ask, a node outside
 * the primary component) it returns {@code false} at once, also without a message.
 *
 * <h2>Conditions</h2>
 * {@link #newCondition()} gives a distributed {@link Condition}: {@code await} releases the lock (every hold
 * of the calling thread) and waits for a signal from any node of the cluster, then reacquires the lock,
 * with a new fencing token and the same hold count, before it returns; also when it times out
 * ({@code await(time, unit)} returns false) or is interrupted ({@link InterruptedException}, thrown with the
 * lock held). {@code signal} wakes one waiter anywhere in the cluster (the one that waited longest),
 * {@code signalAll} every waiter. {@code await}, {@code signal} and {@code signalAll} throw
 * {@link IllegalMonitorStateException} when the calling thread does not hold the lock.
 * <ul>
 *   <li><b>Names.</b> A condition is known across nodes by its name: {@link #newCondition(String)} names it;
 *       {@code newCondition()} names the k-th condition made from this lock object on this node
 *       {@code "condition-k"}, so code that creates its conditions in the same order on every node (as
 *       bounded buffers do in their constructor) gets the same conditions everywhere.</li>
 *   <li><b>How a signal travels.</b> One node keeps each condition's waiters: the lowest member of the
 *       current view. A waiter is queued there before it releases the lock, so a signal from a later
 *       holder cannot miss it; a signal sends one message to the keeper, which sends one to each woken
 *       waiter's node ({@link io.dlock.condition.ConditionProtocol} gives the rules and the costs).</li>
 *   <li><b>Spurious wake-ups.</b> As the {@code Condition} contract allows, a waiter may wake without a
 *       signal: on every view change (a member joins, leaves or crashes) every waiter wakes, so no waiter
 *       is lost with a keeper or member that left and no signal is lost on the way. Wait in a loop that
 *       checks the predicate, as always with conditions.</li>
 *   <li>A signal to a waiter that gave up (timed out, interrupted) at the same moment goes on to the next
 *       waiter; a signal with no waiter is not kept.</li>
 * </ul>
 *
 * <h2 id="actions">Running an action under the lock</h2>
 * {@link #withLock(Runnable)} and {@link #callWithLock(LockedAction)} lock, run an action on the calling
 * thread and unlock on every path: normal return, exception and {@link Error}. What the action throws
 * reaches the caller unchanged, checked exceptions included ({@link LockedAction} declares its own);
 * if the final unlock fails too (the service was closed meanwhile), that failure is added to it as
 * {@linkplain Throwable#addSuppressed suppressed}, as in try-with-resources. The action runs with the
 * lock held, so it may lock again (reentrancy), but it must leave the hold count as it found it: an
 * action that releases its hold makes the closing unlock throw {@link IllegalMonitorStateException}.
 * {@link #withLockInterruptibly(Runnable)} and {@link #callWithLockInterruptibly(LockedAction)} wait
 * with {@link #lockInterruptibly()} instead of {@link #lock()}.
 *
 * <pre>{@code
 * lock.withLock(() -> orders.markPaid(id));
 * Order order = lock.callWithLock(() -> orders.load(id));           // returns the action's result
 * lock.callWithLock(() -> Files.writeString(path, text));          // IOException passes through as is
 * }</pre>
 *
 * <h2 id="leases">Leases</h2>
 * {@link #lock(Duration)}, {@link #tryLock(Duration, Duration)}, {@link #acquire(Duration)},
 * {@link #tryAcquire(Duration, Duration)} and {@link #acquireAsync(Duration)} bound the hold they take by a
 * <em>lease</em>: if the hold is not released within the lease from the moment it was taken, it ends by itself, so a
 * holder that hangs (a stuck remote call, a deadlock in the application) cannot keep the lock from the cluster for
 * ever. {@link #renew(Duration)} (for the calling thread's hold) and {@link LockHold#renew(Duration)} set a live hold's
 * lease to end that long from now, longer or shorter than before; a hold taken without a lease gets one. A lease is
 * at most {@link #MAX_LEASE}. A re-entry with a lease ({@code lock(lease)} by the owner) sets the lease the same way;
 * a plain re-entry keeps it. A condition's {@code await} ends the hold; the hold it takes back gets a fresh lease of
 * the same length.
 * <ul>
 *   <li><b>What happens when it runs out.</b> The hold ends as an <em>ownership loss</em> (see "Ownership loss"
 *       below), with {@link OwnershipLoss.Cause#LEASE_EXPIRED}: the {@link OwnershipListener}s are told at once,
 *       {@link #isHeldByCurrentThread()} turns false, {@link #fencingToken()} and {@link #unlock()} (for a hold,
 *       {@link LockHold#fencingToken()}, {@link LockHold#renew(Duration)} and {@link LockHold#release()}) throw
 *       {@link LockOwnershipLostException}; unlike a partition, the lock goes back at once, to the next local waiter
 *       or the cluster, and the next holder's fencing token is higher. The holder's unlocks count the lost hold down
 *       as after a partition; the owning thread cannot lock again until it has.</li>
 *   <li><b>Where it is measured.</b> On the holder's node, with its monotonic clock ({@link System#nanoTime()}), from
 *       the moment the grant reached the holder, and enforced there by the node's timer (no thread per hold) and by
 *       every call of the holder, which checks the clock first. No clock of another node is read; a holder whose node
 *       is cut off is fenced out by the membership, as without a lease.</li>
 *   <li><b>Why a late write is harmless.</b> A holder whose lease ran out may not know it yet (it is paused, or in
 *       the middle of a write), and its write may reach the store after the next holder's. The next holder's fencing
 *       token is higher, and a store that keeps the highest token it has seen (see {@link FencedResource}) refuses
 *       the late write, which carries the lower one. Leases make the lock available again; fencing keeps the data
 *       safe.</li>
 *   <li><b>What a lease does not promise.</b> It does not stop the holder: a thread still running in its critical
 *       section when the lease ends keeps running (it is not interrupted; an ownership listener may do that), and
 *       what it does from then on overlaps with the next holder. Only writes checked against the fencing token are
 *       safe. A lease is no bound on the time to acquire, nor a promise that the next holder gets in at the exact
 *       instant: the release still travels as the algorithm sends it.</li>
 * </ul>
 *
 * <pre>{@code
 * if (lock.tryLock(Duration.ofSeconds(5), Duration.ofSeconds(30))) {  // wait 5 s at most, hold 30 s at most
 *     try {
 *         for (Batch batch : batches) {
 *             store.write(batch, lock.fencingToken());                // throws once the lease has run out
 *             lock.renew(Duration.ofSeconds(30));                     // more time for the next batch
 *         }
 *     } finally {
 *         lock.unlock();                                              // LockOwnershipLostException if it ran out
 *     }
 * }
 * }</pre>
 *
 * <h2 id="holds">Owner-free holds and asynchronous acquisition</h2>
 * {@link #acquire()}, {@link #tryAcquire(Duration)} and {@link #acquireAsync()} take the lock for no thread: they
 * return a {@link LockHold}, which any thread may {@linkplain LockHold#release() release} and whose
 * {@linkplain LockHold#fencingToken() fencing token} any thread may read. A hold excludes every other holder, thread or
 * hold, anywhere in the cluster, and waits on its node in the same queue, in arrival order, as the threads that call
 * {@link #lock()}: the node still has at most one distributed request outstanding. A hold is not reentrant.
 *
 * <p>{@link #acquireAsync()} blocks no thread while it waits: the lock's own events (the grant, a release on this
 * node, a waiter ahead giving up) move it on. Its future completes on a library thread (the one that calls
 * {@link OwnershipListener}s), so a dependent stage that blocks or runs long belongs on the application's executor
 * ({@code thenApplyAsync(f, executor)} and the like). Cancelling the future ({@code cancel}, or {@code orTimeout} and
 * {@code completeOnTimeout}, or any other completion by the application) while it waits abandons the request as a
 * timed-out {@code tryLock} does: it leaves the queue, and if its grant arrives later, the grant goes to the next
 * waiter or back to the cluster. A future cancelled at the moment it was granted releases its hold itself, so no
 * grant is ever leaked.
 *
 * <pre>{@code
 * lock.acquireAsync()
 *     .orTimeout(5, TimeUnit.SECONDS)
 *     .thenAcceptAsync(hold -> {
 *         try (hold) {
 *             store.write(record, hold.fencingToken());
 *         }
 *     }, executor);
 * }</pre>
 *
 * <h2>Non-owner unlock</h2>
 * {@link #unlock()} by a thread that does not hold the lock throws
 * {@link IllegalMonitorStateException} and changes nothing.
 *
 * <h2>After the service closed</h2>
 * Once {@link LockService#close()} has begun tearing the node down, a handle kept by the application
 * throws {@link IllegalStateException} from {@code lock()} (uninterruptible too), {@code lockInterruptibly},
 * both {@code tryLock}, {@code acquire}, {@code tryAcquire}, {@code acquireAsync}, {@code newCondition} and
 * {@code fencingToken()}, and builds no lock state; a pending {@code acquireAsync} fails with it, a
 * {@link LockHold}'s {@code release()} throws {@link IllegalMonitorStateException};
 * {@code unlock()} throws {@link IllegalMonitorStateException} (the close dropped every hold),
 * {@code isHeldByCurrentThread()} is false and {@code getHoldCount()} is 0.
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
 * into the minority is fenced out: the majority side may grant the lock again, with a higher fencing
 * token. After the heal the node rejoins and locks again as any other member.
 *
 * <h2>Ownership loss</h2>
 * A hold is lost when its lease runs out (see <a href="#leases">Leases</a>) or its node is cut off.
 * When the node of a thread that holds the lock falls out of the primary component (the view it
 * installs is not primary: a partition, or its exclusion after a long pause), the hold is
 * <em>lost</em>, whether or not the majority side has granted the lock yet (this node cannot know).
 * From then on, for that thread, {@link #isHeldByCurrentThread()} is false, {@link #getHoldCount()}
 * is 0, and {@link #fencingToken()} and {@link #unlock()} throw {@link LockOwnershipLostException}
 * (an {@link IllegalMonitorStateException}); {@code unlock()} still counts the hold down and ends it
 * with the last one, so that other local threads can lock again, and {@code lock()} by that thread
 * throws the same exception until then (it must unlock first). An {@link OwnershipListener} added
 * with {@link #addOwnershipListener} is told at once, on a library thread, so a holder can stop its
 * work. A grant that had reached the node but no thread yet is dropped the same way, and the waiting
 * threads ask again when the node is back in a primary view.
 *
 * <h2>Metrics</h2>
 * {@link #metrics()} reads this lock's counters on this node (entries, messages and bytes sent,
 * messages received and dropped, local hand-offs), the distributions of its acquire-wait and hold times
 * ({@link TimeDistribution}), the local threads waiting now and the grants in the current epoch;
 * {@link LockService#nodeMetrics()} the node's view changes and time in non-primary views. They are
 * exported to Micrometer by {@link io.dlock.metrics.DlockMeterBinder} (Micrometer is an optional
 * dependency) and, with {@code dlock.metrics.jmx=true}, as JMX MBeans; see {@link io.dlock.metrics}.
 * Recording costs a few clock reads and additions per entry, under the lock's local mutex.
 */
public interface DistributedLock extends Lock {

    /** The longest lease a hold may have (365 days): a longer one is taken for a mistake and refused. */
    Duration MAX_LEASE = Duration.ofDays(365);

    /** The lock's name, as given to {@link LockService#lock(String)}. */
    String name();

    /**
     * The fencing token of the current grant: a number greater than that of every earlier grant of
     * this lock anywhere in the cluster.
     *
     * @throws IllegalMonitorStateException if the calling thread does not hold the lock
     * @throws LockOwnershipLostException   if the calling thread held the lock and lost it (a subclass of
     *                                      {@code IllegalMonitorStateException})
     */
    long fencingToken();

    /** Whether the calling thread holds this lock. */
    boolean isHeldByCurrentThread();

    /** How many times the calling thread holds this lock (0 if it does not). */
    int getHoldCount();

    /**
     * This lock's metrics on this node: counters, acquire-wait and hold time distributions, waiting
     * threads and grants in the current epoch (see {@link LockMetrics}).
     */
    LockMetrics metrics();

    /**
     * Adds a listener that is told when a hold of this lock by a thread of this node is lost (see
     * "Ownership loss" above). Adding the same listener twice has no further effect.
     *
     * @throws NullPointerException if {@code listener} is null
     */
    void addOwnershipListener(OwnershipListener listener);

    /** Removes a listener; it is not called for losses that happen after this method returns. */
    void removeOwnershipListener(OwnershipListener listener);

    /**
     * Runs {@code action} while holding this lock: {@link #lock()}, the action, {@link #unlock()} on
     * every path (see <a href="#actions">Running an action under the lock</a>).
     *
     * <pre>{@code
     * lock.withLock(() -> inventory.reserve(item));
     * }</pre>
     *
     * @param action the work, run on the calling thread
     * @throws NullPointerException if {@code action} is null (before the lock is taken)
     */
    default void withLock(Runnable action) {
        callWithLock(asLockedAction(action));
    }

    /**
     * Like {@link #withLock(Runnable)}, but waits with {@link #lockInterruptibly()}.
     *
     * @param action the work, run on the calling thread
     * @throws InterruptedException if the thread is interrupted before or while waiting for the lock; the
     *                              action has not run and the lock is not held
     * @throws NullPointerException if {@code action} is null (before the lock is taken)
     */
    default void withLockInterruptibly(Runnable action) throws InterruptedException {
        callWithLockInterruptibly(asLockedAction(action));
    }

    /**
     * Calls {@code action} while holding this lock and returns its result: {@link #lock()}, the action,
     * {@link #unlock()} on every path (see <a href="#actions">Running an action under the lock</a>). The
     * action's exception, checked or not, reaches the caller as it was thrown, never wrapped.
     *
     * <pre>{@code
     * int stock = lock.callWithLock(() -> inventory.count(item));
     * byte[] data = lock.callWithLock(() -> Files.readAllBytes(path)); // throws IOException
     * }</pre>
     *
     * @param action the work, called on the calling thread
     * @param <T>    the result's type
     * @param <X>    the checked exception the action may throw ({@link RuntimeException} if none)
     * @return what the action returned
     * @throws X                    what the action threw, after the lock was released
     * @throws NullPointerException if {@code action} is null (before the lock is taken)
     */
    default <T, X extends Exception> T callWithLock(LockedAction<T, X> action) throws X {
        Objects.requireNonNull(action, "action");
        lock();
        return callHeldThenUnlock(action);
    }

    /**
     * Like {@link #callWithLock(LockedAction)}, but waits with {@link #lockInterruptibly()}.
     *
     * @param action the work, called on the calling thread
     * @param <T>    the result's type
     * @param <X>    the checked exception the action may throw ({@link RuntimeException} if none)
     * @return what the action returned
     * @throws InterruptedException if the thread is interrupted before or while waiting for the lock; the
     *                              action has not run and the lock is not held
     * @throws X                    what the action threw, after the lock was released
     * @throws NullPointerException if {@code action} is null (before the lock is taken)
     */
    default <T, X extends Exception> T callWithLockInterruptibly(LockedAction<T, X> action)
            throws InterruptedException, X {
        Objects.requireNonNull(action, "action");
        lockInterruptibly();
        return callHeldThenUnlock(action);
    }

    /**
     * Acquires the lock for the calling thread, as {@link #lock()}, with a lease: the hold ends by itself if it is
     * not released within {@code lease} of being taken (see <a href="#leases">Leases</a>). Called by the owner, it
     * re-enters and sets the lease to end {@code lease} from now.
     *
     * @param lease how long the hold may last unless renewed or released
     * @throws NullPointerException       if {@code lease} is null
     * @throws IllegalArgumentException   if {@code lease} is zero, negative or longer than {@link #MAX_LEASE}
     * @throws LockOwnershipLostException if the calling thread has a lost hold of this lock it has not unlocked yet
     * @throws IllegalStateException      if the lock service is closed
     */
    void lock(Duration lease);

    /**
     * Acquires the lock for the calling thread if it can within {@code wait}, as {@link #tryLock(long, TimeUnit)},
     * with a lease (see <a href="#leases">Leases</a>).
     *
     * @param wait  how long to wait at most; zero or more (zero never waits for the cluster, as
     *              {@code tryLock(0, unit)}; a wait beyond about 292 years is forever)
     * @param lease how long the hold may last unless renewed or released
     * @return whether the lock was acquired
     * @throws InterruptedException       if the calling thread is interrupted before or while waiting
     * @throws NullPointerException       if {@code wait} or {@code lease} is null
     * @throws IllegalArgumentException   if {@code wait} is negative, or {@code lease} is zero, negative or longer
     *                                    than {@link #MAX_LEASE}
     * @throws LockOwnershipLostException if the calling thread has a lost hold of this lock it has not unlocked yet
     * @throws IllegalStateException      if the lock service is closed
     */
    boolean tryLock(Duration wait, Duration lease) throws InterruptedException;

    /**
     * Sets the lease of the calling thread's hold to end {@code lease} from now, measured on this node's monotonic
     * clock (see <a href="#leases">Leases</a>); a hold taken without a lease gets one.
     *
     * @param lease how long the hold may last from now unless renewed again or released
     * @throws NullPointerException         if {@code lease} is null
     * @throws IllegalArgumentException     if {@code lease} is zero, negative or longer than {@link #MAX_LEASE}
     * @throws LockOwnershipLostException   if the calling thread's hold was lost (its lease ran out, or its node was
     *                                      cut off); nothing is renewed
     * @throws IllegalMonitorStateException if the calling thread does not hold the lock
     * @throws IllegalStateException        if the lock service is closed
     */
    void renew(Duration lease);

    /**
     * Acquires the lock for an owner-free {@link LockHold}, waiting as long as it takes (see
     * <a href="#holds">Owner-free holds</a>).
     *
     * @return the hold; release it with {@link LockHold#release()}, from any thread
     * @throws InterruptedException  if the calling thread is interrupted before or while waiting; nothing is held
     * @throws IllegalStateException if the lock service is closed
     */
    LockHold acquire() throws InterruptedException;

    /**
     * Like {@link #acquire()}, with a lease: the hold ends by itself if it is not released within {@code lease} of
     * being taken (see <a href="#leases">Leases</a>).
     *
     * @param lease how long the hold may last unless renewed or released
     * @return the hold
     * @throws InterruptedException     if the calling thread is interrupted before or while waiting; nothing is held
     * @throws NullPointerException     if {@code lease} is null
     * @throws IllegalArgumentException if {@code lease} is zero, negative or longer than {@link #MAX_LEASE}
     * @throws IllegalStateException    if the lock service is closed
     */
    LockHold acquire(Duration lease) throws InterruptedException;

    /**
     * Acquires the lock for an owner-free {@link LockHold} if it can within {@code wait} (see
     * <a href="#holds">Owner-free holds</a>). A zero {@code wait} never waits for the cluster, as
     * {@code tryLock(0, unit)} does.
     *
     * @param wait how long to wait at most; zero or more (a wait beyond about 292 years is forever)
     * @return the hold, or empty if the time ran out
     * @throws InterruptedException     if the calling thread is interrupted before or while waiting; nothing is held
     * @throws NullPointerException     if {@code wait} is null
     * @throws IllegalArgumentException if {@code wait} is negative
     * @throws IllegalStateException    if the lock service is closed
     */
    Optional<LockHold> tryAcquire(Duration wait) throws InterruptedException;

    /**
     * Like {@link #tryAcquire(Duration)}, with a lease (see <a href="#leases">Leases</a>).
     *
     * @param wait  how long to wait at most; zero or more
     * @param lease how long the hold may last unless renewed or released
     * @return the hold, or empty if the time ran out
     * @throws InterruptedException     if the calling thread is interrupted before or while waiting; nothing is held
     * @throws NullPointerException     if {@code wait} or {@code lease} is null
     * @throws IllegalArgumentException if {@code wait} is negative, or {@code lease} is zero, negative or longer than
     *                                  {@link #MAX_LEASE}
     * @throws IllegalStateException    if the lock service is closed
     */
    Optional<LockHold> tryAcquire(Duration wait, Duration lease) throws InterruptedException;

    /**
     * Asks for the lock for an owner-free {@link LockHold} without blocking the calling thread, or any other, while
     * it waits (see <a href="#holds">Owner-free holds</a>).
     *
     * @return a future completed with the hold once this node holds the lock for it, on a library thread; completed
     *         exceptionally with {@link IllegalStateException} if the service closes meanwhile. Cancelling it (or
     *         completing it otherwise) abandons the request without leaking the lock.
     * @throws IllegalStateException if the lock service is closed
     */
    CompletableFuture<LockHold> acquireAsync();

    /**
     * Like {@link #acquireAsync()}, with a lease that starts when the hold is taken, not when the future's dependent
     * stages run (see <a href="#leases">Leases</a>).
     *
     * @param lease how long the hold may last unless renewed or released
     * @return a future completed with the hold, as {@link #acquireAsync()}'s
     * @throws NullPointerException     if {@code lease} is null
     * @throws IllegalArgumentException if {@code lease} is zero, negative or longer than {@link #MAX_LEASE}
     * @throws IllegalStateException    if the lock service is closed
     */
    CompletableFuture<LockHold> acquireAsync(Duration lease);

    /**
     * A new distributed condition of this lock, named {@code "condition-k"} for the k-th condition made from
     * this lock object on this node (see "Conditions" above).
     */
    @Override
    Condition newCondition();

    /**
     * The distributed condition {@code name} of this lock: every node that asks for the same name gets the
     * same condition (see "Conditions" above).
     *
     * @throws IllegalArgumentException if {@code name} is null, empty or longer than 200 characters
     */
    Condition newCondition(String name);
    /** {@code action} as a {@link LockedAction} that returns null; checked for null before any lock is taken. */
    private static LockedAction<Void, RuntimeException> asLockedAction(Runnable action) {
        Objects.requireNonNull(action, "action");
        return () -> {
            action.run();
            return null;
        };
    }

    /** Calls {@code action}, which the calling thread holds this lock for, then unlocks whatever happened. */
    private <T, X extends Exception> T callHeldThenUnlock(LockedAction<T, X> action) throws X {
        T result;
        try {
            result = action.call();
        } catch (Throwable failure) { // every path unlocks, Errors included; rethrown as is (precise rethrow)
            unlockAfter(failure);
            throw failure;
        }
        unlock();
        return result;
    }

    /** Unlocks after the action failed; an unlock failure is added to the action's, which stays the one thrown. */
    private void unlockAfter(Throwable failure) {
        try {
            unlock();
        } catch (RuntimeException | Error unlockFailure) {
            if (unlockFailure != failure) {
                failure.addSuppressed(unlockFailure);
            }
        }
    }
}
