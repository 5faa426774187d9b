package io.dlock.protocol;

import io.dlock.NodeId;
import java.util.List;
import java.util.Set;

/**
 * One election setting for which a definition states its theoretical message count: the ring
 * order, who initiates (all at time 0) and who is crashed (fail-stop, before the election starts).
 *
 * @param ring     every member, crashed ones included, in ring order; copied
 * @param starters the initiators, all alive; copied
 * @param crashed  the crashed members; copied
 */
public record ElectionScenario(List<NodeId> ring, Set<NodeId> starters, Set<NodeId> crashed) {

    public ElectionScenario {
        ring = List.copyOf(ring);
        starters = Set.copyOf(starters);
        crashed = Set.copyOf(crashed);
        if (starters.isEmpty()) {
            throw new IllegalArgumentException("an election needs at least one starter");
        }
        for (NodeId s : starters) {
            if (!ring.contains(s) || crashed.contains(s)) {
                throw new IllegalArgumentException("starter " + s + " must be a live member of " + ring);
            }
        }
    }

    /** Number of members, crashed ones included. */
    public int n() {
        return ring.size();
    }

    /** The live members in ring order. */
    public List<NodeId> liveRing() {
        return ring.stream().filter(id -> !crashed.contains(id)).toList();
    }

    /** Whether every live member initiates. */
    public boolean allLiveStart() {
        return starters.size() == liveRing().size();
    }
}
