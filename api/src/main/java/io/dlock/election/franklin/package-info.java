/**
 * Franklin's election on a bidirectional ring (docs/algorithms.md B5; notes S2; CACM 1982): in each phase every
 * active node exchanges its id with its nearest active neighbour on both sides and stays active only
 * if it is larger than both; at most half the actives survive a phase, the maximum always does, and
 * the last one announces itself with ELECTED. Exactly 2n&middot;K + n messages for K phases,
 * K &le; &lfloor;log2 n&rfloor; + 1.
 *
 * <p>Entry point: {@link io.dlock.election.franklin.FranklinDefinition}, registered as
 * {@code franklin}.
 */
package io.dlock.election.franklin;
