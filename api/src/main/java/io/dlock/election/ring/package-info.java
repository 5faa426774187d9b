/**
 * The ring election with the list of live ids (docs/algorithms.md B2; notes S0; Tanenbaum and van Steen §6.5):
 * ELECTION travels round the ring collecting the ids of the live nodes, skipping a successor that
 * does not acknowledge within {@code ack-timeout-ms}; back at its initiator it becomes COORDINATOR
 * and travels round again, so every live node learns the leader (the highest id of the list) and the
 * membership. FIFO not required.
 *
 * <p>Entry point: {@link io.dlock.election.ring.RingDefinition}, registered as {@code ring}.
 */
package io.dlock.election.ring;
