package io.dlock.protocol;

import io.dlock.spi.NodeId;
import io.dlock.spi.View;
import java.util.List;
import java.util.Objects;

/**
 * The majority rule of one node: which of the views it installs are <em>primary</em>, the only
 * views in which a lock may be granted or a leader elected.
 *
 * <h2>Rule</h2>
 * A view is primary iff it contains a strict majority of the members of the last primary view this
 * node installed: {@code |V ∩ P| * 2 > |P|}. A tie (exactly half, e.g. a 4-node cluster split 2|2)
 * is not a majority: neither half is primary, and both wait for the heal. Since two disjoint member
 * sets cannot both hold a strict majority of the same set, at most one side of a partition is
 * primary, provided both sides started from the same primary view (see below for joiners).
 *
 * <p>Join views ({@code {1}, {1,2}, {1,2,3}, ...}) and merge views contain every member of the last
 * primary view, so they are primary; a view that lost a minority of the members (crashes, a
 * partition's minority side) is primary; a view that lost half or more is not, and the node keeps
 * the last primary view as its reference until a view with a majority of it comes back.
 *
 * <h2>The first view of a node</h2>
 * A node has no history before its first view, so it <b>adopts its first view as primary</b> (that
 * is how a cluster starts, and how a joiner in a healthy cluster starts: its first view is the
 * cluster's primary view plus itself). The known limit: a node that joins while the cluster is
 * partitioned and that only reaches the minority side also takes that view as primary. It cannot
 * harm the majority by itself: the old members of that side hold the view as non-primary, so they
 * answer no protocol message of it, and every algorithm needs an answer from the other members of
 * a new view (census, barrier, sync) before it grants. A node that starts alone while the cluster
 * exists but cannot be reached starts a cluster of its own; no membership rule without a static
 * member list can prevent that.
 *
 * <p>Pure: no clock, no threads. Not thread-safe: one instance per node, used from the thread that
 * installs views, in epoch order.
 */
public final class PrimaryComponent {

    /*
     * Overview.
     *
     * State: lastPrimary (null before the first view), current (the last view accepted, primary or
     * not), currentPrimary.
     * Invariant: lastPrimary is the last view for which accept() returned true; it only changes to a
     * view with a strict majority of it, so two concurrent primaries of one lineage are impossible.
     */

    private View lastPrimary;
    private View current;
    private boolean currentPrimary;

    /** A node that has installed no view yet. */
    public PrimaryComponent() {
    }

    /**
     * Whether {@code view} holds a strict majority of {@code reference}'s members.
     *
     * @throws NullPointerException if either is null
     */
    public static boolean isMajorityOf(View view, View reference) {
        Objects.requireNonNull(view, "view");
        List<NodeId> members = reference.members();
        int common = 0;
        for (NodeId member : members) {
            if (view.contains(member)) {
                common++;
            }
        }
        return common * 2 > members.size();
    }

    /**
     * Installs {@code view} and returns whether it is primary. The first view ever installed is
     * primary; later ones are primary iff they hold a strict majority of the last primary view.
     * A view whose epoch is not above the last one installed changes nothing and returns the
     * current verdict.
     *
     * @throws NullPointerException if {@code view} is null
     */
    public boolean accept(View view) {
        Objects.requireNonNull(view, "view");
        if (current != null && view.epoch() <= current.epoch()) {
            return currentPrimary;
        }
        current = view;
        currentPrimary = lastPrimary == null || isMajorityOf(view, lastPrimary);
        if (currentPrimary) {
            lastPrimary = view;
        }
        return currentPrimary;
    }

    /** Whether the last view installed is primary (false before the first view). */
    public boolean isPrimary() {
        return current != null && currentPrimary;
    }

    /** The last view installed, or null before the first. */
    public View current() {
        return current;
    }

    /** The last primary view, the reference of the majority rule; null before the first view. */
    public View lastPrimary() {
        return lastPrimary;
    }

    @Override
    public String toString() {
        return "PrimaryComponent[" + (current == null ? "no view" : (currentPrimary ? "primary " : "non-primary ")
                + current.epoch() + current.members() + (currentPrimary ? "" : ", last primary " + lastPrimary.epoch()
                + lastPrimary.members())) + "]";
    }
}
