package io.dlock.membership;

import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

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
 * <h2>Clean leaves</h2>
 * A member that shuts down cleanly announces it first ({@link #departing}; the runtime's clean-leave
 * handshake does this before the member's transport closes). When a later view no longer contains it,
 * it is taken out of the reference before the majority is counted: {@code |V ∩ (P − D)| * 2 > |P − D|},
 * D the announced members absent from V. So nodes shut down one by one leave a primary cluster behind,
 * down to the last node, as long as each announcement reached the others (a node that did not hear it
 * counts the departure as a failure, which only makes its verdict stricter). Safety is kept because a
 * departed node is in neither side of any later split: if sides S1 and S2 (disjoint) discount D1 and
 * D2, both lie in Q = P − (D1 ∪ D2), and |S1| > |P − D1|/2 ≥ |Q|/2 with |S2| > |Q|/2 cannot both hold.
 *
 * <h2>With a configured cluster size ({@code dlock.cluster.size} = n)</h2>
 * A view is primary iff it has more than n/2 members: {@code |V| * 2 > n}, whatever the node's history.
 * Two disjoint views cannot both hold more than half of n members while at most n nodes run, so this
 * rule needs no history at all: nodes that start together and do not find each other at once form
 * views that are not primary until enough of them merge, a node that starts alone never grants, and a
 * node that restarts with a new id (a JGroups node without {@code dlock.node.id} gets one on every
 * start) counts like the one it replaces. The history rule below is not used then: a restarted node
 * is a new member to it, so a cluster that crashed and restarted could lose its lineage and stay
 * non-primary for good, and, worse, a lineage that shrank below n/2 and a group of fresh nodes above
 * n/2 could both be primary. The price of the static rule: a cluster drained below a majority of n
 * (clean leaves included) grants nothing until nodes come back, as in every quorum system with a
 * fixed size. A view with more than n members is accepted as primary and is a configuration error
 * the runtime logs (the rule is only safe while at most n nodes run).
 *
 * <h2>The first view of a node (no configured size)</h2>
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

    /** {@code dlock.cluster.size}, or 0 when not configured (the history rule). */
    private final int clusterSize;
    private View lastPrimary;
    private View current;
    private boolean currentPrimary;
    /** Members that announced a clean leave and have not yet been seen gone by a view. */
    private final Set<NodeId> departing = new TreeSet<>();
    /** The last primary view before {@link #current} was accepted (null for the first), for {@link #quorumRule}. */
    private View reference;
    /** The departed members discounted from {@link #reference} when {@link #current} was accepted. */
    private Set<NodeId> referenceDeparted = Set.of();

    /** A node that has installed no view yet, without a configured cluster size (the history rule). */
    public PrimaryComponent() {
        this.clusterSize = 0;
    }

    /**
     * A node that has installed no view yet, in a cluster of {@code clusterSize} nodes: a view is
     * primary iff it has more than {@code clusterSize / 2} members.
     *
     * @throws IllegalArgumentException if {@code clusterSize} is below 1
     */
    public PrimaryComponent(int clusterSize) {
        if (clusterSize < 1) {
            throw new IllegalArgumentException("cluster size must be at least 1, got " + clusterSize);
        }
        this.clusterSize = clusterSize;
    }

    /** The configured cluster size, or 0 when the history rule is used. */
    public int clusterSize() {
        return clusterSize;
    }

    /**
     * How many members a view needs to be primary under a configured size ({@code n/2 + 1}), or 0 when
     * no size is configured (then it depends on the last primary view).
     */
    public int quorum() {
        return clusterSize == 0 ? 0 : clusterSize / 2 + 1;
    }

    /**
     * Whether {@code view} holds a strict majority of {@code reference}'s members.
     *
     * @throws NullPointerException if either is null
     */
    public static boolean isMajorityOf(View view, View reference) {
        return isMajorityOf(view, reference, Set.of());
    }

    /**
     * Whether {@code view} holds a strict majority of {@code reference}'s members, not counting the
     * members of {@code departed} that {@code view} no longer contains.
     */
    private static boolean isMajorityOf(View view, View reference, Set<NodeId> departed) {
        Objects.requireNonNull(view, "view");
        return holdsMajority(view::contains, reference, departed);
    }

    /** Whether the members {@code in} accepts are a strict majority of {@code reference}, {@code departed} discounted. */
    private static boolean holdsMajority(Predicate<NodeId> in, View reference, Set<NodeId> departed) {
        int common = 0;
        int counted = 0;
        for (NodeId member : reference.members()) {
            if (in.test(member)) {
                common++;
                counted++;
            } else if (!departed.contains(member)) {
                counted++;
            }
        }
        return common * 2 > counted;
    }

    /**
     * Records that {@code member} announced a clean leave: once a view without it arrives, it no longer
     * counts in the reference of the majority rule. Announcing a member that then crashes instead is
     * harmless: gone is gone.
     *
     * @throws NullPointerException if {@code member} is null
     */
    public void departing(NodeId member) {
        departing.add(Objects.requireNonNull(member, "member"));
    }

    /**
     * Installs {@code view} and returns whether it is primary. With a configured cluster size n, it is
     * primary iff it has more than n/2 members. Without one, the first view ever installed is
     * primary; later ones are primary iff they hold a strict majority of the last primary view, not
     * counting the {@linkplain #departing departed} members.
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
        currentPrimary = clusterSize > 0 ? view.size() * 2 > clusterSize
                : lastPrimary == null || isMajorityOf(view, lastPrimary, departing);
        if (currentPrimary) {
            reference = lastPrimary;
            referenceDeparted = Set.copyOf(departing);
            lastPrimary = view;
            departing.removeIf(member -> !view.contains(member)); // gone: a later join is a new member
        }
        return currentPrimary;
    }

    /**
     * The quorum rule of the current view: whether a set of its members is a quorum, a set whose agreement
     * proves that no other view can be primary without one of them. With a configured size n: more than n/2
     * of them are members of the view. Without: a strict majority of the view and of the last primary view
     * before it (clean leaves discounted), so that the quorums of two consecutive primary views always share a
     * member. Nothing is a quorum of a view that is not primary. The rule is fixed when it is returned: later
     * views do not change it, so it may be used on any thread.
     */
    public Predicate<Set<NodeId>> quorumRule() {
        if (!isPrimary()) {
            return members -> false;
        }
        View view = current;
        int size = clusterSize;
        View before = reference;
        Set<NodeId> departedBefore = referenceDeparted;
        return members -> {
            int inView = 0;
            for (NodeId member : members) {
                if (view.contains(member)) {
                    inView++;
                }
            }
            if (size > 0) {
                return inView * 2 > size;
            }
            return inView * 2 > view.size()
                    && (before == null || holdsMajority(m -> members.contains(m) && view.contains(m), before, departedBefore));
        };
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

    /**
     * Why the last view installed is not primary, in words for a log line or an error message (for
     * example {@code "2 members, 3 of dlock.cluster.size=5 needed"}); empty if it is primary.
     */
    public String whyNotPrimary() {
        if (current == null) {
            return "no view installed yet";
        }
        if (currentPrimary) {
            return "";
        }
        if (clusterSize > 0) {
            return current.size() + " member(s), " + quorum() + " of dlock.cluster.size=" + clusterSize + " needed";
        }
        return "no majority of the last primary view " + lastPrimary.epoch() + " " + lastPrimary.members();
    }

    @Override
    public String toString() {
        return "PrimaryComponent[" + (current == null ? "no view" : (currentPrimary ? "primary " : "non-primary ")
                + current.epoch() + current.members() + (currentPrimary ? "" : ": " + whyNotPrimary())) + "]";
    }
}
