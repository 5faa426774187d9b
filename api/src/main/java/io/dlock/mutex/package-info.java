/**
 * The distributed mutual-exclusion algorithms, one sub-package per algorithm, each a pure state
 * machine implementing {@link io.dlock.protocol.MutexProtocol} with a sealed message type, a codec
 * and a {@link io.dlock.protocol.MutexProtocolDefinition} that {@link io.dlock.MutexAlgorithm}
 * registers. Pieces that several algorithms share live in {@code io.dlock.mutex.common}.
 *
 * <p>Common conventions, beyond the source notes: every answer names the request it answers (duplicates and
 * late messages are ignored); every grant carries a fencing token larger than any granted before;
 * on a view change each algorithm re-sends what the old epoch may have lost and rebuilds what
 * depends on the member set. The source notes' node {@code i} is the member of rank {@code i} of the view.
 */
package io.dlock.mutex;
