/**
 * The token ring (docs/algorithms.md A5, notes S0; Tanenbaum and van Steen §6.3): one token travels along the
 * logical ring of the view's members in id order; its holder enters the critical section if it wants
 * to and passes the token to its successor when it leaves, or at once if it does not want it. 1 to
 * infinity messages per entry (one per hop; the published token circulates even when nobody wants it), 1
 * under full load; synchronization delay T to (N-1)T.
 *
 * <p>Beyond the source notes: the token parks after one idle round (rule 7), so an idle lock sends nothing;
 * option {@code idle-pause-ms} (default 0) pauses an unwanted token at each holder; the token carries its epoch, a hop count (duplicates are
 * ignored) and the fencing counter; after a view change, or when the lock is created on first use,
 * the shared {@link io.dlock.mutex.common.TokenCensus} establishes exactly one token.
 *
 * <p>Entry point: {@link io.dlock.mutex.tokenring.TokenRingDefinition}, registered as
 * {@code token-ring} in {@link io.dlock.MutexAlgorithm}.
 */
package io.dlock.mutex.tokenring;
