/**
 * The leader-election algorithms of docs/algorithms.md part B, one package each: {@code bully} (Garcia-Molina),
 * {@code ring} (Tanenbaum's ring with the list of live ids), {@code lelann} (the source notes' naive ring
 * algorithm), {@code changroberts}, {@code franklin} (bidirectional) and {@code peterson}
 * (unidirectional, 1982; the source notes' "Paterson"). Each is a pure {@link io.dlock.protocol.ElectionProtocol}
 * that elects the live member with the highest id (docs/algorithms.md F29); {@link io.dlock.ElectionAlgorithm}
 * registers them. {@code common} holds what several of them share.
 */
package io.dlock.election;
