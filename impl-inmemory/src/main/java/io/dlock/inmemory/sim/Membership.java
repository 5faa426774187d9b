package io.dlock.inmemory.sim;

import io.dlock.membership.PrimaryGate;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The membership of one mutual-exclusion run ({@link Engine}): who founds the cluster and who joins
 * later, the views it installs (the fault plan's explicit ones, and those that follow a join, a
 * detected crash, a split or a loss window), and the node faults of the plan: crashes (by node or by
 * role), pauses and amnesia. Each planned action is a {@link Event#MEMBERSHIP} event on the run's
 * queue, scheduled in the order of the plan.
 *
 * @param <M> the algorithm's message type
 */
final class Membership<M extends ProtocolMessage> {

    /** What the membership needs from the engine that runs it. */
    interface Host<M extends ProtocolMessage> {
        /** The virtual time of the event being processed. */
        long now();

        /** A new protocol for {@code node}, created in {@code view}, behind a gate open iff {@code primary}. */
        PrimaryGate<M> newGate(SimNode<M> node, View view, boolean startsIdle, boolean primary);

        /** {@code node} joined the cluster (its workload may start). */
        void joined(SimNode<M> node);

        /** {@code node} crashed (its workload is over). */
        void crashed(SimNode<M> node);

        /** {@code node}'s protocol has been given {@code view} (after a join, its first view is not told). */
        default void viewInstalled(SimNode<M> node, View view) {
        }
    }

    private final Host<M> host;
    private final FaultPlan faults;
    private final Network<M> network;
    private final Checker checker;
    private final EventQueue queue;
    private final int n;
    private final NodeId[] ids;
    private final Set<Integer> joiners = new TreeSet<>();
    private final View initial;
    private List<SimNode<M>> nodes;
    /** Planned actions (joins, role crashes, split and merge views, detections), by index. */
    private final List<Runnable> actions = new ArrayList<>();
    private final long detectDelay;
    /** The cluster: joined members whose crash has not been detected, by index. */
    private final TreeSet<Integer> cluster = new TreeSet<>();
    /** The minority side of the split the membership currently sees, or null. */
    private Set<Integer> activeSplit;
    private long epoch;
    /** Per node, the pause window {@code [pausedFrom, pausedUntil)} ({@link FaultPlan#pause}); null if the plan has none. */
    private final long[] pausedFrom;
    private final long[] pausedUntil;
    private long fencedOut;
    private long faultsInjected;

    /**
     * @throws IllegalArgumentException if a node joins twice, every node is a joiner, or a join names
     *                                  a node outside {@code ids}
     */
    Membership(Host<M> host, FaultPlan faults, Network<M> network, Checker checker, EventQueue queue, NodeId[] ids) {
        this.host = host;
        this.faults = faults;
        this.network = network;
        this.checker = checker;
        this.queue = queue;
        this.ids = ids;
        this.n = ids.length;
        this.detectDelay = faults.detectDelay();
        this.pausedFrom = faults.pauses().isEmpty() ? null : new long[n];
        this.pausedUntil = faults.pauses().isEmpty() ? null : new long[n];
        for (FaultPlan.JoinAt join : faults.joins()) {
            if (!joiners.add(network.checkedIndex(join.node(), "join"))) {
                throw new IllegalArgumentException("node " + join.node() + " joins twice");
            }
        }
        if (joiners.size() == n) {
            throw new IllegalArgumentException("every node is a joiner: nobody starts the cluster");
        }
        List<NodeId> founders = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (!joiners.contains(i)) {
                founders.add(ids[i]);
                cluster.add(i);
            }
        }
        initial = joiners.isEmpty() ? View.ofRange(1, n) : new View(1, founders);
        epoch = initial.epoch();
    }

    /** The view the founders start in. */
    View initialView() {
        return initial;
    }

    /** Whether node {@code index} starts outside the cluster and joins later. */
    boolean joinsLater(int index) {
        return joiners.contains(index);
    }

    /**
     * Schedules the plan's membership actions and node faults on the queue, in the plan's order.
     *
     * @throws IllegalArgumentException if a fault names a node outside the simulation
     */
    void schedule(List<SimNode<M>> runNodes) {
        this.nodes = runNodes;
        for (FaultPlan.JoinAt join : faults.joins()) {
            int index = (int) join.node().value();
            action(join.at(), () -> join(nodes.get(index)));
        }
        for (FaultPlan.RoleCrash crash : faults.roleCrashes()) {
            action(crash.at(), () -> {
                int victim = playing(crash.role());
                if (victim >= 0) {
                    crash(nodes.get(victim));
                }
            });
        }
        long d = Math.max(0, detectDelay);
        for (int k = 0; k < faults.splits().size(); k++) {
            FaultPlan.Split split = faults.splits().get(k);
            int[] group = network.splitGroups(faults, k);
            Set<Integer> minority = new TreeSet<>();
            for (NodeId id : split.minority()) {
                minority.add(network.checkedIndex(id, "split"));
            }
            action(split.from(), () -> {
                if (split.around() != null) {
                    chooseMinority(split, minority, group);
                }
                if (!minority.isEmpty()) {
                    checker.onFault(host.now());
                }
            });
            action(split.from() + d, () -> {
                if (!minority.isEmpty()) {
                    activeSplit = minority;
                    installClusterViews();
                }
            });
            action(split.until() + d, () -> {
                if (!minority.isEmpty()) {
                    activeSplit = null;
                    installClusterViews();
                }
            });
        }
        for (FaultPlan.LossWindow loss : faults.losses()) {
            action(loss.from(), () -> checker.onFault(host.now()));
            if (loss.viewAfter()) {
                action(loss.until(), this::installClusterViews);
            }
        }
        for (FaultPlan.PauseAt pause : faults.pauses()) {
            action(pause.at(), () -> {
                int victim = playing(pause.role());
                if (victim >= 0) {
                    long now = host.now();
                    checker.onFault(now);
                    faultsInjected++;
                    pausedFrom[victim] = now;
                    pausedUntil[victim] = now + pause.duration();
                }
            });
        }
        for (FaultPlan.AmnesiaAt amnesia : faults.amnesias()) {
            int index = network.checkedIndex(amnesia.node(), "amnesia");
            action(amnesia.at(), () -> forget(nodes.get(index)));
        }
        for (FaultPlan.CrashAt crash : faults.crashes()) {
            queue.add(crash.at(), queue.obtain(Event.CRASH, network.checkedIndex(crash.node(), "crash")));
        }
        List<FaultPlan.ViewChange> views = faults.views();
        for (int v = 0; v < views.size(); v++) {
            for (NodeId member : views.get(v).members()) {
                network.checkedIndex(member, "installView");
            }
            queue.add(views.get(v).at(), queue.obtain(Event.VIEW, v));
        }
    }

    /** Runs planned action {@code index} ({@link Event#MEMBERSHIP}). */
    void act(int index) {
        actions.get(index).run();
    }

    /** Installs the plan's explicit view change {@code index} ({@link Event#VIEW}). */
    void installPlannedView(int index) {
        installViews(List.of(faults.views().get(index).members()));
    }

    /** Whether crashes are detected, so that a crashed node's messages in flight are lost with it. */
    boolean detectsCrashes() {
        return detectDelay >= 0;
    }

    /**
     * If {@code event} is for a node paused at {@code now} ({@link FaultPlan#pause}), puts it back in
     * the queue for after the pause: a message at the pause's end, a local event (timer, request,
     * release) as much after the end as it was after the pause's start.
     *
     * @return whether the event was deferred
     */
    boolean deferIfPaused(Event event, long now) {
        if (pausedFrom == null) {
            return false;
        }
        int kind = event.kind;
        if (kind != Event.DELIVER && kind != Event.TIMER && kind != Event.REQUEST && kind != Event.RELEASE) {
            return false;
        }
        int i = event.node;
        if (now < pausedFrom[i] || now >= pausedUntil[i]) {
            return false;
        }
        queue.add(kind == Event.DELIVER ? pausedUntil[i] : pausedUntil[i] + (now - pausedFrom[i]), event);
        return true;
    }

    /** {@code node} crashes now (fail-stop); the membership detects it after the plan's delay, if ever. */
    void crash(SimNode<M> node) {
        if (node.crashed) {
            return;
        }
        long now = host.now();
        checker.onFault(now);
        node.crashed = true;
        node.timers.clear();
        faultsInjected++;
        checker.onCrash(node.index, now);
        host.crashed(node);
        if (detectDelay >= 0 && node.joined) {
            action(now + detectDelay, () -> {
                cluster.remove(node.index);
                installClusterViews();
            });
        }
    }

    /** Holders fenced out by a non-primary view. */
    long fencedOut() {
        return fencedOut;
    }

    /** Views installed and node faults injected. */
    long faultsInjected() {
        return faultsInjected;
    }

    /**
     * {@link FaultPlan#amnesia}: an idle, live, joined node gets a fresh protocol instance in its
     * current view (created idle, as if the run had just started for it); its pending timers die
     * with the old instance.
     */
    private void forget(SimNode<M> node) {
        if (node.crashed || !node.joined || node.gate == null || node.gate.frozen()
                || checker.holding(node.index) || checker.waiting(node.index)) {
            return;
        }
        checker.onFault(host.now());
        faultsInjected++;
        node.timers.clear();
        node.gate = host.newGate(node, node.view, true, true);
        node.protocol = node.gate;
    }

    /**
     * The minority of a {@link FaultPlan#splitAround}: the node playing the role and the next live
     * members after it; cuts their links from now on ({@code group}, all zeros until now, is the
     * window's side of each node).
     */
    private void chooseMinority(FaultPlan.Split split, Set<Integer> minority, int[] group) {
        int player = playing(split.around());
        if (player < 0) {
            return;
        }
        List<Integer> live = new ArrayList<>();
        for (int i : cluster) {
            if (!nodes.get(i).crashed) {
                live.add(i);
            }
        }
        int start = live.indexOf(player);
        if (start < 0) {
            return;
        }
        for (int k = 0; k < Math.min(split.size(), live.size() - 1); k++) {
            minority.add(live.get((start + k) % live.size()));
        }
        for (int i : minority) {
            group[i] = 0; // the others are all in group 1 (the window was built with one empty group)
        }
    }

    /** Schedules action {@code run} at {@code time}. */
    private void action(long time, Runnable run) {
        actions.add(run);
        queue.add(time, queue.obtain(Event.MEMBERSHIP, actions.size() - 1));
    }

    /** The live joined node that plays {@code role} now, or -1. */
    private int playing(FaultPlan.Role role) {
        switch (role) {
            case HOLDER:
            case WAITER:
                for (int i = 0; i < n; i++) {
                    SimNode<M> node = nodes.get(i);
                    if (!node.crashed && node.joined
                            && (role == FaultPlan.Role.HOLDER ? checker.holding(i) : checker.waiting(i))) {
                        return i;
                    }
                }
                return -1;
            case LAST_SENDER:
                int sender = network.lastSender();
                return sender >= 0 && !nodes.get(sender).crashed ? sender : -1;
            case HIGHEST:
            case LOWEST:
                for (Integer i : role == FaultPlan.Role.HIGHEST ? cluster.descendingSet() : cluster) {
                    if (!nodes.get(i).crashed) {
                        return i;
                    }
                }
                return -1;
            default:
                throw new IllegalStateException("unknown role " + role);
        }
    }

    /** {@code node} joins: its protocol is created in the new view (not idle), the others get the view. */
    private void join(SimNode<M> node) {
        if (node.joined || node.crashed) {
            return;
        }
        checker.onFault(host.now());
        faultsInjected++;
        node.joined = true;
        cluster.add(node.index);
        installClusterViews();
        host.joined(node);
    }

    /** The views the membership installs now: the cluster's live members, one view per side of a split. */
    private void installClusterViews() {
        List<NodeId> minority = new ArrayList<>();
        List<NodeId> majority = new ArrayList<>();
        for (int i : cluster) {
            if (!nodes.get(i).crashed) {
                (activeSplit != null && activeSplit.contains(i) ? minority : majority).add(ids[i]);
            }
        }
        List<List<NodeId>> sides = new ArrayList<>();
        if (!majority.isEmpty()) {
            sides.add(majority);
        }
        if (!minority.isEmpty()) {
            sides.add(minority);
        }
        if (!sides.isEmpty()) {
            installViews(sides);
        }
    }

    /**
     * Installs one view per side, all with the next epoch (two sides of a split may get the same view
     * number, as with JGroups). Each live member's {@link io.dlock.membership.PrimaryComponent} decides
     * whether its view is primary, and the {@link PrimaryGate} passes it to the protocol or freezes it;
     * a holder frozen by a non-primary view is fenced out (its hold no longer counts for ME1). A node
     * that joins gets its protocol here, created in its first view.
     */
    private void installViews(List<List<NodeId>> sides) {
        faultsInjected++;
        long e = ++epoch;
        List<View> views = new ArrayList<>();
        for (List<NodeId> members : sides) {
            View view = new View(e, members);
            views.add(view);
            for (NodeId member : members) {
                SimNode<M> node = nodes.get((int) member.value());
                if (!node.crashed && node.joined) {
                    node.install(view);
                }
            }
        }
        // verdicts first; then the nodes whose view is not primary freeze (a holder among them is
        // fenced out) before any primary node acts on its view: both sides of a partition suspect each
        // other at the same time, so the majority cannot grant before the minority knows it is cut off
        // (a holder that is slower than that is the paused-holder case, which fencing tokens cover)
        List<SimNode<M>> order = new ArrayList<>();
        List<View> orderViews = new ArrayList<>();
        List<Boolean> verdicts = new ArrayList<>();
        for (int pass = 0; pass < 2; pass++) {
            for (View view : views) {
                for (NodeId member : view.members()) {
                    SimNode<M> node = nodes.get((int) member.value());
                    if (node.crashed || !node.joined) {
                        continue;
                    }
                    if (pass == 0) {
                        boolean primary = node.primaryComponent.accept(view);
                        if (!primary) {
                            order.add(node);
                            orderViews.add(view);
                            verdicts.add(false);
                        }
                    } else if (node.primaryComponent.isPrimary()) {
                        order.add(node);
                        orderViews.add(view);
                        verdicts.add(true);
                    }
                }
            }
        }
        for (int k = 0; k < order.size(); k++) {
            SimNode<M> node = order.get(k);
            View view = orderViews.get(k);
            boolean primary = verdicts.get(k);
            if (node.gate == null) {
                node.gate = host.newGate(node, view, false, primary);
                node.protocol = node.gate;
                continue;
            }
            node.gate.onView(view, primary);
            if (node.gate.frozen() && checker.holding(node.index)) {
                fencedOut++;
                checker.onFencedOut(node.index, host.now());
            }
            host.viewInstalled(node, view);
        }
    }
}
