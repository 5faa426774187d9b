/**
 * The runtime that drives the algorithms on a real node: threads, time, and the local half of every
 * lock. For each lock name a {@code LockEngine} runs a serial event loop that feeds the algorithm
 * its events and carries out its effects; a {@code LocalLockState} keeps thread ownership, hold
 * counts, the local wait queue (at most one distributed request per node and lock), timeouts,
 * interrupts and abandoned grants; {@code RuntimeLock} is the facade applications hold.
 *
 * <p>Used by both transports; applications use it only through {@link io.dlock.LockService}.
 */
package io.dlock.runtime;
