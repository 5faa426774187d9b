package io.dlock;

import java.util.List;
import java.util.Optional;

/**
 * A change of leader of one election group, as told to a {@link LeaderListener}.
 *
 * @param group    the election group
 * @param leader   the new leader
 * @param previous the leader before, empty for the first leader this node learned
 * @param epoch    the epoch in which {@code leader} was elected; strictly increasing from one change
 *                 to the next
 * @param self     this node's id
 * @param members  the live members the election that chose {@code leader} found, in ascending id
 *                 order, when the algorithm learns them: the ring election's COORDINATOR list, the
 *                 view's members for the view election; empty for the algorithms that do not
 *                 collect them (bully, Le Lann, Chang-Roberts, Franklin, Peterson)
 */
public record LeaderChange(String group, NodeId leader, Optional<NodeId> previous, long epoch, NodeId self,
                           List<NodeId> members) {

    /** Copies {@code members}, sorted. */
    public LeaderChange {
        members = members.stream().sorted().toList();
    }

    /** A change whose algorithm did not report the members ({@link #members()} empty). */
    public LeaderChange(String group, NodeId leader, Optional<NodeId> previous, long epoch, NodeId self) {
        this(group, leader, previous, epoch, self, List.of());
    }

    /** Whether this node is the new leader. */
    public boolean isSelf() {
        return leader.equals(self);
    }
}
