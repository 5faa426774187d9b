/**
 * Lamport's mutual-exclusion algorithm (1978; docs/algorithms.md A3, notes S4 rules LA1-LA5): every node keeps a
 * replica of one request queue ordered by (logical timestamp, id). A node enters when its own request
 * heads its queue and every other member has acknowledged it, and leaving, it broadcasts a RELEASE.
 *
 * <p>Properties: mutual exclusion, no deadlock, no starvation, entries in (timestamp, id) order;
 * 3(N-1) messages per entry; synchronization delay T. <b>Requires FIFO channels</b>: on a reordering
 * network an ACK can overtake the request it should follow and two nodes enter together (docs/algorithms.md
 * LAM-3, shown by a test). Option {@code immediate-ack} selects Lamport's original ack rule instead
 * of the source notes' deferred one (docs/algorithms.md F19).
 *
 * <p>Beyond the source notes, ACK and RELEASE name the request they concern and carry a fencing-token
 * watermark, duplicated requests of released rounds are ignored, and a view change makes each node
 * resend what the lost epoch may have swallowed (its pending request, or its last RELEASE).
 *
 * <p>Entry point: {@link io.dlock.mutex.lamport.LamportDefinition}, registered as {@code lamport} in
 * {@link io.dlock.MutexAlgorithm}.
 */
package io.dlock.mutex.lamport;
