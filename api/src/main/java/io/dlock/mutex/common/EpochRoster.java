package io.dlock.mutex.common;

import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.Collections;
import java.util.Set;

/**
 * The bookkeeping that every view-change state collection shares ({@link TokenCensus},
 * {@link EpochBarrier}, Centralized's sync): the view of the current epoch, the members still owed
 * a state message in it, and whether this node still owes its own step at its first event (a
 * protocol created on first use in a running cluster cannot send from its constructor, since effects
 * are for event handlers).
 *
 * <p>It decides nothing: the owner says when to expect every other member ({@link #expectOthers}),
 * records what arrives ({@link #record}) and acts when {@link #isComplete()}.
 *
 * <p>The members owed are kept only while some are: a collection is over almost all the time, and then
 * the roster holds no set.
 *
 * <p>{@link EpochBarrier} extends it (a barrier is a roster that expects every other member in each
 * epoch), so that a barrier is one object per lock and node, not a wrapper around a roster.
 *
 * <p>Not thread-safe: owned by one protocol instance and used only from its event loop.
 */
public class EpochRoster {

    private final NodeId self;
    private View view;
    /** The members still owing their state; null while none does. */
    private NodeSet owed;
    private boolean firstEventDue;

    /**
     * @param self this node
     * @param view the view the protocol is created in; nothing is owed yet
     */
    public EpochRoster(NodeId self, View view) {
        this.self = self;
        this.view = view;
    }

    /**
     * A new view: the new epoch starts with nothing owed and no first-event step due (the view change
     * replaces it); the owner calls {@link #expectOthers} if it collects in this epoch.
     */
    public void enter(View newView) {
        view = newView;
        owed = null;
        firstEventDue = false;
    }

    /** Every other member of the current view owes its state (what was recorded before is forgotten). */
    public void expectOthers() {
        NodeSet others = new NodeSet();
        for (NodeId member : view.members()) {
            if (!member.equals(self)) {
                others.add(member);
            }
        }
        owed = others.isEmpty() ? null : others;
    }

    /** Nothing is owed any more (the collection is over, or this node does not collect). */
    public void clear() {
        owed = null;
    }

    /**
     * Records the state of {@code member}.
     *
     * @return true if it was owed (the first from {@code member} since {@link #expectOthers}); false
     *         for a duplicate, a non-member or when nothing is being collected
     */
    public boolean record(NodeId member) {
        if (owed == null || !owed.remove(member)) {
            return false;
        }
        if (owed.isEmpty()) {
            owed = null;
        }
        return true;
    }

    /** Whether no member owes its state (always true when nothing is being collected). */
    public boolean isComplete() {
        return owed == null;
    }

    /** The members that still owe their state, ascending (a snapshot). */
    public Set<NodeId> owed() {
        return owed == null ? Set.of() : Collections.unmodifiableSet(owed.toSortedSet());
    }

    /** Marks (or clears) the step this node owes at its first event. */
    public void setFirstEventDue(boolean due) {
        firstEventDue = due;
    }

    /** Whether this node still owes its first-event step. */
    public boolean firstEventDue() {
        return firstEventDue;
    }

    /** Whether the first-event step is due; returns true once, then false. */
    public boolean takeFirstEventDue() {
        boolean due = firstEventDue;
        firstEventDue = false;
        return due;
    }

    /** The view of the current epoch. */
    public View view() {
        return view;
    }

    /** Whether {@code epoch} is the current view's epoch (a message of another epoch is ignored). */
    public boolean isCurrent(long epoch) {
        return epoch == view.epoch();
    }

    @Override
    public String toString() {
        return (owed == null ? "complete" : "owed by " + owed) + (firstEventDue ? " first-event-due" : "");
    }
}
