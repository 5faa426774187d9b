/**
 * Chang and Roberts' ring election (docs/algorithms.md B4; notes S2; CACM 1979): ids travel round a
 * unidirectional FIFO ring and are swallowed by any larger id; the id that returns to its owner is
 * the maximum, whose ELECTED message then tells everyone. 2n-1 ELECTION messages on the best ring
 * (ids increasing along the ring), n(n+1)/2 on the worst, plus n ELECTED.
 *
 * <p>Entry point: {@link io.dlock.election.changroberts.ChangRobertsDefinition}, registered as
 * {@code chang-roberts}.
 */
package io.dlock.election.changroberts;
