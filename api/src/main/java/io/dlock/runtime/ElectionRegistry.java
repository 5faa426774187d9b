package io.dlock.runtime;

import io.dlock.DlockConfig;
import io.dlock.LeaderElection;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.ElectionProtocolDefinition;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.View;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BiConsumer;

/**
 * The node's election groups, by name: each created on first use, by the application
 * ({@link #forApplication}) or by the first message of the group ({@link #deliver}), as the configured
 * election's {@link ElectionDriver} or, with the view election, a {@link ViewLeaderElection}. Every group is
 * told the node's views. Thread-safe.
 */
final class ElectionRegistry {

    private final Map<String, GroupElection> elections = new ConcurrentHashMap<>();
    private final DlockConfig config;
    private final Transport transport;
    private final NodeMembership membership;
    private final Executor pool;
    private final ScheduledExecutorService timers;
    private final Executor notifier;
    /** Told of each leader of {@link NodeRuntime#COORDINATOR_GROUP} and its epoch. */
    private final BiConsumer<NodeId, Long> coordinatorElected;
    /** Told of a message dropped as foreign, with why. */
    private final BiConsumer<NodeId, String> foreign;

    ElectionRegistry(DlockConfig config, Transport transport, NodeMembership membership, Executor pool,
                     ScheduledExecutorService timers, Executor notifier, BiConsumer<NodeId, Long> coordinatorElected,
                     BiConsumer<NodeId, String> foreign) {
        this.config = config;
        this.transport = transport;
        this.membership = membership;
        this.pool = pool;
        this.timers = timers;
        this.notifier = notifier;
        this.coordinatorElected = coordinatorElected;
        this.foreign = foreign;
    }

    /** The group's election for the application, created if needed (and started if a message created it). */
    LeaderElection forApplication(String group) {
        boolean[] created = new boolean[1];
        GroupElection election = elections.computeIfAbsent(group, g -> {
            created[0] = true;
            return newElection(g, true);
        });
        NodeMembership.ViewState state = membership.current();
        election.onView(state.view(), state.primary()); // no-op unless a view arrived while it was being created
        if (!created[0] && election instanceof ElectionDriver<?> driver) {
            driver.startIfNoLeader(); // created by a message: start if this node still knows no leader
        }
        return election.facade();
    }

    /**
     * An election message ({@link Envelope#KIND_ELECTION}); {@code payload} from {@code offset} holds the rest
     * after the envelope. Dropped as foreign if this node runs no such election.
     */
    void deliver(NodeId from, Envelope envelope, byte[] payload, int offset, int maxNameLength) {
        if (AlgorithmDefinitions.election(config.election()).isEmpty()) {
            foreign.accept(from, "election messages are not handled by the '" + config.election().configName()
                    + "' election");
            return;
        }
        if (!envelope.algorithm().equals(config.election().configName())) {
            foreign.accept(from, "election group '" + envelope.name() + "' uses algorithm " + envelope.algorithm()
                    + " there but " + config.election().configName() + " here");
            return;
        }
        if (envelope.name().isEmpty() || envelope.name().length() > maxNameLength) {
            foreign.accept(from, "bad election group name of length " + envelope.name().length());
            return;
        }
        GroupElection election = elections.computeIfAbsent(envelope.name(), g -> newElection(g, false));
        NodeMembership.ViewState state = membership.current();
        election.onView(state.view(), state.primary());
        election.deliver(from, envelope.epoch(), payload, offset);
    }

    /** Tells every group a new view and whether it is primary. */
    void onView(View view, boolean primary) {
        for (GroupElection e : elections.values()) {
            e.onView(view, primary);
        }
    }

    /** Stops every group. */
    void close() {
        for (GroupElection e : elections.values()) {
            e.close();
        }
    }

    private GroupElection newElection(String group, boolean byApplication) {
        Optional<ElectionProtocolDefinition<?>> definition = AlgorithmDefinitions.election(config.election());
        if (definition.isEmpty()) {
            NodeMembership.ViewState state = membership.current();
            return new ViewLeaderElection(group, transport.self(), notifier, state.view(), state.primary());
        }
        return newElectionDriver(group, definition.get(), byApplication);
    }

    private <M extends ProtocolMessage> ElectionDriver<M> newElectionDriver(String group,
                                                                            ElectionProtocolDefinition<?> raw,
                                                                            boolean byApplication) {
        @SuppressWarnings("unchecked")
        ElectionProtocolDefinition<M> definition = (ElectionProtocolDefinition<M>) raw;
        NodeMembership.ViewState state = membership.current();
        return new ElectionDriver<>(group, definition, new ProtocolOptions(config.electionOptions()), transport, state.view(), state.primary(),
                pool, timers, notifier,
                byApplication, group.equals(NodeRuntime.COORDINATOR_GROUP) ? coordinatorElected : null);
    }
}
