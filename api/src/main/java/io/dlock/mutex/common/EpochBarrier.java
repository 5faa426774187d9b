package io.dlock.mutex.common;

import io.dlock.NodeId;
import io.dlock.spi.View;

/**
 * The epoch barrier of the algorithms whose grants depend on every member's state (Maekawa,
 * Raynal, the decentralized vote): after a view change, and when a protocol is created on first use
 * ({@code startsIdle = false}), every member announces its own state once to every other member,
 * and nobody grants anything in the new epoch until it has heard from every member of the view.
 *
 * <p>Each algorithm sends its own announcement message (with what it needs to rebuild: the holder,
 * the waiting requests, the highest fencing token); this class only tracks who has announced in the
 * current epoch and whether this node still owes its own announcement: it is an {@link EpochRoster}
 * (inherited: {@link #record}, {@link #isComplete}, {@link #takeFirstEventDue}, {@link #view}) that
 * expects every other member in each epoch. An algorithm starts an epoch with {@link #startEpoch}, not
 * with the roster's {@link #enter}.
 *
 * <p>Why it is safe: messages of the old epoch are dropped, so a node that was in the critical
 * section when it installed the new view says so in its announcement, and a member grants in the new
 * epoch only after it has every announcement, hence after it knows the holder. Why it is live: every
 * member that has a protocol instance announces in {@code onView}; a member that has none gets one
 * when the first announcement reaches it (the runtime creates protocols on first message), and a
 * protocol created that way announces at its first event. A member that never answers (it crashed
 * without a view change) blocks the barrier until the view change that removes it.
 *
 * <p>Not thread-safe: owned by one protocol instance and used only from its event loop.
 */
public final class EpochBarrier extends EpochRoster {

    /**
     * @param self       this node
     * @param view       the view the protocol is created in
     * @param startsIdle whether every member is known to start idle; if so, no barrier holds until the
     *                   next view change; if not, one holds now and this node owes its announcement at
     *                   its first event
     */
    public EpochBarrier(NodeId self, View view, boolean startsIdle) {
        super(self, view);
        if (!startsIdle) {
            expectOthers();
            setFirstEventDue(view.size() > 1);
        }
    }

    /**
     * A new view: forgets every announcement and waits for one from each other member. The caller
     * announces its own state now (so no announcement is due at the first event afterwards).
     */
    public void startEpoch(View newView) {
        enter(newView);
        expectOthers();
    }

    /**
     * Whether nothing of the barrier is pending: it is complete, or this instance has handled no event yet (its
     * first-event step is still due, so no member waits for it). What an algorithm's {@code atRest()} asks.
     */
    public boolean settled() {
        return isComplete() || firstEventDue();
    }

    @Override
    public String toString() {
        return "barrier " + super.toString();
    }
}
