/**
 * The bully algorithm (docs/algorithms.md B1; notes S0 and S2; Garcia-Molina 1982): a node that notices the
 * coordinator is gone sends ELECTION to every higher id; a live higher node answers OK and runs its
 * own election; the node that hears no OK within a timeout wins and sends COORDINATOR ("I won") to
 * every lower id. The live node with the highest id always wins. Needs timeouts longer than a round
 * trip (options {@code ok-timeout-ms}, {@code coordinator-timeout-ms}); FIFO not required.
 *
 * <p>Entry point: {@link io.dlock.election.bully.BullyDefinition}, registered as {@code bully}.
 */
package io.dlock.election.bully;
