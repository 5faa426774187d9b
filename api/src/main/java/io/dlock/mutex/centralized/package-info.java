/**
 * The centralized coordinator algorithm (docs/algorithms.md A1, notes S0; Tanenbaum and van Steen §6.3): one
 * member, the lock's coordinator, queues requests in arrival order and grants the lock to one client at a
 * time; the client returns it with a RELEASE. By default each lock name has its own coordinator, the member
 * that owns the name by rendezvous hashing over the view (option {@code coordinator=per-name}); with
 * {@code coordinator=leader}, the election's leader (else the highest id) coordinates every lock. Three messages per entry by another
 * node, none for the coordinator's own requests; synchronization delay 2T; FIFO not required.
 * Option {@code send-denied} adds the source notes' "NG" answer to a request that has to wait.
 *
 * <p>Beyond the source notes: requests are numbered per client so that duplicated and late messages are
 * ignored; grants carry fencing tokens from the coordinator's counter; after a view change (or when
 * the lock is created on first use in a running cluster) the coordinator asks every member for its
 * state (SYNC_QUERY, SYNC) and grants nothing until it has every answer, so a holder is never granted
 * twice and a departed holder frees the lock.
 *
 * <p>Entry point: {@link io.dlock.mutex.centralized.CentralizedDefinition}, registered as
 * {@code centralized} in {@link io.dlock.MutexAlgorithm}.
 */
package io.dlock.mutex.centralized;
