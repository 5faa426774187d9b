package io.dlock.shedlock;

import io.dlock.LockHold;
import io.dlock.LockService;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * ShedLock's lock provider on dlock: a task under {@code @SchedulerLock(name = "report")} (or run by a
 * {@code LockingTaskExecutor}) runs on one node of the cluster at a time, the node that holds the dlock lock named
 * {@code "report"}.
 *
 * <pre>{@code
 * @Bean
 * DlockLockProvider lockProvider(LockService lockService) {
 *     return new DlockLockProvider(lockService);        // closed with the context: see close()
 * }
 *
 * @Scheduled(cron = "0 * * * * *")
 * @SchedulerLock(name = "report", lockAtMostFor = "10m", lockAtLeastFor = "30s")
 * void report() {
 *     long token = DlockLockProvider.currentFencingToken().orElseThrow();
 *     reports.write(buildReport(), token);              // the store refuses a write with a lower token than it saw
 * }
 * }</pre>
 *
 * <h2>What ShedLock's settings mean here</h2>
 * <ul>
 *   <li><b>Taking the lock.</b> {@link #lock(LockConfiguration)} asks for the dlock lock of the configuration's name
 *       and waits for the cluster's answer at most the provider's wait (by default {@code dlock.lock.try-timeout-ms},
 *       1 s): a distributed lock cannot know it is free without a round trip. It returns empty when another node
 *       holds the lock beyond that wait. A node whose attempt comes after the task already ended elsewhere gets the
 *       lock and runs the task again, as with every ShedLock provider: set {@code lockAtLeastFor} longer than the
 *       spread of the nodes' schedule ticks plus that wait.</li>
 *   <li><b>{@code lockAtMostFor}</b> is the hold's dlock <em>lease</em>: if the task has not ended within it (it
 *       hangs), the hold ends by itself and the next node may run the task, with a higher fencing token. It is
 *       measured on the holder's node with its monotonic clock and does not stop the task; only a store that checks
 *       the fencing token refuses the hung task's late writes. A crashed node needs no lease: dlock's membership ends
 *       its holds.</li>
 *   <li><b>{@code lockAtLeastFor}.</b> When the task ends sooner, {@code unlock()} keeps the hold (an owner-free
 *       {@link LockHold}) until {@code lockAtLeastFor} after it was taken, and the provider's scheduler thread
 *       releases it then; otherwise it releases at once.</li>
 *   <li><b>{@code extend}</b> ({@link SimpleLock#extend(Duration, Duration)}, which {@code KeepAliveLockProvider}
 *       calls) renews the lease to end {@code lockAtMostFor} from now and restarts {@code lockAtLeastFor} from now;
 *       it gives empty if the hold was lost (its lease ran out, or its node was cut off).</li>
 * </ul>
 *
 * <h2>Fencing token</h2>
 * {@link #currentFencingToken()} gives the running task the fencing token of the lock its thread took through this
 * provider class: greater than that of every earlier grant of the lock anywhere in the cluster.
 *
 * <h2>Closing</h2>
 * {@link #close()} releases the holds kept for {@code lockAtLeastFor} at once and stops the scheduler thread; Spring
 * calls it when the context closes. Close the provider before the lock service. Thread-safe.
 */
public final class DlockLockProvider implements ExtensibleLockProvider, AutoCloseable {

    private final LockService service;
    private final Duration wait;
    private final ScheduledExecutorService releaser;
    /** The holds kept for {@code lockAtLeastFor}, released by {@link #releaser} or {@link #close()}. */
    private final Set<DlockSimpleLock> kept = ConcurrentHashMap.newKeySet();

    /**
     * A provider that waits for the cluster's answer at most {@code dlock.lock.try-timeout-ms} of {@code service}.
     *
     * @throws NullPointerException if {@code service} is null
     */
    public DlockLockProvider(LockService service) {
        this(service, Objects.requireNonNull(service, "service").config().tryTimeout());
    }

    /**
     * @param service the node's lock service
     * @param wait    how long {@link #lock(LockConfiguration)} waits at most for the lock; zero or more (zero gets
     *                the lock only where this node knows it is free without asking, see
     *                {@link io.dlock.DistributedLock}'s {@code tryLock(0, unit)})
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code wait} is negative
     */
    public DlockLockProvider(LockService service, Duration wait) {
        this.service = Objects.requireNonNull(service, "service");
        this.wait = Objects.requireNonNull(wait, "wait");
        if (wait.isNegative()) {
            throw new IllegalArgumentException("wait must be zero or more, got " + wait);
        }
        this.releaser = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "dlock-shedlock-release-" + service.nodeId());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * The fencing token of the lock that the calling thread took last through a {@code DlockLockProvider} and has not
     * unlocked yet (the innermost, for nested tasks); empty if it holds none. It stays the hold's token after the
     * hold was lost ({@code lockAtMostFor} ran out): a store that checks it then refuses the write.
     */
    public static OptionalLong currentFencingToken() {
        return TaskLocks.currentToken();
    }

    /**
     * Takes the dlock lock named {@code lockConfiguration.getName()} with a lease of {@code lockAtMostFor}, waiting at
     * most this provider's wait for it.
     *
     * @return the lock, to unlock when the task ends; empty if another node held it beyond the wait
     * @throws IllegalArgumentException if the name is empty or longer than 200 characters, or {@code lockAtMostFor}
     *                                  is not positive or longer than {@link io.dlock.DistributedLock#MAX_LEASE}
     * @throws IllegalStateException    if the lock service or this provider is closed
     */
    @Override
    public Optional<SimpleLock> lock(LockConfiguration lockConfiguration) {
        if (releaser.isShutdown()) {
            throw new IllegalStateException("DlockLockProvider is closed: no lock for '" + lockConfiguration.getName()
                    + "'");
        }
        Optional<LockHold> hold;
        try {
            hold = service.lock(lockConfiguration.getName()).tryAcquire(wait, lockConfiguration.getLockAtMostFor());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        if (hold.isEmpty()) {
            return Optional.empty();
        }
        TaskLocks.Entry task;
        try {
            task = TaskLocks.started(hold.get());
        } catch (IllegalMonitorStateException lost) { // lockAtMostFor ran out before the task could start
            endLostHold(hold.get());
            return Optional.empty();
        }
        return Optional.of(new DlockSimpleLock(this, task, lockConfiguration.getLockAtLeastFor()));
    }

    /** Releases the holds kept for {@code lockAtLeastFor} at once and stops the scheduler thread; idempotent. */
    @Override
    public void close() {
        releaser.shutdownNow();
        for (DlockSimpleLock lock : kept) {
            lock.releaseKept();
        }
    }

    @Override
    public String toString() {
        return "DlockLockProvider[node " + service.nodeId() + ", wait " + wait + "]";
    }

    private static void endLostHold(LockHold hold) {
        try {
            hold.release();
        } catch (IllegalMonitorStateException expected) { // LockOwnershipLostException: the release ended what was left
            // nothing more to do: the lock already went on to the next holder
        }
    }

    /** Keeps {@code lock}'s hold until {@code remaining} from now, then releases it on the scheduler thread. */
    void keep(DlockSimpleLock lock, Duration remaining) {
        kept.add(lock);
        try {
            releaser.schedule(lock::releaseKept, remaining.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            lock.releaseKept(); // the provider closed meanwhile
        }
    }

    /** {@code lock}'s kept hold ended. */
    void forget(DlockSimpleLock lock) {
        kept.remove(lock);
    }
}
