/**
 * LeLann's algorithm, the source notes' "naive ring algorithm" (docs/algorithms.md B3; notes S2; LeLann 1977): every
 * node sends its own id round a unidirectional FIFO ring and forwards every id it receives; when its
 * own id comes back it has seen every id, and the largest is the leader. Exactly n^2 messages.
 *
 * <p>Entry point: {@link io.dlock.election.lelann.LeLannDefinition}, registered as {@code lelann}.
 */
package io.dlock.election.lelann;
