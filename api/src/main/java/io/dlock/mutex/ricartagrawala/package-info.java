/**
 * Ricart and Agrawala's algorithm (1981; docs/algorithms.md A4, notes S0 and S4 rules RA1-RA4): a node that
 * wants the critical section sends a timestamped REQUEST to every other member and enters once all
 * of them have replied. A member replies at once unless it is in the critical section or its own
 * pending request is earlier in (timestamp, id) order; then it defers the REPLY until it leaves.
 *
 * <p>Properties: mutual exclusion, no deadlock, no starvation, entries in (timestamp, id) order;
 * 2(N-1) messages per entry; synchronization delay T; FIFO channels not required. Any member that
 * stops answering blocks every requester until a view change removes it.
 *
 * <p>Beyond the source notes, every REPLY names the request it answers (so duplicates and late messages are
 * harmless) and carries a fencing-token watermark, and a view change makes a waiting node ask again
 * every member whose answer it is missing.
 *
 * <p>Entry point: {@link io.dlock.mutex.ricartagrawala.RicartAgrawalaDefinition}, registered as
 * {@code ricart-agrawala} in {@link io.dlock.MutexAlgorithm}.
 */
package io.dlock.mutex.ricartagrawala;
