/**
 * Maekawa's √N quorum algorithm (docs/algorithms.md A10, notes S4 §2.3; Maekawa 1985): a node enters when every
 * arbiter of its request set has locked itself for its request; request sets pairwise intersect
 * (by default built from the projective plane of order q, the smallest prime power with
 * {@code q^2 + q + 1 >= N}: {@code K <= q + 1}, about √N; option {@code quorum=grid} gives the
 * rows and columns of a grid instead, about {@code 2√N}). The default is the deadlock-free version (FAILED, INQUIRE, RELINQUISH
 * and docs/algorithms.md's displacement rule); option {@code basic} runs notes S4's MA1-MA5, which can
 * deadlock. Needs FIFO channels. {@code 3(K-1)} messages per uncontended entry, up to about
 * {@code 5(K-1)} under load; synchronization delay 2T.
 *
 * <p>View changes and start on first use go through the {@link io.dlock.mutex.common.EpochBarrier}
 * barrier: arbiters rebuild their locks from every member's announced state before granting.
 *
 * <p>Entry point: {@link io.dlock.mutex.maekawa.MaekawaDefinition}, registered as {@code maekawa}
 * in {@link io.dlock.MutexAlgorithm}.
 */
package io.dlock.mutex.maekawa;
