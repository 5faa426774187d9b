/**
 * The runtime that drives the algorithms on a real node: threads, time, and the local half of every
 * lock. For each lock name a {@code LockDriver} runs a serial event loop that feeds the algorithm
 * its events and carries out its effects; a {@code LocalLockState} keeps thread ownership, hold
 * counts, the local wait queue (at most one distributed request per node and lock), timeouts,
 * interrupts and abandoned grants; {@code RuntimeLock} is the facade applications hold. Beside each
 * {@code LockDriver}: the node's {@code LockWireFormat} (its messages on the wire) and the pass's
 * {@code Outbox} (its messages per destination until the end of the loop's pass), {@code LockConditions} (its
 * distributed conditions) and {@code ReclaimFreeze} (its events while a reclamation round decides). The drivers
 * of a node are in its {@code LockRegistry}, which marks the unused ones idle for reclamation.
 *
 * <p>For each election group an {@code ElectionDriver} runs the configured election algorithm on its
 * own serial loop, one protocol instance per run (an epoch, or a round within one after
 * {@link io.dlock.LeaderElection#start()}), and reports leaders through {@code LeaderListeners}, which
 * the message-free {@code ViewLeaderElection} shares (both answer leader queries through
 * {@code AbstractLeaderElection}). With {@code centralized} and option {@code coordinator=leader} the
 * node also runs the group {@code dlock.mutex-coordinator}, whose leader becomes the coordinator of
 * every lock (by default each lock's coordinator follows from its name and the view, with no election).
 *
 * <p>Lock drivers and election drivers share two loop-confined helpers: {@link io.dlock.membership.EpochInbox}, the
 * epoch rule for arriving messages (drop older epochs, hold newer ones up to a bound, replay them
 * when the view is installed), public because the simulator's nodes decide through it too; and
 * {@code LoopTimers}, the protocol's named timers.
 *
 * <p>Used by both transports; applications use it only through {@link io.dlock.LockService}.
 */
package io.dlock.runtime;
