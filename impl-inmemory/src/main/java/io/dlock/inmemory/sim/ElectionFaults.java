package io.dlock.inmemory.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Faults of an {@link ElectionSimulation} that the membership sees: crashes at given times, views
 * installed at given times (one per component: a partition installs several, a heal one), and
 * windows of random message loss. Immutable; each method returns a copy with one more fault.
 *
 * <p>With any fault, the simulation drives each node as the runtime's election driver does
 * ({@code io.dlock.runtime.ElectionDriver}): one protocol instance per view, whose ring is the
 * run's ring order restricted to the view's members; messages of an older view are dropped, those
 * of a newer view wait until the node installs it; a view that is not primary for the node ({@link
 * io.dlock.membership.PrimaryComponent}) has no leader and elects none; a new primary view starts an
 * election at a node that knows no leader, or whose leader left the view or is no longer its
 * highest member, and carries the leader over otherwise. Each node installs a view at a time drawn
 * between the view change and one largest delay after it. The checker then looks at each view that
 * ran with no loss and no crash of a member: every live member of a primary component knows its
 * highest member (and, for an algorithm that reports them, its members) by the next view change or
 * the end of the run (views replaced sooner than {@link #settle} are not asked), and learned no
 * other leader in that view; every member of a component that
 * is not primary knows no leader.
 */
public final class ElectionFaults {

    /** Node {@code node} (1..N) crashes at virtual time {@code at}. */
    record Crash(int node, long at) {
    }

    /** At virtual time {@code at} the live nodes are split into {@code components} (ids 1..N), each installing its own view. */
    record ViewChange(long at, List<List<Integer>> components) {
        ViewChange {
            components = components.stream().map(List::copyOf).toList();
        }
    }

    /** Messages sent in {@code [from, until)} are lost with {@code probability}. */
    record Loss(long from, long until, double probability) {
    }

    private static final ElectionFaults NONE = new ElectionFaults(List.of(), List.of(), List.of(), 0);

    private final List<Crash> crashes;
    private final List<ViewChange> views;
    private final List<Loss> losses;
    private final long settle;

    private ElectionFaults(List<Crash> crashes, List<ViewChange> views, List<Loss> losses, long settle) {
        this.crashes = List.copyOf(crashes);
        this.views = List.copyOf(views);
        this.losses = List.copyOf(losses);
        this.settle = settle;
    }

    /**
     * A copy in which the checker skips the views replaced less than {@code time} after they were
     * given (their election may still have been running); by default (0) every view is checked.
     * The views at the end of the run are always checked.
     */
    public ElectionFaults settle(long time) {
        checkTime(time);
        return new ElectionFaults(crashes, views, losses, time);
    }

    long settle() {
        return settle;
    }

    /** No fault: the simulation runs one election in one view, as without faults. */
    public static ElectionFaults none() {
        return NONE;
    }

    /** Whether there is no fault. */
    public boolean isEmpty() {
        return crashes.isEmpty() && views.isEmpty() && losses.isEmpty();
    }

    /**
     * A copy in which node {@code node} (1..N) crashes at {@code at}: it handles nothing more and
     * messages to it are lost; it stays in the members until the next view change leaves it out.
     */
    public ElectionFaults crash(int node, long at) {
        checkTime(at);
        List<Crash> c = new ArrayList<>(crashes);
        c.add(new Crash(node, at));
        return new ElectionFaults(c, views, losses, settle);
    }

    /** A copy in which one view of {@code members} (ids 1..N) is installed at {@code at}. */
    public ElectionFaults view(long at, List<Integer> members) {
        return partition(at, List.of(members));
    }

    /**
     * A copy in which, at {@code at}, each of {@code components} (disjoint sets of ids 1..N)
     * installs a view of its own, and messages between components are lost from then on until a
     * later view change joins them.
     */
    public ElectionFaults partition(long at, List<List<Integer>> components) {
        checkTime(at);
        if (components.isEmpty() || components.stream().anyMatch(List::isEmpty)) {
            throw new IllegalArgumentException("every component needs a member: " + components);
        }
        if (components.stream().mapToLong(List::size).sum() != components.stream().flatMap(List::stream).distinct().count()) {
            throw new IllegalArgumentException("components overlap: " + components);
        }
        List<ViewChange> v = new ArrayList<>(views);
        v.add(new ViewChange(at, components));
        return new ElectionFaults(crashes, v, losses, settle);
    }

    /** A copy in which each message sent in {@code [from, until)} is lost with {@code probability}. */
    public ElectionFaults loss(long from, long until, double probability) {
        checkTime(from);
        if (until < from || !(probability >= 0 && probability <= 1)) {
            throw new IllegalArgumentException("loss window [" + from + ", " + until + ") p=" + probability);
        }
        List<Loss> l = new ArrayList<>(losses);
        l.add(new Loss(from, until, probability));
        return new ElectionFaults(crashes, views, l, settle);
    }

    List<Crash> crashes() {
        return crashes;
    }

    List<ViewChange> views() {
        return views;
    }

    List<Loss> losses() {
        return losses;
    }

    private static void checkTime(long at) {
        if (at < 0) {
            throw new IllegalArgumentException("virtual time must be >= 0, got " + at);
        }
    }

    /** Java that rebuilds these faults. */
    @Override
    public String toString() {
        StringBuilder code = new StringBuilder("ElectionFaults.none()");
        for (Crash c : crashes) {
            code.append(".crash(").append(c.node()).append(", ").append(c.at()).append("L)");
        }
        for (ViewChange v : views) {
            code.append(".partition(").append(v.at()).append("L, List.of(")
                    .append(v.components().stream().map(m -> "List.of(" + m.stream().map(String::valueOf)
                            .collect(Collectors.joining(", ")) + ")").collect(Collectors.joining(", ")))
                    .append("))");
        }
        for (Loss l : losses) {
            code.append(".loss(").append(l.from()).append("L, ").append(l.until()).append("L, ")
                    .append(l.probability()).append(')');
        }
        if (settle > 0) {
            code.append(".settle(").append(settle).append("L)");
        }
        return code.toString();
    }
}
