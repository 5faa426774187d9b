/**
 * Suzuki and Kasami's broadcast token algorithm (docs/algorithms.md A7, notes S4 §3.1; ACM TOCS 1985): a node
 * that wants the critical section broadcasts a numbered REQUEST; the token carries the number of
 * each node's last served request ({@code LN}) and a FIFO queue of waiting nodes, and travels
 * directly to the next requester. N messages per entry (N-1 REQUEST, 1 TOKEN), 0 when the requester
 * holds the idle token; synchronization delay T; FIFO not required.
 *
 * <p>Beyond the source notes: the idle holder hands the token over when a request arrives (GAP-FILL, docs/algorithms.md
 * F21); the token carries a hop count so duplicates are ignored; it carries the fencing
 * counter; after a view change, or when the lock is created on first use, the shared
 * {@link io.dlock.mutex.common.TokenCensus} establishes exactly one token.
 *
 * <p>Entry point: {@link io.dlock.mutex.suzukikasami.SuzukiKasamiDefinition}, registered as
 * {@code suzuki-kasami} in {@link io.dlock.MutexAlgorithm}.
 */
package io.dlock.mutex.suzukikasami;
