/**
 * Building blocks that more than one mutual-exclusion algorithm needs, kept here once instead of
 * being copied into each algorithm package.
 *
 * <ul>
 *   <li>{@link io.dlock.mutex.common.Permissions}: the set of other members that have answered the
 *       current request (Ricart-Agrawala's replies, Lamport's acks), checked against the current view
 *       and used after a view change to find whom to ask again.</li>
 *   <li>{@link io.dlock.mutex.common.FencingCounter}: the highest fencing token a node has seen and
 *       the rule for issuing the next one.</li>
 *   <li>{@link io.dlock.mutex.common.TokenCensus}, with {@link io.dlock.mutex.common.CensusReport},
 *       {@link io.dlock.mutex.common.CensusOutcome}, {@link io.dlock.mutex.common.CensusMessage},
 *       {@link io.dlock.mutex.common.EffectsCensusPort} and {@link io.dlock.mutex.common.CensusCodec}: the
 *       token census every token algorithm runs after a view change and when its instance is created
 *       lazily: the steward (lowest member) collects who holds the token and keeps exactly one,
 *       regenerating it with a fence above every reported one if it was lost with the old epoch.
 *       Each algorithm wraps the census messages as records of its own message type.</li>
 *   <li>{@link io.dlock.mutex.common.EpochBarrier} and {@link io.dlock.mutex.common.PeerState}: the epoch
 *       barrier of the algorithms whose grants depend on every member's state (Maekawa, Raynal, the
 *       decentralized vote): after a view change, or when a lock's protocol is created on first use,
 *       every member announces whether it is idle, waiting or holding, and nobody grants in the new
 *       epoch before every member has announced.</li>
 * </ul>
 *
 * <p>Like the algorithms, these classes are plain single-threaded state with no I/O; each protocol
 * instance owns its own copies. They are candidates for {@code io.dlock.protocol} once a second
 * algorithm family needs them.
 */
package io.dlock.mutex.common;
