/**
 * dlock's public API: a {@link io.dlock.DistributedLock} (a {@link java.util.concurrent.locks.Lock}
 * that excludes threads on every node of a cluster) and {@link io.dlock.LeaderElection} with
 * {@link io.dlock.LeaderListener change callbacks}, both obtained from a
 * {@link io.dlock.LockService} started from a {@link io.dlock.DlockConfig}.
 *
 * <p>The algorithm behind each is chosen by configuration: {@link io.dlock.MutexAlgorithm} lists the
 * mutual-exclusion algorithms, {@link io.dlock.ElectionAlgorithm} the elections; every default and bound
 * of the configuration is a constant of {@link io.dlock.DlockConfig} ({@code DEFAULT_*}, {@code MIN_*},
 * {@code MAX_*}).
 *
 * <p>What a node reports: {@link io.dlock.LockService#view()} (a {@link io.dlock.ClusterView}: members,
 * epoch, whether this node may grant), {@link io.dlock.LockMetrics} per lock and per node, and
 * {@link io.dlock.NodeMetrics} for its membership and live locks; nodes are named by {@link io.dlock.NodeId}.
 * This package's types return no transport ({@code io.dlock.spi}) or algorithm ({@code io.dlock.protocol}) type.
 */
package io.dlock;
