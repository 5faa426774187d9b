package io.dlock.mutex.common;

import io.dlock.spi.NodeId;
import io.dlock.spi.View;
import java.util.Set;
import java.util.TreeSet;

/**
 * The epoch barrier of the algorithms whose grants depend on every member's state (Maekawa,
 * Raynal, the decentralized vote): after a view change, and when a protocol is created on first use
 * ({@code startsIdle = false}), every member announces its own state once to every other member,
 * and nobody grants anything in the new epoch until it has heard from every member of the view.
 *
 * <p>Each algorithm sends its own announcement message (with what it needs to rebuild: the holder,
 * the waiting requests, the highest fencing token); this class only tracks who has announced in the
 * current epoch and whether this node still owes its own announcement.
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
public final class EpochBarrier {

    private final NodeId self;
    private View view;
    private final Set<NodeId> missing = new TreeSet<>();
    private boolean announceDue;

    /**
     * @param self       this node
     * @param view       the view the protocol is created in
     * @param startsIdle whether every member is known to start idle; if so, no census runs until the
     *                   next view change; if not, one runs now and this node owes its announcement
     */
    public EpochBarrier(NodeId self, View view, boolean startsIdle) {
        this.self = self;
        this.view = view;
        if (!startsIdle) {
            expectAll(view);
            announceDue = view.size() > 1;
        }
    }

    /**
     * A new view: forgets every announcement and waits for one from each other member. The caller
     * announces its own state now (so no announcement is due afterwards).
     */
    public void startEpoch(View newView) {
        view = newView;
        expectAll(newView);
        announceDue = false;
    }

    private void expectAll(View v) {
        missing.clear();
        for (NodeId member : v.members()) {
            if (!member.equals(self)) {
                missing.add(member);
            }
        }
    }

    /**
     * Whether this node still owes its announcement (a protocol created without startsIdle, at its
     * first event); returns true once, then false.
     */
    public boolean takeAnnounceDue() {
        boolean due = announceDue;
        announceDue = false;
        return due;
    }

    /**
     * Records the announcement of {@code member}.
     *
     * @return true if it is the first from {@code member} in this epoch (false for a duplicate or a
     *         non-member): the caller then applies its content
     */
    public boolean record(NodeId member) {
        return missing.remove(member);
    }

    /** Whether every other member has announced in this epoch (always true when no census runs). */
    public boolean isComplete() {
        return missing.isEmpty();
    }

    /** The members whose announcement has not arrived, ascending (a snapshot). */
    public Set<NodeId> missing() {
        return Set.copyOf(new TreeSet<>(missing));
    }

    /** The view of the current epoch. */
    public View view() {
        return view;
    }

    @Override
    public String toString() {
        return isComplete() ? "census complete" : "census missing " + missing;
    }
}
