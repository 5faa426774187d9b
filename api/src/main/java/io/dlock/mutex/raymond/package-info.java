/**
 * Raymond's tree-based token algorithm (docs/algorithms.md A8, notes S4 §3.2; ACM TOCS 1989): the members form
 * a spanning tree (here the complete binary tree of the view's members in id order) whose
 * {@code HOLDER} pointers lead to the token; requests climb toward the token and are queued at each
 * node, the token descends and reverses the pointers. At most 2D messages per entry (D the diameter),
 * O(log N) on average, about 4 under heavy load; FIFO not required.
 *
 * <p>Beyond the paper: requests and the token are numbered so that duplicates are ignored; the token
 * carries the fencing counter; after a view change, or when the lock is created on first use, the
 * shared {@link io.dlock.mutex.common.TokenCensus} establishes exactly one token and every member
 * points its {@code HOLDER} along the new tree toward it.
 *
 * <p>Entry point: {@link io.dlock.mutex.raymond.RaymondDefinition}, registered as {@code raymond} in
 * {@link io.dlock.MutexAlgorithm}.
 */
package io.dlock.mutex.raymond;
