package io.dlock.runtime;

import io.dlock.LeaderElection;
import io.dlock.NodeId;
import io.dlock.spi.View;

/** What {@link NodeRuntime} needs from one election group's driver, whatever the algorithm. */
interface GroupElection {

    /**
     * A new membership view (ignored if not newer than the last) and whether it is primary for this
     * node; in a view that is not primary no leader is known and none is elected.
     */
    void onView(View view, boolean primary);

    /** An election message of this group; {@code bytes} from {@code offset} hold the rest after the envelope. */
    void deliver(NodeId from, long epoch, byte[] bytes, int offset);

    /** Stops the driver: no more events, timers or notifications. */
    void close();

    /** The public face. */
    LeaderElection facade();
}
