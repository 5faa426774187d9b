/**
 * The majority rule that every driver applies between the transport's views and an algorithm:
 * {@link io.dlock.membership.PrimaryComponent} decides which views are primary (a strict majority of
 * the last primary view, clean leaves discounted), and {@link io.dlock.membership.PrimaryGate} keeps a
 * lock's protocol frozen in the other views and rejoins it as a new member after a heal.
 * {@link io.dlock.membership.EpochInbox} applies the epoch rule to incoming messages (drop older, hold
 * newer, replay on install), for the runtime's lock drivers and election drivers and the simulator's nodes.
 * {@link io.dlock.membership.EpochLease} decides whether a node may still act in its view (a quorum confirmed the
 * view within the lease) and keeps the promise that lets a view excluding a member grant only after that member's
 * lease has ended.
 *
 * <p>Not part of the algorithm authors' contract ({@code io.dlock.protocol}): an algorithm never sees a
 * non-primary view. The module exports this package only to the one driver outside
 * {@code io.dlock.runtime}: the in-memory simulator ({@code io.dlock.inmemory}), which wraps its
 * simulated nodes' protocols in the same gate so that simulation and runtime run one rule.
 */
package io.dlock.membership;
