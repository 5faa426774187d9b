/**
 * Peterson's unidirectional election (docs/algorithms.md B6; notes S2, which spells it "Paterson"; ACM TOPLAS
 * 1982): Franklin's algorithm on a one-way FIFO ring, each active node judging its nearest active
 * predecessor's value with the help of the one before it (ONE and TWO messages); the last active
 * node sends ELECTED with the maximum. Exactly 2n&middot;K messages for K &le; &lfloor;log2 n&rfloor;
 * + 1 phases. Not to be confused with Peterson's two-thread lock in the shared-memory module.
 *
 * <p>Entry point: {@link io.dlock.election.peterson.PetersonDefinition}, registered as
 * {@code peterson}.
 */
package io.dlock.election.peterson;
