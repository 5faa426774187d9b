/**
 * Reclamation of idle lock state, cluster-wide: {@link io.dlock.reclaim.Reclamation} decides, in rounds run by
 * the lowest member, that every member drops its state for a batch of idle locks at once, only when every
 * member is at rest for them and no message of them is in flight; the fencing floor the round carries keeps
 * every lock's tokens increasing across its incarnations. A pure state machine, run by the runtime (one per
 * node) and by the simulator. See docs/algorithms.md R1-R4.
 */
package io.dlock.reclaim;
