/**
 * Decentralized majority voting (docs/algorithms.md A2; notes S0 names it, the rules are Tanenbaum and van
 * Steen's simplified Lin-Lian-Chen-Zhang protocol): every member is a replica coordinator that votes
 * for one client attempt at a time and answers at once; a client needs {@code m > N/2} votes, else
 * it returns them and retries after a random exponential back-off. Safe while no coordinator forgets
 * a vote; no starvation freedom under contention. {@code 3(N-1)} messages per uncontended entry.
 *
 * <p>Entry point: {@link io.dlock.mutex.decentralized.DecentralizedDefinition}, registered as
 * {@code decentralized} in {@link io.dlock.MutexAlgorithm}.
 */
package io.dlock.mutex.decentralized;
