/**
 * CTTA, the Control Token Transfer Algorithm of Muro, Katoh, Minoura and Hasegawa (notes S1,
 * docs/algorithms.md A6): a variant of Suzuki-Kasami in which the token carries only the entry counts
 * {@code HR} and the holder picks the next site by a cyclic scan of its request numbers
 * {@code LR}; N messages per entry. With REGENERATE: a site that suspects the token lost raises
 * every site's age {@code CG} to its candidate age through JDCG/ACK/NACK and creates a new token
 * only if all agreed; a token younger than the site it reaches is discarded, so after a suspected
 * loss exactly one token exists. Muro et al. §5 failure modes (a failed site that only forwards,
 * PARTITION, re-requests) are there for failures a failure detector reports within a view; dlock's
 * runtime has no such detector and relies on views and the token census, so only a test harness
 * drives them. The registry entry is {@link io.dlock.mutex.ctta.CttaDefinition}.
 */
package io.dlock.mutex.ctta;
