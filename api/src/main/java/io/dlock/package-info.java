/**
 * dlock's public API: a {@link io.dlock.DistributedLock} (a {@link java.util.concurrent.locks.Lock}
 * that excludes threads on every node of a cluster) and {@link io.dlock.LeaderElection} with
 * {@link io.dlock.LeaderListener change callbacks}, both obtained from a
 * {@link io.dlock.LockService} started from a {@link io.dlock.DlockConfig}.
 *
 * <p>The algorithm behind each is chosen by configuration: {@link io.dlock.MutexAlgorithm} lists the
 * mutual-exclusion algorithms, {@link io.dlock.ElectionAlgorithm} the elections.
 */
package io.dlock;
