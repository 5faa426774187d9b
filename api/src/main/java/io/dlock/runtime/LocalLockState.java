package io.dlock.runtime;

import io.dlock.DlockConfig;
import io.dlock.LockHold;
import io.dlock.LockOwnershipLostException;
import io.dlock.OwnershipLoss;
import io.dlock.TimeDistribution;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The node-local half of a distributed lock: who owns it (a thread, or an owner-free {@link RuntimeHold}), how
 * many times, who waits locally, and whether this node has a distributed request outstanding. This is the "sync"
 * object the {@link RuntimeLock} facade forwards to; the distributed protocol only ever sees
 * "request", "granted" and "release".
 *
 * <p>At most one distributed request per node is outstanding: local threads queue in arrival order
 * and only the head of the queue issues a request. A request belongs to the node, not to a thread:
 * if its thread gives up (timeout, interrupt), the next waiter adopts it; if nobody waits when the
 * grant arrives, the grant is released at once.
 *
 * <h2>Owners and waiters</h2>
 * An owner is a {@link Thread} (the {@code Lock} face: reentrant, identified by the calling thread) or a
 * {@link RuntimeHold} (a {@link LockHold}: not reentrant, identified by the hold object, released by any thread).
 * Both wait in the one queue, in arrival order. A waiting thread sleeps on a condition of its own and acts when it
 * is woken at the head. An asynchronous waiter has no thread: whoever changes the state so that the head could act
 * (a grant, a release, a waiter giving up) acts for it at once, under the mutex ({@link #wakeHead()}): it asks the
 * cluster, or takes the grant and hands the hold to the waiter's future on the {@code completions} executor, never
 * under the mutex nor on the event loop. A future completed otherwise (cancelled, timed out) gives its place up as a
 * timed-out thread does; if it had just been granted, the hand-over fails and the hold is released at once.
 *
 * <h2>Local hand-off ({@code dlock.lock.local-handoff} = H)</h2>
 * With H &gt; 0, when the last hold is released while other local threads wait, the distributed
 * grant is not released: the head waiter takes it, up to H times in a row; the holder after that
 * releases it to the cluster even if local threads still wait. A node therefore keeps one
 * distributed grant for at most H + 1 consecutive local holders. H = 0 (the default) releases after
 * every holder.
 *
 * <p><b>Fencing.</b> A hand-off makes a new holder, so it needs a new token greater than every
 * earlier one; but the protocol only promises that its next grant anywhere is greater than the
 * current protocol token F, possibly F + 1, so the runtime cannot simply add 1 locally. Instead
 * the runtime scales: the k-th holder (k = 0..H) of the grant with protocol token F gets
 * {@code F * (H + 1) + k}. Invariant: for grants F &lt; F' (every protocol grant is greater than all
 * before it), {@code F*(H+1) + k <= F*(H+1) + H < (F+1)*(H+1) <= F'*(H+1)}, so the tokens handed
 * to applications strictly increase over all holders, local hand-offs included, and
 * {@code token / (H+1)} names the distributed grant. This needs the same H on every node (like
 * {@code dlock.mutex}); with H = 0 the tokens are the protocol's. Scaled tokens that would overflow
 * (protocol tokens above {@code Long.MAX_VALUE / (H+1)}, i.e. epochs beyond about 2^31 / (H+1))
 * saturate, like {@code FencedMutexProtocol}'s epoch floor.
 *
 * <h2>Ownership loss</h2>
 * {@link #loseOwnership()} (the node fell out of the primary component with the grant) turns the
 * holder's hold into a <em>lost</em> hold: the thread no longer owns the lock, its
 * {@link #fencingToken()}, {@link #release()} and {@link #acquire} throw
 * {@link LockOwnershipLostException}, and its releases count the lost hold down; the last one ends it
 * (phase back to IDLE, the release goes to the protocol, which swallows it as fenced out). While a
 * lost hold lasts, no other local thread takes the lock: the distributed grant is not back yet.
 *
 * <h2>Leases</h2>
 * A hold may have a lease of its own ({@link HoldLease}): it starts when the grant is taken, a re-entry or a renewal
 * with a lease starts it again from then. Every call that reads or changes the holder first checks the clock
 * ({@link #expireIfDue()}), and the lease's timer does the same when it fires, so a hold never outlives its lease by
 * more than the time to notice. A hold whose lease ran out becomes a lost hold that does <em>not</em> keep the grant
 * ({@link LostHolds}): the grant goes on at once, as after a release (to the next local waiter, a hand-off with a
 * higher token, or back to the cluster), and {@code holdLapsed} is told. Its owner's releases then only count it
 * down.
 *
 * <h2>Epoch lease</h2>
 * A grant is taken by a local thread (from the protocol, by a local hand-off, or a token entered again) only while
 * the node's epoch lease ({@link LeaseCheck#mayGrant()}) lets it act; otherwise the head waiter waits, its timeout
 * running, until the lease runs again. A holder whose hold lease ran out ({@link LeaseCheck#holdValid()}: its node
 * was stopped or cut off for longer than the lease) loses its hold as above, found by its {@link #fencingToken()}
 * or {@link #release()} or by the lease's timer ({@link #holdLeaseLapsed()}); its release is not swallowed.
 *
 * <h2>Times</h2>
 * Acquire-wait and hold times (see {@link io.dlock.LockMetrics}) are recorded under the mutex into
 * {@link TimeRecorder}s: the clock is read when an acquisition starts waiting, when it succeeds (also
 * the hold's start) and when the hold ends.
 */
final class LocalLockState {

    /** Where the distributed request stands. */
    private enum Phase {
        /** No request outstanding, the lock is not held by this node. */
        IDLE,
        /** A request is outstanding. */
        REQUESTED,
        /** {@code tryLock(0)}: the event loop asks the protocol whether it can enter locally; nothing was sent. */
        TRYING,
        /** The grant arrived; the head waiter has not taken it yet. */
        GRANTED,
        /** A local thread holds the lock. */
        HELD
    }

    /**
     * Every this many acquisitions in a row that the node granted itself while the thread asked, with no wait
     * (a token or the coordinator here, nobody else queued), the thread yields its processor once after taking
     * the lock. A thread that locks and unlocks in a loop without ever blocking would otherwise keep the threads
     * that bring other nodes' requests (the transport's) off a busy processor for its whole time slice, and its
     * node would take the lock thousands of times in a row. On an idle processor the yield returns at once.
     */
    private static final int YIELD_EVERY = 16;

    private final ReentrantLock mutex = new ReentrantLock();
    /**
     * The local threads waiting, in arrival order, linked through {@link Waiter#next}: the first and the last, both
     * null while none waits. Only the head acts, so only the head is woken. A list through the waiters themselves,
     * because every live lock in use here has a local state: no queue object at rest, and none made per wait.
     * Changed through {@link #enqueue}, {@link #dequeue} and {@link #pollHead}; guarded by the mutex.
     */
    private Waiter firstWaiter;
    private Waiter lastWaiter;
    /** The lock's distributed side: one object for all its calls (every live lock in use here has one). */
    private final Distributed distributed;
    /** Whether {@link Distributed#tryLocally()} is supported (if not, tryLock(0) asks the cluster). */
    private final boolean localTry;
    private final String lockName;
    /** H: hand-offs allowed per distributed grant. */
    private final int maxHandoffs;
    /** The node's epoch lease: whether a grant may be taken, whether a hold is still exclusive. */
    private final LeaseCheck lease;
    /** The head waiter asked the lease to wake it once a grant may be taken again. */
    private boolean leaseWaitAsked;
    private static final String FELL_OUT = "when its node fell out of the primary component";
    private static final String LEASE_RAN_OUT = "when its node's epoch lease ran out (the node was stopped or cut off"
            + " for longer than " + DlockConfig.LEASE_MS + ")";
    private static final String LEASE_EXPIRED = "when its lease ran out before it was released";

    /**
     * Guarded by the mutex; volatile only so that a thread spinning for its grant ({@link GrantSpin}) sees it change
     * without taking the mutex.
     */
    private volatile Phase phase = Phase.IDLE;
    /** The holder: a {@link Thread} or a {@link RuntimeHold}; null if none (see the class comment). */
    private Object owner;
    private int holds;
    private long grantedFence;
    private long heldFence;
    private String closedReason;
    /** Hand-offs made under the current distributed grant. */
    private int handoffs;
    private long totalHandoffs;
    /** The lost holds whose owners have not released them fully yet. */
    private final LostHolds lost = new LostHolds(); // 16 bytes: its map is made at the first loss
    /** The current hold's lease (see "Leases" in the class comment); null until the first hold with a lease. */
    private HoldLease holdLease;
    /** When the current owner took the lock ({@link System#nanoTime()}). */
    private long heldSince;
    /** Acquisitions in a row on this node granted while the thread asked, with no wait (see {@link #YIELD_EVERY}). */
    private int grantsWithoutWaiting;
    private final TimeRecorder waitTimes = new TimeRecorder();
    private final TimeRecorder holdTimes = new TimeRecorder();

    /** Where asynchronous acquisitions are completed (never under the mutex, never on the event loop), and leases
     * timed. */
    private final HoldExecutors executors;
    /** How the thread that asked the cluster waits for its grant before it parks. */
    private final GrantSpin grantSpin;

    /**
     * A waiter: a thread and the condition it sleeps on (one per waiter, so a wake-up reaches only the head), or
     * an asynchronous acquisition (no condition: a hold and the future it completes).
     */
    private static final class Waiter {
        /** The thread, or the {@link RuntimeHold} that waits. */
        final Object owner;
        /** The waiting thread's condition; null for an asynchronous waiter. */
        final Condition wakeUp;
        /** What an asynchronous waiter completes with its hold; null for a thread. */
        final CompletableFuture<LockHold> future;
        /** When it began to wait ({@link System#nanoTime()}). */
        final long since;
        /** The lease its hold gets, in nanoseconds, or {@link HoldLease#NONE}. */
        final long leaseNanos;
        /** The waiter queued after this one; guarded by the mutex. */
        Waiter next;

        Waiter(Object owner, Condition wakeUp, CompletableFuture<LockHold> future, long since, long leaseNanos) {
            this.owner = owner;
            this.wakeUp = wakeUp;
            this.future = future;
            this.since = since;
            this.leaseNanos = leaseNanos;
        }
    }

    /**
     * What a condition's await released: the hold count, and the lease's length ({@link HoldLease#NONE} if none),
     * which the hold it reacquires gets afresh.
     */
    record HeldForWait(int holds, long leaseNanos) {
    }

    /** A hold that was taken away: its owner (a thread or a {@link RuntimeHold}), its token, and why. */
    record LostHold(Object owner, long fencingToken, OwnershipLoss.Cause cause) {

        /** A hold lost because its node was cut off. */
        LostHold(Object owner, long fencingToken) {
            this(owner, fencingToken, OwnershipLoss.Cause.NODE_CUT_OFF);
        }

        /** What the lock's ownership listeners are told of it, in the view of {@code viewEpoch}. */
        OwnershipLoss toLoss(String lockName, long viewEpoch) {
            return owner instanceof Thread thread
                    ? new OwnershipLoss(lockName, fencingToken, thread, viewEpoch, null, cause)
                    : new OwnershipLoss(lockName, fencingToken, null, viewEpoch, (RuntimeHold) owner, cause);
        }
    }

    /**
     * @param issueRequest queues a distributed request on the lock's event loop; never blocks
     * @param issueRelease queues a distributed release on the lock's event loop; never blocks
     */
    LocalLockState(Runnable issueRequest, Runnable issueRelease) {
        this("lock", issueRequest, issueRelease, 0);
    }

    /**
     * @param issueRequest queues a distributed request on the lock's event loop; never blocks
     * @param issueRelease queues a distributed release on the lock's event loop; never blocks
     * @param maxHandoffs  H, local hand-offs allowed per distributed grant (0 = none)
     */
    LocalLockState(Runnable issueRequest, Runnable issueRelease, int maxHandoffs) {
        this("lock", issueRequest, issueRelease, maxHandoffs);
    }

    /**
     * @param lockName     the lock's name, for error messages
     * @param issueRequest queues a distributed request on the lock's event loop; never blocks
     * @param issueRelease queues a distributed release on the lock's event loop; never blocks
     * @param maxHandoffs  H, local hand-offs allowed per distributed grant (0 = none)
     */
    LocalLockState(String lockName, Runnable issueRequest, Runnable issueRelease, int maxHandoffs) {
        this(lockName, issueRequest, issueRelease, null, maxHandoffs);
    }

    /**
     * @param lockName      the lock's name, for error messages
     * @param issueRequest  queues a distributed request on the lock's event loop; never blocks
     * @param issueRelease  queues a distributed release on the lock's event loop; never blocks
     * @param issueLocalTry queues a local entry attempt on the event loop, answered by {@link #onGranted} or
     *                      {@link #onLocalTryRefused}; never blocks
     * @param maxHandoffs   H, local hand-offs allowed per distributed grant (0 = none)
     */
    LocalLockState(String lockName, Runnable issueRequest, Runnable issueRelease, Runnable issueLocalTry,
                   int maxHandoffs) {
        this(lockName, issueRequest, issueRelease, () -> {
            issueRelease.run();
            issueRequest.run();
        }, issueLocalTry, maxHandoffs);
    }

    /**
     * @param lockName               the lock's name, for error messages
     * @param issueRequest           queues a distributed request on the event loop; never blocks
     * @param issueRelease           queues a distributed release on the event loop; never blocks
     * @param issueReleaseAndRequest queues a release and then a request as one event (a holder released while
     *                               local threads wait: the node asks again at once); never blocks
     * @param issueLocalTry          queues a local entry attempt on the event loop, answered by {@link #onGranted}
     *                               or {@link #onLocalTryRefused}; never blocks
     * @param maxHandoffs            H, local hand-offs allowed per distributed grant (0 = none)
     */
    LocalLockState(String lockName, Runnable issueRequest, Runnable issueRelease, Runnable issueReleaseAndRequest,
                   Runnable issueLocalTry, int maxHandoffs) {
        this(lockName, issueRequest, issueRelease, issueReleaseAndRequest, issueLocalTry, maxHandoffs,
                LeaseCheck.ALWAYS, lost -> { }, HoldExecutors.INLINE);
    }

    /**
     * @param lockName               the lock's name, for error messages
     * @param issueRequest           queues a distributed request on the event loop; never blocks
     * @param issueRelease           queues a distributed release on the event loop; never blocks
     * @param issueReleaseAndRequest queues a release and then a request as one event; never blocks
     * @param issueLocalTry          queues a local entry attempt on the event loop; never blocks
     * @param maxHandoffs            H, local hand-offs allowed per distributed grant (0 = none)
     * @param lease                  the node's epoch lease: a grant is taken only while it lets the node act, and
     *                               a hold it cannot vouch for any more is lost
     * @param holdLapsed             told of each hold lost that way (called with this state's mutex held; must
     *                               not block)
     * @param executors              completes asynchronous acquisitions, times leases
     */
    LocalLockState(String lockName, Runnable issueRequest, Runnable issueRelease, Runnable issueReleaseAndRequest,
                   Runnable issueLocalTry, int maxHandoffs, LeaseCheck lease, Consumer<LostHold> holdLapsed,
                   HoldExecutors executors) {
        this(lockName, new RunnableSide(issueRequest, issueRelease, issueReleaseAndRequest, issueLocalTry, holdLapsed),
                issueLocalTry != null, maxHandoffs, lease, executors, GrantSpin.NEVER);
    }

    /**
     * @param lockName    the lock's name, for error messages
     * @param distributed the lock's distributed side
     * @param localTry    whether {@code distributed} supports {@link Distributed#tryLocally()}
     * @param maxHandoffs H, local hand-offs allowed per distributed grant (0 = none)
     * @param lease       the node's epoch lease: a grant is taken only while it lets the node act, and a hold it
     *                    cannot vouch for any more is lost (and {@link Distributed#holdLapsed told})
     * @param executors   completes asynchronous acquisitions, times leases
     * @param grantSpin   how a thread that asked the cluster waits for its grant before it parks
     */
    LocalLockState(String lockName, Distributed distributed, boolean localTry, int maxHandoffs, LeaseCheck lease,
                   HoldExecutors executors, GrantSpin grantSpin) {
        if (maxHandoffs < 0) {
            throw new IllegalArgumentException("maxHandoffs must be >= 0, got " + maxHandoffs);
        }
        this.distributed = distributed;
        this.localTry = localTry;
        this.lockName = lockName;
        this.maxHandoffs = maxHandoffs;
        this.lease = lease;
        this.executors = executors;
        this.grantSpin = grantSpin;
    }

    /** The lock's distributed side, as this state asks it: every call queues an event and never blocks. */
    interface Distributed {

        /** Queues a distributed request on the event loop. */
        void request();

        /** Queues a distributed release on the event loop. */
        void release();

        /** Queues a release and then a request as one event, so that their messages leave together. */
        void releaseAndRequest();

        /** Queues a local entry attempt (tryLock(0)) on the event loop. */
        void tryLocally();

        /** Told of a hold that the lease can no longer vouch for (with this state's mutex held; must not block). */
        void holdLapsed(LostHold lost);
    }

    /** The distributed side as separate callbacks (unit tests of the local state). */
    private record RunnableSide(Runnable onRequest, Runnable onRelease, Runnable onReleaseAndRequest,
                                Runnable onLocalTry, Consumer<LostHold> onLapsed) implements Distributed {

        @Override
        public void request() {
            onRequest.run();
        }

        @Override
        public void release() {
            onRelease.run();
        }

        @Override
        public void releaseAndRequest() {
            onReleaseAndRequest.run();
        }

        @Override
        public void tryLocally() {
            onLocalTry.run();
        }

        @Override
        public void holdLapsed(LostHold lost) {
            onLapsed.accept(lost);
        }
    }

    /**
     * Acquires for the calling thread.
     *
     * @param interruptible whether an interrupt aborts the wait with {@link InterruptedException}
     * @param timeoutNanos  how long to wait at most; negative = forever
     * @return true if acquired, false if the time ran out
     */
    boolean acquire(boolean interruptible, long timeoutNanos) throws InterruptedException {
        return acquire(Thread.currentThread(), interruptible, timeoutNanos, HoldLease.NONE);
    }

    /**
     * Acquires for {@code me}, the calling thread or a {@link RuntimeHold} that the calling thread waits for.
     *
     * @param interruptible whether an interrupt aborts the wait with {@link InterruptedException}
     * @param timeoutNanos  how long to wait at most; negative = forever
     * @param leaseNanos    the hold's lease, from when it is taken (a re-entry: from now), or {@link HoldLease#NONE}
     *                      (a re-entry keeps the lease it has)
     * @return true if acquired, false if the time ran out
     */
    boolean acquire(Object me, boolean interruptible, long timeoutNanos, long leaseNanos) throws InterruptedException {
        boolean yieldAfter = false;
        mutex.lock();
        try {
            expireIfDue();
            if (owner == me) {
                if (holds == Integer.MAX_VALUE) {
                    throw new Error("maximum lock count exceeded");
                }
                holds++;
                if (leaseNanos != HoldLease.NONE) {
                    startLease(leaseNanos, System.nanoTime());
                }
                return true;
            }
            LostHolds.Entry lostHold = lost.get(me);
            if (lostHold != null) {
                throw lost(me, lostHold, "cannot lock it again before it unlocks the lost hold");
            }
            requireOpen();
            if (interruptible && Thread.interrupted()) {
                throw new InterruptedException();
            }
            long start = System.nanoTime();
            Waiter waiter = new Waiter(me, mutex.newCondition(), null, start, leaseNanos);
            if (timeoutNanos == 0 && localTry) {
                return tryLocally(waiter);
            }
            long deadline = timeoutNanos >= 0 ? start + timeoutNanos : 0;
            enqueue(waiter);
            boolean asked = false;
            try {
                while (true) {
                    requireOpen();
                    if (firstWaiter == waiter && owner == null) {
                        if (phase == Phase.GRANTED && !lease.mayGrant()) {
                            // the epoch lease ran out (a pause, a cut): the grant waits until the view is known current
                            if (!leaseWaitAsked) {
                                leaseWaitAsked = true;
                                lease.whenGrantable(this::leaseRenewed);
                                continue; // it may have been renewed meanwhile
                            }
                        } else if (phase == Phase.GRANTED) {
                            takeGrant(waiter);
                            yieldAfter = asked && ++grantsWithoutWaiting % YIELD_EVERY == 0;
                            if (!asked) {
                                grantsWithoutWaiting = 0;
                            }
                            return true;
                        }
                        if (phase == Phase.IDLE) {
                            phase = Phase.REQUESTED;
                            distributed.request();
                            asked = true;
                            continue; // the request may have run here and been granted at once (a token held here)
                        }
                    }
                    if (asked) {
                        asked = false;
                        if (phase == Phase.REQUESTED && grantSpin.spins()) {
                            spinForGrant(deadline);
                            continue; // the mutex was let go: look again before parking, or a grant's signal is lost
                        }
                    }
                    if (timeoutNanos < 0) {
                        if (interruptible) {
                            waiter.wakeUp.await();
                        } else {
                            waiter.wakeUp.awaitUninterruptibly();
                        }
                    } else {
                        long remaining = deadline - System.nanoTime();
                        if (remaining <= 0) {
                            giveUp(waiter);
                            return false;
                        }
                        waiter.wakeUp.awaitNanos(remaining);
                    }
                }
            } catch (InterruptedException | RuntimeException e) {
                giveUp(waiter);
                throw e;
            }
        } finally {
            mutex.unlock();
            if (yieldAfter) {
                Thread.yield();
            }
        }
    }

    /**
     * The head waiter has just asked the cluster: spins for the grant with the mutex let go (so that the grant can
     * be made), see {@link GrantSpin}. Called with the mutex held, which it holds again on return; the caller must
     * then look at the state again before it parks: a grant made meanwhile signalled nobody.
     */
    private void spinForGrant(long deadline) {
        mutex.unlock();
        try {
            grantSpin.spinWhile(this::requestOutstanding, deadline);
        } finally {
            mutex.lock();
        }
    }

    /** Whether the request is still unanswered; read without the mutex by a spinning thread. */
    private boolean requestOutstanding() {
        return phase == Phase.REQUESTED;
    }

    /**
     * {@code tryLock(0)}: succeeds only if this node can enter now without asking the cluster. Fails at once
     * if another local thread holds or waits for the lock or a request is outstanding; otherwise asks the
     * protocol on the event loop (local work, no message) and waits for its answer. Called with the mutex held.
     */
    private boolean tryLocally(Waiter me) {
        if (owner != null || firstWaiter != null || phase != Phase.IDLE) {
            return false;
        }
        enqueue(me);
        phase = Phase.TRYING;
        distributed.tryLocally();
        while (phase == Phase.TRYING && closedReason == null) {
            me.wakeUp.awaitUninterruptibly();
        }
        if (phase == Phase.GRANTED && firstWaiter == me) {
            if (lease.mayGrant()) {
                takeGrant(me);
                return true;
            }
            dequeue(me);
            if (firstWaiter == null) {
                abandon(); // entered locally, but the epoch lease ran out meanwhile: give it back
            }
            wakeHead();
            requireOpen();
            return false;
        }
        dequeue(me);
        wakeHead(); // threads that queued meanwhile: the head now asks the cluster
        requireOpen();
        return false;
    }

    /** The head waiter {@code head} takes the pending grant: it holds the lock once. Called with the mutex held. */
    private void takeGrant(Waiter head) {
        pollHead();
        owner = head.owner;
        holds = 1;
        heldFence = grantedFence;
        phase = Phase.HELD;
        heldSince = System.nanoTime();
        waitTimes.record(heldSince - head.since);
        startLease(head.leaseNanos, heldSince);
    }

    /**
     * Queues an asynchronous acquisition for {@code hold}: the returned future is completed with it once it holds
     * the lock, on the {@code completions} executor. Completing the future otherwise (cancel, a timeout) while it
     * waits gives its place up; a grant that reached it meanwhile is released (see the class comment).
     *
     * @throws IllegalStateException if the node is closed
     */
    CompletableFuture<LockHold> acquireAsync(RuntimeHold hold, long leaseNanos) {
        CompletableFuture<LockHold> future = new CompletableFuture<>();
        Waiter waiter = new Waiter(hold, null, future, System.nanoTime(), leaseNanos);
        mutex.lock();
        try {
            requireOpen();
            enqueue(waiter);
            if (firstWaiter == waiter) {
                wakeHead();
            }
        } finally {
            mutex.unlock();
        }
        future.whenComplete((result, failure) -> {
            if (result != hold) {
                abandonAsync(waiter);
            }
        });
        return future;
    }

    /** An asynchronous waiter's future was completed by someone else: it gives its place up if it still waits. */
    private void abandonAsync(Waiter waiter) {
        mutex.lock();
        try {
            if (isQueued(waiter)) {
                giveUp(waiter);
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Acts for an asynchronous head waiter, with the mutex held: takes a pending grant and hands the hold over, or
     * asks the cluster if nothing is outstanding; else nothing (a grant or a release will come back here).
     */
    private void serveAsync(Waiter head) {
        if (closedReason != null || owner != null) {
            return;
        }
        if (phase == Phase.GRANTED) {
            if (!lease.mayGrant()) {
                if (!leaseWaitAsked) {
                    leaseWaitAsked = true;
                    lease.whenGrantable(this::leaseRenewed); // may run at once, and come back here
                }
                return;
            }
            takeGrant(head);
            RuntimeHold hold = (RuntimeHold) head.owner;
            complete(() -> {
                if (!head.future.complete(hold)) {
                    releaseUnwanted(hold); // cancelled as it was granted: nobody will release it
                }
            });
        } else if (phase == Phase.IDLE) {
            phase = Phase.REQUESTED;
            distributed.request(); // may be granted here at once: onGranted comes back here
        }
    }

    /** Releases a hold whose future had been completed otherwise when it was granted; it may be gone already. */
    private void releaseUnwanted(RuntimeHold hold) {
        try {
            release(hold);
        } catch (IllegalMonitorStateException | IllegalStateException gone) {
            // lost or closed meanwhile: the loss or the close has dealt with it
        }
    }

    /** Runs {@code completion} on the completions executor, or on a common one once the node's is shut down. */
    private void complete(Runnable completion) {
        try {
            executors.completions().execute(completion);
        } catch (RejectedExecutionException closing) {
            ForkJoinPool.commonPool().execute(completion);
        }
    }

    /** Called on the event loop when the protocol could not enter locally ({@code tryLock(0)}). */
    void onLocalTryRefused() {
        mutex.lock();
        try {
            if (phase == Phase.TRYING) {
                phase = Phase.IDLE;
                wakeHead();
            }
        } finally {
            mutex.unlock();
        }
    }

    /** Like {@link #acquire} with a timeout, but an interrupt makes it return false and stays set. */
    boolean tryAcquireUninterruptibly(long timeoutNanos) {
        if (Thread.currentThread().isInterrupted()) {
            return isHeldByCurrentThread() && reenter();
        }
        try {
            return acquire(false, timeoutNanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private boolean reenter() {
        mutex.lock();
        try {
            holds++;
            return true;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Releases one hold of the calling thread; the last one releases the distributed lock.
     *
     * @throws IllegalMonitorStateException if the calling thread does not hold the lock
     */
    void release() {
        release(Thread.currentThread());
    }

    /**
     * Releases one hold of {@code me} (the calling thread, or a {@link RuntimeHold} on any thread); the last one
     * releases the distributed lock.
     *
     * @throws IllegalMonitorStateException if {@code me} does not hold the lock
     */
    void release(Object me) {
        mutex.lock();
        try {
            expireIfDue();
            LostHolds.Entry lostHold = lost.get(me);
            if (lostHold != null) {
                if (lost.countDown(me, lostHold) && lostHold.keepsGrant) {
                    phase = Phase.IDLE;
                    if (closedReason == null) {
                        distributed.release();
                    }
                    wakeHead();
                }
                throw lost(me, lostHold,
                        "releasing it ended the local hold, but another node may have held the lock meanwhile");
            }
            if (owner != me) {
                throw notHolder(me);
            }
            if (--holds == 0) {
                if (closedReason == null && !lease.holdValid()) {
                    long token = heldFence;
                    handoffs = maxHandoffs; // a grant the node cannot vouch for goes back to the cluster
                    endHold();
                    distributed.holdLapsed(new LostHold(me, token));
                    throw lost(me, token, LEASE_RAN_OUT,
                            "releasing it ended the hold, but another node may have held the lock meanwhile");
                }
                endHold();
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Throws what {@link #release()} throws for the calling thread if it neither holds the lock nor has a lost
     * hold to count down; changes nothing.
     *
     * @throws IllegalMonitorStateException if the calling thread does not hold the lock
     */
    void requireReleasable() {
        mutex.lock();
        try {
            Thread me = Thread.currentThread();
            expireIfDue();
            if (owner != me && lost.get(me) == null) {
                throw notHolder(me);
            }
        } finally {
            mutex.unlock();
        }
    }

    /** A non-holder's unlock; called with the mutex held. */
    private IllegalMonitorStateException notHolder(Object me) {
        if (me instanceof RuntimeHold) {
            return new IllegalMonitorStateException(me + " does not hold lock '" + lockName + "': it was released"
                    + " already, or the lock service closed");
        }
        return new IllegalMonitorStateException(describe(me) + " does not hold this lock"
                + (owner == null ? "" : "; it is held by " + describe(owner)));
    }

    /** An owner as error messages name it: "thread NAME" or the hold. */
    private static String describe(Object owner) {
        return owner instanceof Thread t ? "thread " + t.getName() : String.valueOf(owner);
    }

    /**
     * The last hold ended: hands the grant to the next local waiter, or releases it; in that case, if local
     * threads wait, the node asks again at once on their behalf (the request is the node's, not a thread's), so
     * the head waiter is woken once, by the grant, and not first to ask; the release and the request are one
     * event, so messages of both to the same node leave in one frame. Called with the mutex held.
     */
    private void endHold() {
        holdTimes.record(System.nanoTime() - heldSince);
        owner = null;
        clearLease();
        if (closedReason == null && handoffs < maxHandoffs && firstWaiter != null && lease.mayGrant()) {
            // local hand-off: the head waiter becomes the next holder of the same grant
            handoffs++;
            totalHandoffs++;
            grantedFence = heldFence == Long.MAX_VALUE ? heldFence : heldFence + 1;
            phase = Phase.GRANTED;
            wakeHead();
            return;
        }
        phase = Phase.IDLE;
        if (closedReason == null) {
            if (firstWaiter == null) {
                distributed.release();
            } else {
                phase = Phase.REQUESTED;
                distributed.releaseAndRequest(); // may be granted here at once; onGranted then wakes the head
            }
        }
        if (phase == Phase.IDLE) {
            wakeHead();
        }
    }

    /**
     * For a condition's await, signal or signalAll: the calling thread must hold the lock.
     *
     * @throws LockOwnershipLostException   if the calling thread's hold was lost
     * @throws IllegalMonitorStateException if it does not hold the lock
     */
    void requireHeldForCondition(String operation) {
        mutex.lock();
        try {
            Thread me = Thread.currentThread();
            expireIfDue();
            LostHolds.Entry lostHold = lost.get(me);
            if (lostHold != null) {
                throw lost(me, lostHold, "it cannot " + operation + " on a condition of it");
            }
            if (owner != me) {
                throw new IllegalMonitorStateException("thread " + me.getName() + " does not hold lock '" + lockName
                        + "', so it cannot " + operation + " on a condition of it");
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * For a condition's await: releases every hold of the calling thread at once, as the last
     * {@link #release()} would, and returns how many there were and the length of the hold's lease.
     *
     * @throws IllegalMonitorStateException if the calling thread does not hold the lock
     */
    HeldForWait releaseForWait() {
        mutex.lock();
        try {
            expireIfDue();
            if (owner != Thread.currentThread()) {
                throw new IllegalMonitorStateException("thread " + Thread.currentThread().getName()
                        + " does not hold lock '" + lockName + "'");
            }
            HeldForWait released = new HeldForWait(holds, leaseLength());
            holds = 0;
            endHold();
            return released;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * After a condition's wait: acquires the lock again, uninterruptibly (an interrupt stays set), and
     * restores the hold count of {@link #releaseForWait()} and gives the hold a fresh lease of the same length.
     */
    void reacquireAfterWait(HeldForWait before) {
        boolean interrupted = Thread.interrupted();
        try {
            acquire(Thread.currentThread(), false, -1, before.leaseNanos());
        } catch (InterruptedException e) {
            throw new AssertionError("an uninterruptible acquire was interrupted", e);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        mutex.lock();
        try {
            if (owner == Thread.currentThread()) {
                holds = before.holds();
            }
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Uses up the current grant's local hand-offs: its holder is the last one, and the lock goes back to
     * the cluster on its release. Called when the node leaves the primary component, where a grant may
     * already be superseded by one on the majority side: handing it on would add holders there.
     */
    void endHandoffs() {
        mutex.lock();
        try {
            handoffs = maxHandoffs;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * The node fell out of the primary component while the protocol had granted this node's request:
     * the grant may be superseded on the majority side. A hold becomes a lost hold (see the class
     * comment); a grant no thread has taken yet is dropped, its release issued (the protocol swallows
     * it) and the waiters ask again. Called on the event loop.
     *
     * @return the hold that was lost, or null if no thread held the lock
     */
    LostHold loseOwnership() {
        mutex.lock();
        try {
            if (closedReason != null) {
                return null;
            }
            if (phase == Phase.HELD && owner != null) {
                return loseHold(FELL_OUT);
            }
            if (phase == Phase.GRANTED) {
                phase = Phase.IDLE;
                distributed.release();
                wakeHead();
            }
            return null;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * The owner's hold becomes a lost hold: the thread no longer owns the lock, and its unlocks count the
     * lost hold down (the last one releases the grant). Called with the mutex held, with an owner.
     */
    private LostHold loseHold(String cause) {
        LostHold lostHold = new LostHold(owner, heldFence);
        holdTimes.record(System.nanoTime() - heldSince); // the hold ends here for the metrics
        lost.add(owner, holds, heldFence, cause, true);
        owner = null;
        holds = 0;
        clearLease();
        return lostHold;
    }

    /**
     * If the holder's lease has run out, its hold ends as a lost hold that gives the grant back at once (to the next
     * local waiter or the cluster, as a release would), and {@code holdLapsed} is told. Called with the mutex held,
     * before anything that reads or changes the holder.
     */
    private void expireIfDue() {
        if (owner == null || closedReason != null || !leaseExpired(System.nanoTime())) {
            return;
        }
        Object expired = owner;
        long token = heldFence;
        lost.add(expired, holds, token, LEASE_EXPIRED, false);
        holds = 0;
        endHold();
        distributed.holdLapsed(new LostHold(expired, token, OwnershipLoss.Cause.LEASE_EXPIRED));
    }

    /** The lease timer fired (on the node's worker): ends the hold if its lease has run out and was not renewed. */
    private void leaseDue() {
        mutex.lock();
        try {
            expireIfDue();
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Sets {@code me}'s lease to end {@code leaseNanos} from now.
     *
     * @throws LockOwnershipLostException   if {@code me}'s hold was lost (its lease ran out already included)
     * @throws IllegalMonitorStateException if {@code me} does not hold the lock
     */
    void renew(Object me, long leaseNanos) {
        mutex.lock();
        try {
            expireIfDue();
            LostHolds.Entry lostHold = lost.get(me);
            if (lostHold != null) {
                throw lost(me, lostHold, "its lease cannot be renewed");
            }
            if (owner != me) {
                throw me instanceof RuntimeHold ? notHolder(me) : new IllegalMonitorStateException(describe(me)
                        + " does not hold lock '" + lockName + "', so it has no lease to renew");
            }
            startLease(leaseNanos, System.nanoTime());
        } finally {
            mutex.unlock();
        }
    }

    /**
     * The node's hold lease ran out (told by the lease's timer): a hold it can no longer vouch for becomes a
     * lost hold, and {@code holdLapsed} is told. Nothing happens if no thread holds the lock or the lease runs
     * again meanwhile.
     */
    void holdLeaseLapsed() {
        mutex.lock();
        try {
            if (closedReason == null && phase == Phase.HELD && owner != null && !lease.holdValid()) {
                distributed.holdLapsed(loseHold(LEASE_RAN_OUT));
            }
        } finally {
            mutex.unlock();
        }
    }

    /** The lease lets the node act again: the head waiter may take the grant that waited for it. */
    private void leaseRenewed() {
        mutex.lock();
        try {
            leaseWaitAsked = false;
            wakeHead();
        } finally {
            mutex.unlock();
        }
    }

    /** Called on the event loop when the protocol grants the outstanding request. */
    void onGranted(long fencingToken) {
        mutex.lock();
        try {
            if (closedReason != null) {
                return;
            }
            if (phase != Phase.REQUESTED && phase != Phase.TRYING) {
                throw new IllegalStateException("grant without an outstanding request (phase " + phase + ")");
            }
            grantedFence = scale(fencingToken);
            handoffs = 0;
            if (firstWaiter == null) {
                abandon();
            } else {
                phase = Phase.GRANTED;
                wakeHead();
            }
        } finally {
            mutex.unlock();
        }
    }

    /** The node leaves the cluster: waiting threads fail, and the lock is no longer held. */
    void close(String reason) {
        mutex.lock();
        try {
            closedReason = reason;
            owner = null;
            holds = 0;
            clearLease();
            lost.clear();
            phase = Phase.IDLE;
            for (Waiter waiter = firstWaiter; waiter != null; ) {
                Waiter following = waiter.next; // read first: a completion may take the waiter out of the queue
                if (waiter.wakeUp != null) {
                    waiter.wakeUp.signal(); // each fails with "closed"
                } else {
                    IllegalStateException closed = new IllegalStateException("lock service closed: " + reason);
                    Waiter failed = waiter;
                    complete(() -> failed.future.completeExceptionally(closed)); // it then leaves the queue
                }
                waiter = following;
            }
        } finally {
            mutex.unlock();
        }
    }

    // ---- the current hold's lease: made at the first hold with a lease (most locks' holds have none) ----

    /** Starts the current hold's lease (see {@link HoldLease#start}); with the mutex held. */
    private void startLease(long lengthNanos, long now) {
        if (holdLease == null) {
            if (lengthNanos == HoldLease.NONE) {
                return; // no lease, none before
            }
            holdLease = new HoldLease(executors, this::leaseDue);
        }
        holdLease.start(lengthNanos, now);
    }

    /** The current hold has no lease any more; with the mutex held. */
    private void clearLease() {
        if (holdLease != null) {
            holdLease.clear();
        }
    }

    /** The current hold's lease length, or {@link HoldLease#NONE}; with the mutex held. */
    private long leaseLength() {
        return holdLease == null ? HoldLease.NONE : holdLease.length();
    }

    /** Whether the current hold's lease has run out at {@code now}; with the mutex held. */
    private boolean leaseExpired(long now) {
        return holdLease != null && holdLease.expired(now);
    }

    boolean isHeldByCurrentThread() {
        return isHeldBy(Thread.currentThread());
    }

    /** Whether {@code me} (a thread or a {@link RuntimeHold}) holds the lock now. */
    boolean isHeldBy(Object me) {
        mutex.lock();
        try {
            expireIfDue();
            return owner == me;
        } finally {
            mutex.unlock();
        }
    }

    int holdCount() {
        mutex.lock();
        try {
            expireIfDue();
            return owner == Thread.currentThread() ? holds : 0;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * @throws IllegalStateException        if the node is closed
     * @throws IllegalMonitorStateException if the calling thread does not hold the lock
     */
    long fencingToken() {
        return fencingToken(Thread.currentThread());
    }

    /**
     * The token of {@code me}'s hold (the calling thread, or a {@link RuntimeHold}).
     *
     * @throws IllegalStateException        if the node is closed
     * @throws IllegalMonitorStateException if {@code me} does not hold the lock
     */
    long fencingToken(Object me) {
        mutex.lock();
        try {
            requireOpen();
            expireIfDue();
            LostHolds.Entry lostHold = lost.get(me);
            if (lostHold != null) {
                throw lost(me, lostHold, "its fencing token " + lostHold.fencingToken + " may be superseded");
            }
            if (owner != me) {
                throw me instanceof RuntimeHold ? notHolder(me) : new IllegalMonitorStateException(describe(me)
                        + " does not hold this lock, so it has no fencing token");
            }
            if (closedReason == null && !lease.holdValid()) {
                distributed.holdLapsed(loseHold(LEASE_RAN_OUT));
                throw lost(me, heldFenceOf(me), LEASE_RAN_OUT, "its fencing token " + heldFenceOf(me)
                        + " may be superseded");
            }
            return heldFence;
        } finally {
            mutex.unlock();
        }
    }

    /** Local hand-offs made so far (grants passed between local threads without a release). */
    long localHandoffs() {
        mutex.lock();
        try {
            return totalHandoffs;
        } finally {
            mutex.unlock();
        }
    }

    /** The acquire-wait times of the successful acquisitions so far (see the class comment). */
    TimeDistribution acquireWaitTimes() {
        mutex.lock();
        try {
            return waitTimes.snapshot();
        } finally {
            mutex.unlock();
        }
    }

    /** The times of the holds that ended so far (see the class comment). */
    TimeDistribution holdTimes() {
        mutex.lock();
        try {
            return holdTimes.snapshot();
        } finally {
            mutex.unlock();
        }
    }

    /** The first holder's token of the grant with protocol token {@code fence}: fence * (H + 1), saturated. */
    private long scale(long fence) {
        if (maxHandoffs == 0) {
            return fence;
        }
        long factor = maxHandoffs + 1L;
        return fence > (Long.MAX_VALUE - maxHandoffs) / factor ? Long.MAX_VALUE - maxHandoffs : fence * factor;
    }

    /** Removes a waiter that gave up; passes a pending grant on, or releases it if nobody is left. */
    private void giveUp(Waiter me) {
        dequeue(me);
        if (phase == Phase.GRANTED && firstWaiter == null) {
            abandon();
        }
        wakeHead(); // if it was the head, the next one adopts the request or takes the grant
    }

    /**
     * Wakes the head waiter, the only one that can act (take a grant, ask the cluster); acts at once for an
     * asynchronous one. Called with the mutex held.
     */
    private void wakeHead() {
        Waiter head = firstWaiter;
        if (head == null) {
            return;
        }
        if (head.wakeUp != null) {
            head.wakeUp.signal();
        } else {
            serveAsync(head);
        }
    }

    private void abandon() {
        phase = Phase.IDLE;
        if (closedReason == null) {
            distributed.release();
        }
    }

    /** The exception for the owner of {@code lostHold} (the calling thread, or the hold it calls). */
    /** Queues {@code waiter} last; under the mutex. */
    private void enqueue(Waiter waiter) {
        waiter.next = null;
        if (lastWaiter == null) {
            firstWaiter = waiter;
        } else {
            lastWaiter.next = waiter;
        }
        lastWaiter = waiter;
    }

    /** Takes {@code waiter} out of the queue, wherever it is (nothing if it is not queued); under the mutex. */
    private void dequeue(Waiter waiter) {
        Waiter before = null;
        for (Waiter at = firstWaiter; at != null; before = at, at = at.next) {
            if (at == waiter) {
                if (before == null) {
                    firstWaiter = at.next;
                } else {
                    before.next = at.next;
                }
                if (lastWaiter == at) {
                    lastWaiter = before;
                }
                at.next = null;
                return;
            }
        }
    }

    /** Takes the head out of the queue; under the mutex. */
    private void pollHead() {
        if (firstWaiter != null) {
            dequeue(firstWaiter);
        }
    }

    /** Whether {@code waiter} is queued; under the mutex. */
    private boolean isQueued(Waiter waiter) {
        for (Waiter at = firstWaiter; at != null; at = at.next) {
            if (at == waiter) {
                return true;
            }
        }
        return false;
    }

    /** How many waiters are queued; under the mutex. */
    private int waiterCount() {
        int count = 0;
        for (Waiter at = firstWaiter; at != null; at = at.next) {
            count++;
        }
        return count;
    }

    private LockOwnershipLostException lost(Object who, LostHolds.Entry lostHold, String consequence) {
        return lost(who, lostHold.fencingToken, lostHold.cause, consequence);
    }

    /** The exception for {@code who}, which lost its hold with token {@code fence} {@code cause}. */
    private LockOwnershipLostException lost(Object who, long fence, String cause, String consequence) {
        return new LockOwnershipLostException(lockName, fence, describe(who) + " lost its hold of lock '"
                + lockName + "' (fencing token " + fence + ") " + cause + "; " + consequence);
    }

    /** The token of {@code me}'s lost hold; called with the mutex held, just after it was lost. */
    private long heldFenceOf(Object me) {
        return lost.get(me).fencingToken;
    }

    private void requireOpen() {
        if (closedReason != null) {
            throw new IllegalStateException("lock service closed: " + closedReason);
        }
    }

    /**
     * Whether nothing local is going on: no request outstanding, no holder (lost or not), no waiter. What a
     * reclamation vote needs from this node's threads; a thread that arrives afterwards finds the lock frozen
     * and its request waits for the decision.
     */
    boolean idle() {
        mutex.lock();
        try {
            return phase == Phase.IDLE && owner == null && lost.isEmpty() && firstWaiter == null;
        } finally {
            mutex.unlock();
        }
    }

    /** Number of local threads waiting for this lock. */
    int queueLength() {
        mutex.lock();
        try {
            return waiterCount();
        } finally {
            mutex.unlock();
        }
    }

}
