package io.dlock.inmemory.sim;

import io.dlock.NodeId;
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
 *       does on a membership change: every message of an older epoch still in flight is dropped;</li>
 *   <li>membership faults, with the views a membership service would install:
 *       {@link #crash(Role, long)} (the holder, a waiter, the last sender, the coordinator...),
 *       {@link #detectCrashes} (a view without the crashed node after a detection delay),
 *       {@link #join} (a node joins mid-run), {@link #split} (a partition that heals, one view per
 *       side then a merge view) and {@link #loseMessages} (loss followed by a view change). Every
 *       view goes through each node's {@link io.dlock.membership.PrimaryComponent}: only primary views
 *       reach the protocol ({@link io.dlock.membership.PrimaryGate}).</li>
 *   <li>{@link #pause(Role, long, long)} freezes a node for a while, as a long garbage-collection
 *       pause does: it processes nothing, and the membership does not notice.</li>
 *   <li>{@link #amnesia(NodeId, long)} restarts an idle node's protocol with no memory, as a node
 *       that crashed and recovered before anyone noticed (the decentralized algorithm's
 *       "coordinator reset", docs/algorithms.md A2 rule 8, DEC-4).</li>
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

    /**
     * Which node a {@link #crash(Role, long)} stops, chosen when the crash happens.
     */
    public enum Role {
        /** The node in the critical section (the lowest such node if a fenced-out one also holds); none: no crash. */
        HOLDER,
        /** The lowest live node with a request outstanding; none: no crash. */
        WAITER,
        /**
         * The sender of the last network message (for a token algorithm often the token's sender:
         * the token in flight is lost with it, see {@link #detectCrashes}).
         */
        LAST_SENDER,
        /**
         * The highest live member (the coordinator of the centralized algorithm with {@code coordinator=leader}; with
         * the default per-name choice too on up to 5 nodes 0..N-1, where the simulator's lock name is owned by the
         * highest id).
         */
        HIGHEST,
        /** The lowest live member (the steward of the token census). */
        LOWEST
    }

    /** A crash of the node playing {@code role} at {@code at}. */
    record RoleCrash(Role role, long at) {
    }

    /** {@code node} is outside the cluster until it joins at {@code at}. */
    record JoinAt(NodeId node, long at) {
    }

    /**
     * A partition that the membership sees: links between {@code minority} and the others are cut
     * during {@code [from, until)}; each side installs its own view (same epoch) at {@code from +
     * detect}, and the merge view at {@code until + detect}.
     */
    record Split(Set<NodeId> minority, long from, long until, Role around, int size) {
    }

    /**
     * Every network message sent in {@code [from, until)} is lost; if {@code viewAfter}, a view of the
     * same members follows at {@code until}.
     */
    record LossWindow(long from, long until, boolean viewAfter) {
    }

    /** {@code node} restarts with no memory at {@code at}. */
    record AmnesiaAt(NodeId node, long at) {
    }

    /** The node playing {@code role} at {@code at} is paused for {@code duration}. */
    record PauseAt(Role role, long at, long duration) {
    }

    private static final FaultPlan NONE = new FaultPlan(0, 0, List.of(), List.of(), List.of(), List.of());

    private double dropProbability;
    private double duplicateProbability;
    private List<LinkRule> links;
    private List<CrashAt> crashes;
    private List<PartitionWindow> partitions;
    private List<ViewChange> views;
    private List<RoleCrash> roleCrashes = List.of();
    private List<JoinAt> joins = List.of();
    private List<Split> splits = List.of();
    private List<LossWindow> losses = List.of();
    private List<PauseAt> pauses = List.of();
    private List<AmnesiaAt> amnesias = List.of();
    private long detectDelay = -1;

    private FaultPlan(double dropProbability, double duplicateProbability, List<LinkRule> links,
                      List<CrashAt> crashes, List<PartitionWindow> partitions, List<ViewChange> views) {
        this.dropProbability = dropProbability;
        this.duplicateProbability = duplicateProbability;
        this.links = List.copyOf(links);
        this.crashes = List.copyOf(crashes);
        this.partitions = List.copyOf(partitions);
        this.views = List.copyOf(views);
    }

    private FaultPlan copy() {
        FaultPlan c = new FaultPlan(dropProbability, duplicateProbability, links, crashes, partitions, views);
        c.roleCrashes = roleCrashes;
        c.joins = joins;
        c.splits = splits;
        c.losses = losses;
        c.pauses = pauses;
        c.amnesias = amnesias;
        c.detectDelay = detectDelay;
        return c;
    }

    private static <T> List<T> plus(List<T> list, T item) {
        List<T> more = new ArrayList<>(list);
        more.add(item);
        return List.copyOf(more);
    }

    /** No faults: reliable channels, no crash, one view for the whole run. */
    public static FaultPlan none() {
        return NONE;
    }

    /** Whether this plan injects nothing at all. */
    public boolean isEmpty() {
        return dropProbability == 0 && duplicateProbability == 0 && links.isEmpty() && crashes.isEmpty()
                && partitions.isEmpty() && views.isEmpty() && roleCrashes.isEmpty() && joins.isEmpty()
                && splits.isEmpty() && losses.isEmpty() && pauses.isEmpty() && amnesias.isEmpty() && detectDelay < 0;
    }

    /**
     * Loses each network message independently with probability {@code probability}.
     *
     * @throws IllegalArgumentException unless {@code 0 <= probability <= 1}
     */
    public FaultPlan drop(double probability) {
        FaultPlan c = copy();
        c.dropProbability = checkProbability(probability);
        return c;
    }

    /**
     * Delivers each network message a second time with probability {@code probability}, after an
     * extra delay drawn from the run's {@link DelayModel}.
     *
     * @throws IllegalArgumentException unless {@code 0 <= probability <= 1}
     */
    public FaultPlan duplicate(double probability) {
        FaultPlan c = copy();
        c.duplicateProbability = checkProbability(probability);
        return c;
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
        FaultPlan c = copy();
        c.crashes = plus(crashes, new CrashAt(node, atTime));
        return c;
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
        FaultPlan c = copy();
        c.partitions = plus(partitions, new PartitionWindow(List.copyOf(copy), fromTime, untilTime));
        return c;
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
        FaultPlan c = copy();
        c.views = plus(views, new ViewChange(atTime, List.copyOf(new TreeSet<>(members))));
        return c;
    }

    /**
     * Crashes, at {@code atTime}, the node that plays {@code role} then (see {@link Role}); if no
     * node plays it, nothing happens.
     *
     * @throws IllegalArgumentException if {@code atTime} is negative
     */
    public FaultPlan crash(Role role, long atTime) {
        Objects.requireNonNull(role, "role");
        checkTime(atTime);
        FaultPlan c = copy();
        c.roleCrashes = plus(roleCrashes, new RoleCrash(role, atTime));
        return c;
    }

    /**
     * Pauses, at {@code atTime}, the node that plays {@code role} then (see {@link Role}), for
     * {@code duration}: a process frozen by a long garbage-collection pause, or a VM that was
     * suspended. While paused the node processes nothing; the messages it receives are delivered when
     * the pause ends, in the order they arrived; its own local events (timers, its next request, the
     * end of its critical section) that fall in the pause happen as much later as the pause still had
     * to run when they were due, i.e. its clock stood still. Nobody is told: no view changes. If no node
     * plays the role at {@code atTime}, nothing happens.
     *
     * @throws IllegalArgumentException if {@code atTime} is negative or {@code duration} is not positive
     */
    public FaultPlan pause(Role role, long atTime, long duration) {
        Objects.requireNonNull(role, "role");
        checkTime(atTime);
        if (duration <= 0) {
            throw new IllegalArgumentException("pause duration must be > 0, got " + duration);
        }
        FaultPlan c = copy();
        c.pauses = plus(pauses, new PauseAt(role, atTime, duration));
        return c;
    }

    /**
     * At {@code atTime}, {@code node} restarts at once with a fresh protocol instance and no memory
     * of what it had said or promised (votes, queues, tokens): a crash and recovery too fast for the
     * membership to notice, in the same view. The decentralized algorithm's "coordinator amnesia"
     * (docs/algorithms.md A2 rule 8): a replica forgets the vote it gave, so a second client can collect a
     * majority (DEC-4). Only an idle node restarts (nothing requested, nothing held: a node's own
     * application request would otherwise vanish with it); if the node is busy at {@code atTime},
     * nothing happens.
     *
     * @throws IllegalArgumentException if {@code atTime} is negative
     */
    public FaultPlan amnesia(NodeId node, long atTime) {
        Objects.requireNonNull(node, "node");
        checkTime(atTime);
        FaultPlan c = copy();
        c.amnesias = plus(amnesias, new AmnesiaAt(node, atTime));
        return c;
    }

    /**
     * Turns on the membership service's failure detection: {@code delay} after each crash, the live
     * members install a view without the crashed node (messages the crashed node had in flight are
     * lost with it). Without it a crash changes no view.
     *
     * @throws IllegalArgumentException if {@code delay} is negative
     */
    public FaultPlan detectCrashes(long delay) {
        checkTime(delay);
        FaultPlan c = copy();
        c.detectDelay = delay;
        return c;
    }

    /**
     * {@code node} is not a member at the start (it makes no request and gets no message); at
     * {@code atTime} it joins: its protocol is created (as the runtime creates one, not idle) and
     * every live member installs a view of the current members plus {@code node}. Its workload
     * starts then.
     *
     * @throws IllegalArgumentException if {@code atTime} is negative
     */
    public FaultPlan join(NodeId node, long atTime) {
        Objects.requireNonNull(node, "node");
        checkTime(atTime);
        FaultPlan c = copy();
        c.joins = plus(joins, new JoinAt(node, atTime));
        return c;
    }

    /**
     * A partition that the membership sees, as JGroups does: during {@code [fromTime, untilTime)} the
     * links between {@code minority} and the other nodes are cut; at {@code fromTime + d} (d the
     * {@link #detectCrashes detection delay}, 0 if off) each side installs a view of its own live
     * members, both with the same epoch (as two JGroups coordinators may); at {@code untilTime + d}
     * every live member installs the merge view, with a higher epoch. The majority rule decides
     * which side may grant.
     *
     * @throws IllegalArgumentException if the window is empty or {@code minority} is empty
     */
    public FaultPlan split(Collection<NodeId> minority, long fromTime, long untilTime) {
        checkTime(fromTime);
        if (untilTime <= fromTime) {
            throw new IllegalArgumentException("split window [" + fromTime + ", " + untilTime + ") is empty");
        }
        if (minority.isEmpty()) {
            throw new IllegalArgumentException("a split needs at least one node on the minority side");
        }
        FaultPlan c = copy();
        c.splits = plus(splits, new Split(Set.copyOf(minority), fromTime, untilTime, null, 0));
        return c;
    }

    /**
     * A {@link #split} whose minority side is chosen when it starts: the node playing {@code role}
     * (typically {@link Role#HOLDER}: the lock or token holder is cut off) and the next
     * {@code size - 1} live members after it in id order (wrapping around). If nobody plays the role
     * then, nothing happens.
     *
     * @throws IllegalArgumentException if the window is empty or {@code size < 1}
     */
    public FaultPlan splitAround(Role role, int size, long fromTime, long untilTime) {
        Objects.requireNonNull(role, "role");
        checkTime(fromTime);
        if (untilTime <= fromTime) {
            throw new IllegalArgumentException("split window [" + fromTime + ", " + untilTime + ") is empty");
        }
        if (size < 1) {
            throw new IllegalArgumentException("a split needs at least one node on the minority side, got " + size);
        }
        FaultPlan c = copy();
        c.splits = plus(splits, new Split(Set.of(), fromTime, untilTime, role, size));
        return c;
    }

    /**
     * Loses every network message sent during {@code [fromTime, untilTime)}, then installs at
     * {@code untilTime} a new view of the same members: message loss as a transport with reliable
     * channels shows it, lost messages followed by a view change (the new epoch re-sends).
     *
     * @throws IllegalArgumentException if the window is empty
     */
    public FaultPlan loseMessages(long fromTime, long untilTime) {
        return loseMessages(fromTime, untilTime, true);
    }

    /**
     * Loses every network message sent during {@code [fromTime, untilTime)}; with {@code viewAfter}
     * false no view follows: only an algorithm with its own in-epoch recovery (CTTA's REGENERATE,
     * Naimi-Trehel's consult/query/election) survives that.
     *
     * @throws IllegalArgumentException if the window is empty
     */
    public FaultPlan loseMessages(long fromTime, long untilTime, boolean viewAfter) {
        checkTime(fromTime);
        if (untilTime <= fromTime) {
            throw new IllegalArgumentException("loss window [" + fromTime + ", " + untilTime + ") is empty");
        }
        FaultPlan c = copy();
        c.losses = plus(losses, new LossWindow(fromTime, untilTime, viewAfter));
        return c;
    }

    List<RoleCrash> roleCrashes() {
        return roleCrashes;
    }

    List<JoinAt> joins() {
        return joins;
    }

    List<Split> splits() {
        return splits;
    }

    List<LossWindow> losses() {
        return losses;
    }

    List<PauseAt> pauses() {
        return pauses;
    }

    List<AmnesiaAt> amnesias() {
        return amnesias;
    }

    /** The failure detection delay, or -1 if crashes install no view. */
    long detectDelay() {
        return detectDelay;
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
        if (detectDelay >= 0) {
            code.append(".detectCrashes(").append(detectDelay).append("L)");
        }
        for (RoleCrash r : roleCrashes) {
            code.append(".crash(FaultPlan.Role.").append(r.role()).append(", ").append(r.at()).append("L)");
        }
        for (JoinAt j : joins) {
            code.append(".join(").append(nodeCode(j.node())).append(", ").append(j.at()).append("L)");
        }
        for (Split sp : splits) {
            if (sp.around() != null) {
                code.append(".splitAround(FaultPlan.Role.").append(sp.around()).append(", ").append(sp.size())
                        .append(", ").append(sp.from()).append("L, ").append(sp.until()).append("L)");
            } else {
                code.append(".split(").append(nodesCode(sp.minority())).append(", ").append(sp.from()).append("L, ")
                        .append(sp.until()).append("L)");
            }
        }
        for (LossWindow l : losses) {
            code.append(".loseMessages(").append(l.from()).append("L, ").append(l.until()).append("L, ")
                    .append(l.viewAfter()).append(')');
        }
        for (AmnesiaAt a : amnesias) {
            code.append(".amnesia(").append(nodeCode(a.node())).append(", ").append(a.at()).append("L)");
        }
        for (PauseAt p : pauses) {
            code.append(".pause(FaultPlan.Role.").append(p.role()).append(", ").append(p.at()).append("L, ")
                    .append(p.duration()).append("L)");
        }
        return code.toString();
    }

    private FaultPlan withLink(LinkRule rule) {
        FaultPlan c = copy();
        c.links = plus(links, rule);
        return c;
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
