package io.dlock;

import io.dlock.spi.NodeId;
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
 */
public record LeaderChange(String group, NodeId leader, Optional<NodeId> previous, long epoch, NodeId self) {

    /** Whether this node is the new leader. */
    public boolean isSelf() {
        return leader.equals(self);
    }
}
