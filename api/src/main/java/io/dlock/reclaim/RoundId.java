package io.dlock.reclaim;

import io.dlock.NodeId;

/**
 * Names one reclamation round cluster-wide: the steward that ran it and its own count of rounds.
 *
 * @param steward the member that collected the votes and decided
 * @param number  the steward's round number, from 1
 */
public record RoundId(NodeId steward, long number) {
}
