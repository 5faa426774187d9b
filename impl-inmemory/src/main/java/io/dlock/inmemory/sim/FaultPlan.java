package io.dlock.inmemory.sim;

import io.dlock.spi.NodeId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The faults injected into one simulated run: named, composable and seeded.
 *
 * <p>A plan is immutable; each method returns a new plan with one more fault, so plans compose
 * by chaining ({@code FaultPlan.none().drop(0.01).crash(NodeId.of(3), 50)}). Random faults
 * (drop and duplicate probabilities, the extra delay of a duplicate) draw only from the
 * simulation's fault random source, and only when their probability is positive, so adding a
 * fault never changes the message delays or the workload of a seed.
 *
 * <p>What each fault does (all times are virtual time units):
 * <ul>
 *   <li>{@link #drop(double)} and {@link #duplicate(double)} act on every network message
 *       (self-messages are local and never lost or duplicated);</li>
 *   <li>{@link #dropMessages} and {@link #delayMessages} are filters on links by sender, receiver and
 *       message type (MicroRaft's {@code Firewall.dropMessagesTo(target, type)});</li>
 *   <li>{@link #crash} stops a node for good: it processes nothing more, its timers never fire,
 *       messages to it are lost (but were counted as sent) and, if it held the lock, its hold ends;</li>
 *   <li>{@link #partition} cuts the links between groups for a time window;</li>
 *   <li>{@link #installView} installs a new view (a new epoch) on its live members, as the runtime
 *       does on a membership change: every message of an older epoch still in flight is dropped.</li>
 * </ul>
 * A dropped message is counted as sent. A duplicate is not counted as a protocol message: it is the
 * network's doing, reported in {@link SimulationResult#duplicated()}.
 *
 * <p>{@link #toString()} is Java code that rebuilds the plan, used in replay lines.
 */
public final class FaultPlan {

    /** A filter on a link; {@code null} sender, receiver or type matches any. */
    record LinkRule(NodeId from, NodeId to, Class<?> type, long limit, long extraDelay, boolean drop) {

        boolean matches(int src, int dst, Object message) {
            return (from == null || from.value() == src)
                    && (to == null || to.value() == dst)
                    && (type == null || type.isInstance(message));
        }
    }

    /** {@code node} stops at {@code at}. */
    record CrashAt(NodeId node, long at) {
    }

    /** Links between different {@code groups} are cut during {@code [from, until)}. */
    record PartitionWindow(List<Set<NodeId>> groups, long from, long until) {
    }

    /** A view with {@code members} is installed at {@code at}. */
    record ViewChange(long at, List<NodeId> members) {
    }

    private static final FaultPlan NONE = new FaultPlan(0, 0, List.of(), List.of(), List.of(), List.of());

    private final double dropProbability;
    private final double duplicateProbability;
    private final List<LinkRule> links;
    private final List<CrashAt> crashes;
    private final List<PartitionWindow> partitions;
    private final List<ViewChange> views;

    private FaultPlan(double dropProbability, double duplicateProbability, List<LinkRule> links,
                      List<CrashAt> crashes, List<PartitionWindow> partitions, List<ViewChange> views) {
        this.dropProbability = dropProbability;
        this.duplicateProbability = duplicateProbability;
        this.links = List.copyOf(links);
        this.crashes = List.copyOf(crashes);
        this.partitions = List.copyOf(partitions);
        this.views = List.copyOf(views);
    }

    /** No faults: reliable channels, no crash, one view for the whole run. */
    public static FaultPlan none() {
        return NONE;
    }

    /** Whether this plan injects nothing at all. */
    public boolean isEmpty() {
        return dropProbability == 0 && duplicateProbability == 0 && links.isEmpty() && crashes.isEmpty()
                && partitions.isEmpty() && views.isEmpty();
    }

    /**
     * Loses each network message independently with probability {@code probability}.
     *
     * @throws IllegalArgumentException unless {@code 0 <= probability <= 1}
     */
    public FaultPlan drop(double probability) {
        return new FaultPlan(checkProbability(probability), duplicateProbability, links, crashes, partitions, views);
    }

    /**
     * Delivers each network message a second time with probability {@code probability}, after an
     * extra delay drawn from the run's {@link DelayModel}.
     *
     * @throws IllegalArgumentException unless {@code 0 <= probability <= 1}
     */
    public FaultPlan duplicate(double probability) {
        return new FaultPlan(dropProbability, checkProbability(probability), links, crashes, partitions, views);
    }

    /**
     * Loses every message from {@code from} to {@code to} that is an instance of {@code type}; a
     * {@code null} argument matches anything.
     */
    public FaultPlan dropMessages(NodeId from, NodeId to, Class<?> type) {
        return dropMessages(from, to, type, Long.MAX_VALUE);
    }

    /**
     * Loses the first {@code limit} messages from {@code from} to {@code to} that are instances of
     * {@code type} (for instance the one token of a token algorithm); {@code null} matches anything.
     *
     * @throws IllegalArgumentException if {@code limit} is not positive
     */
    public FaultPlan dropMessages(NodeId from, NodeId to, Class<?> type, long limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be > 0, got " + limit);
        }
        return withLink(new LinkRule(from, to, type, limit, 0, true));
    }

    /**
     * Adds {@code extraDelay} units to every message from {@code from} to {@code to} that is an
     * instance of {@code type}; {@code null} matches anything.
     *
     * @throws IllegalArgumentException if {@code extraDelay} is negative
     */
    public FaultPlan delayMessages(NodeId from, NodeId to, Class<?> type, long extraDelay) {
        if (extraDelay < 0) {
            throw new IllegalArgumentException("extra delay must be >= 0, got " + extraDelay);
        }
        return withLink(new LinkRule(from, to, type, Long.MAX_VALUE, extraDelay, false));
    }

    /**
     * Crashes {@code node} at virtual time {@code atTime} (a crash-stop failure, no recovery).
     *
     * @throws IllegalArgumentException if {@code atTime} is negative
     */
    public FaultPlan crash(NodeId node, long atTime) {
        Objects.requireNonNull(node, "node");
        checkTime(atTime);
        List<CrashAt> more = new ArrayList<>(crashes);
        more.add(new CrashAt(node, atTime));
        return new FaultPlan(dropProbability, duplicateProbability, links, more, partitions, views);
    }

    /**
     * Cuts every link between nodes of different {@code groups} during {@code [fromTime, untilTime)}:
     * a message sent or delivered inside the window across groups is lost. Nodes named in no group
     * form one more group together.
     *
     * @throws IllegalArgumentException if the window is empty or a node is in two groups
     */
    public FaultPlan partition(List<? extends Collection<NodeId>> groups, long fromTime, long untilTime) {
        checkTime(fromTime);
        if (untilTime <= fromTime) {
            throw new IllegalArgumentException("partition window [" + fromTime + ", " + untilTime + ") is empty");
        }
        List<Set<NodeId>> copy = new ArrayList<>();
        Set<NodeId> seen = new TreeSet<>();
        for (Collection<NodeId> group : groups) {
            for (NodeId id : group) {
                if (!seen.add(id)) {
                    throw new IllegalArgumentException("node " + id + " is in two partition groups " + groups);
                }
            }
            copy.add(Set.copyOf(group));
        }
        List<PartitionWindow> more = new ArrayList<>(partitions);
        more.add(new PartitionWindow(List.copyOf(copy), fromTime, untilTime));
        return new FaultPlan(dropProbability, duplicateProbability, links, crashes, more, views);
    }

    /**
     * Installs, at {@code atTime}, a new view of {@code members} with the next epoch: each live member
     * gets {@link io.dlock.protocol.MutexProtocol#onView}, in ascending id order, and every message
     * of an older epoch still in flight is dropped on arrival. Nodes that are not members keep their
     * old view: a message is delivered only if it carries its receiver's current epoch, so members
     * and non-members no longer hear each other.
     *
     * @throws IllegalArgumentException if {@code members} is empty or {@code atTime} negative
     */
    public FaultPlan installView(long atTime, Collection<NodeId> members) {
        checkTime(atTime);
        if (members.isEmpty()) {
            throw new IllegalArgumentException("a view needs at least one member");
        }
        List<ViewChange> more = new ArrayList<>(views);
        more.add(new ViewChange(atTime, List.copyOf(new TreeSet<>(members))));
        return new FaultPlan(dropProbability, duplicateProbability, links, crashes, partitions, more);
    }

    double dropProbability() {
        return dropProbability;
    }

    double duplicateProbability() {
        return duplicateProbability;
    }

    List<LinkRule> links() {
        return links;
    }

    List<CrashAt> crashes() {
        return crashes;
    }

    List<PartitionWindow> partitions() {
        return partitions;
    }

    List<ViewChange> views() {
        return views;
    }

    /** Java code that rebuilds this plan, as used in replay lines. */
    @Override
    public String toString() {
        StringBuilder code = new StringBuilder("FaultPlan.none()");
        if (dropProbability > 0) {
            code.append(".drop(").append(dropProbability).append(')');
        }
        if (duplicateProbability > 0) {
            code.append(".duplicate(").append(duplicateProbability).append(')');
        }
        for (LinkRule rule : links) {
            code.append(rule.drop() ? ".dropMessages(" : ".delayMessages(")
                    .append(nodeCode(rule.from())).append(", ").append(nodeCode(rule.to())).append(", ")
                    .append(rule.type() == null ? "null" : className(rule.type()) + ".class");
            if (!rule.drop()) {
                code.append(", ").append(rule.extraDelay()).append('L');
            } else if (rule.limit() != Long.MAX_VALUE) {
                code.append(", ").append(rule.limit()).append('L');
            }
            code.append(')');
        }
        for (CrashAt crash : crashes) {
            code.append(".crash(").append(nodeCode(crash.node())).append(", ").append(crash.at()).append("L)");
        }
        for (PartitionWindow p : partitions) {
            code.append(".partition(List.of(")
                    .append(p.groups().stream().map(FaultPlan::nodesCode).collect(Collectors.joining(", ")))
                    .append("), ").append(p.from()).append("L, ").append(p.until()).append("L)");
        }
        for (ViewChange v : views) {
            code.append(".installView(").append(v.at()).append("L, ").append(nodesCode(v.members())).append(')');
        }
        return code.toString();
    }

    private FaultPlan withLink(LinkRule rule) {
        List<LinkRule> more = new ArrayList<>(links);
        more.add(rule);
        return new FaultPlan(dropProbability, duplicateProbability, more, crashes, partitions, views);
    }

    private static String nodeCode(NodeId id) {
        return id == null ? "null" : "NodeId.of(" + id.value() + ")";
    }

    private static String nodesCode(Collection<NodeId> ids) {
        return "List.of(" + new TreeSet<>(ids).stream().map(FaultPlan::nodeCode).collect(Collectors.joining(", ")) + ")";
    }

    private static String className(Class<?> type) {
        String canonical = type.getCanonicalName();
        return canonical != null ? canonical : type.getName();
    }

    private static double checkProbability(double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("probability must be in [0, 1], got " + p);
        }
        return p;
    }

    private static void checkTime(long time) {
        if (time < 0) {
            throw new IllegalArgumentException("virtual time must be >= 0, got " + time);
        }
    }
}
