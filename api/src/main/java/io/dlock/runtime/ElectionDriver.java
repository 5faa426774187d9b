package io.dlock.runtime;

import io.dlock.LeaderElection;
import io.dlock.membership.EpochInbox;
import io.dlock.protocol.ElectionContext;
import io.dlock.protocol.ElectionEffects;
import io.dlock.protocol.ElectionProtocol;
import io.dlock.protocol.ElectionProtocolDefinition;
import io.dlock.protocol.MessageCodec;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.spi.MalformedMessageException;
import io.dlock.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.View;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives one election group's {@link ElectionProtocol} on one node, and is that group's
 * {@link LeaderElection}: a serial event loop, like {@link LockDriver}'s, that feeds the protocol
 * starts, messages and timers, turns its effects into transport sends and timers, and reports the
 * leaders it learns to {@link LeaderListeners}.
 *
 * <p><b>Runs.</b> A protocol instance serves one <em>run</em>: one epoch (view) and one round within
 * it. A new view makes a new instance with round 0, whose ring is the view's members in ascending id
 * order (ids increase along the ring); {@link #start()} makes a new instance with the next round. Every
 * message carries its epoch (in the {@link Envelope}) and its round (a varint before the algorithm's
 * bytes): messages of older runs are dropped, a message of a newer round of the current epoch moves
 * this node to that round (a fresh instance, woken by the message), and messages of a newer epoch
 * wait until this node installs that view (the group's {@link EpochInbox} decides by epoch).
 *
 * <p><b>Majority rule.</b> In a view that is not primary for this node ({@link
 * io.dlock.membership.PrimaryComponent}) the group has no leader ({@code leader()} is empty, listeners
 * hear nothing until the next leader), no election starts, and messages of that epoch are dropped:
 * a minority never elects. The next primary view starts an election as usual.
 *
 * <p><b>When this node starts an election</b> (calls {@link ElectionProtocol#onStart}): when it is
 * created by the application ({@code LockService.election}) and knows no leader; on a new view that
 * no longer contains the leader, or that contains a higher id than the leader (a higher node joined:
 * every algorithm here elects the highest), or when it knows no leader; and on {@link #start()}. Other
 * members take part when the first message of the run reaches them; a member that never used the
 * group gets its driver then, created by that message, and does not start one of its own.
 *
 * @param <M> the algorithm's message type
 */
final class ElectionDriver<M extends ProtocolMessage> extends AbstractLeaderElection implements GroupElection {

    private static final Logger LOG = LoggerFactory.getLogger(ElectionDriver.class);
    private static final int MAX_EARLY_MESSAGES = 10_000;

    private final ElectionProtocolDefinition<M> definition;
    private final MessageCodec<M> codec;
    private final ProtocolOptions options;
    private final Transport transport;
    private final NodeId self;
    private final SerialExecutor loop;
    private final ScheduledExecutorService timers;
    /** Told every leader of every epoch, carried-over ones included (runtime-internal use), or null. */
    private final BiConsumer<NodeId, Long> epochLeaders;
    private final LongAdder malformed = new LongAdder();
    private final LongAdder messagesSent = new LongAdder();
    /** Set by {@link #close()} at once, so that tasks still queued do nothing once the node's threads stop. */
    private volatile boolean closed;

    // Loop-confined state.
    private boolean stopped;
    private View view;
    /** Whether {@link #view} is primary: in a view that is not, nothing starts, runs or elects. */
    private boolean primary;
    private long round;
    private Run run;
    private final EpochInbox<WireReader> inbox = new EpochInbox<>(MAX_EARLY_MESSAGES, this::receive);

    /**
     * Creates the driver and its first run in {@code initialView}. If {@code startNow} (the
     * application asked for the group), the first run starts an election.
     */
    ElectionDriver(String group, ElectionProtocolDefinition<M> definition, ProtocolOptions options, Transport transport,
                   View initialView, boolean initialPrimary, Executor pool, ScheduledExecutorService timers,
                   Executor notifier, boolean startNow,
                   BiConsumer<NodeId, Long> epochLeaders) {
        super(group, new LeaderListeners(group, transport.self(), notifier));
        this.definition = definition;
        this.codec = definition.codec();
        this.options = options;
        this.transport = transport;
        this.self = transport.self();
        this.loop = new SerialExecutor(pool);
        this.timers = timers;
        this.epochLeaders = epochLeaders;
        loop.execute(() -> {
            view = initialView;
            primary = initialPrimary;
            inbox.install(initialView.epoch(), admitted());
            newRun(0);
            if (startNow && primary) {
                listeners.electionRunning();
                run.started = true;
                run.protocol.onStart();
            }
        });
    }

    /** Lets the application's creation start an election if this driver was created by a message. */
    void startIfNoLeader() {
        loop.execute(() -> {
            if (!stopped && primary && listeners.current() == null && !run.started) {
                run.started = true;
                run.protocol.onStart();
            }
        });
    }

    // ---- GroupElection ----

    @Override
    public void onView(View newView, boolean isPrimary) {
        loop.execute(() -> installView(newView, isPrimary));
    }

    @Override
    public void deliver(NodeId from, long epoch, byte[] bytes, int offset) {
        loop.execute(() -> receive(from, epoch, new WireReader(bytes, offset, bytes.length - offset)));
    }

    @Override
    public void close() {
        closed = true;
        loop.execute(() -> {
            stopped = true;
            if (run != null) {
                run.timers.cancelAll();
            }
        });
    }

    @Override
    public LeaderElection facade() {
        return this;
    }

    long messagesSent() {
        return messagesSent.sum();
    }

    long malformed() {
        return malformed.sum();
    }

    // ---- LeaderElection ----

    @Override
    public void start() {
        loop.execute(() -> {
            if (stopped || !primary) {
                return; // no election in a non-primary view; the next primary view starts one if needed
            }
            newRun(round + 1);
            listeners.electionRunning();
            run.started = true;
            run.protocol.onStart();
        });
    }

    // ---- event loop ----

    private void installView(View newView, boolean isPrimary) {
        if (stopped || closed || newView.epoch() <= view.epoch()) {
            return;
        }
        view = newView;
        primary = isPrimary;
        newRun(0);
        if (!isPrimary) {
            listeners.electionRunning(); // a minority has no leader and elects none
        } else {
            NodeId leader = listeners.current();
            if (leader == null || !newView.contains(leader) || newView.highest().compareTo(leader) > 0) {
                listeners.electionRunning();
                run.started = true;
                run.protocol.onStart();
            } else if (epochLeaders != null) {
                epochLeaders.accept(leader, newView.epoch()); // the leader carries over into this epoch
            }
        }
        // replays the messages that waited for this epoch; a view that is not primary drops them all
        inbox.install(newView.epoch(), admitted());
    }

    /** The senders whose messages of the current epoch are read: the view's members, none in a minority. */
    private Predicate<NodeId> admitted() {
        View members = view;
        return primary ? members::contains : from -> false;
    }

    /** {@code in} is positioned at the round, before the algorithm's payload. */
    private void receive(NodeId from, long epoch, WireReader in) {
        if (stopped || closed) {
            return;
        }
        if (inbox.offer(from, epoch, in) != EpochInbox.Verdict.DELIVER) {
            return; // held for a newer view, or dropped (not counted: election metrics have no stale counter)
        }
        long messageRound;
        M message;
        try {
            messageRound = in.readVarLong();
            message = codec.decode(in);
            in.expectEnd();
        } catch (MalformedMessageException e) {
            malformed.increment();
            if (inbox.firstUnreadable()) {
                LOG.warn("election group '{}': dropped a malformed message from {} ({}); further ones are only counted",
                        group(), from, e.getMessage());
            }
            return;
        }
        if (messageRound < round) {
            return;
        }
        if (messageRound > round) {
            newRun(messageRound); // another member started a new round: join it
        }
        run.protocol.onMessage(from, message);
    }

    private void newRun(long newRound) {
        if (run != null) {
            run.timers.cancelAll();
        }
        round = newRound;
        run = new Run(view, newRound);
    }

    /** One protocol instance and its effects, timers and sends bound to its epoch and round. */
    private final class Run implements ElectionEffects<M>, LoopTimers.Owner {
        final long epoch;
        final long runRound;
        final LoopTimers timers;
        final ElectionProtocol<M> protocol;
        boolean started;

        Run(View runView, long runRound) {
            this.epoch = runView.epoch();
            this.runRound = runRound;
            this.timers = new LoopTimers(ElectionDriver.this.timers, this);
            this.protocol = definition.create(new ElectionContext<>(self, runView, runView.members(), this, options));
        }

        private boolean current() {
            return !stopped && !closed && run == this;
        }

        @Override
        public void runOnLoop(Runnable task) {
            loop.execute(task);
        }

        @Override
        public boolean live() {
            return current();
        }

        @Override
        public void fire(String timer) {
            protocol.onTimer(timer);
        }

        @Override
        public void send(NodeId to, M message) {
            if (!current()) {
                return;
            }
            WireWriter out = new WireWriter(48);
            new Envelope(Envelope.KIND_ELECTION, definition.name(), group(), epoch).writeTo(out);
            out.writeVarLong(runRound);
            codec.encode(message, out);
            if (!to.equals(self)) {
                messagesSent.increment();
            }
            transport.send(to, out.toByteArray());
        }

        @Override
        public void setTimer(String name, long delayMillis) {
            timers.set(name, delayMillis);
        }

        @Override
        public void cancelTimer(String name) {
            timers.cancel(name);
        }

        @Override
        public void leaderElected(NodeId leader) {
            leaderElected(leader, List.of());
        }

        @Override
        public void leaderElected(NodeId leader, List<NodeId> members) {
            if (current()) {
                listeners.elected(leader, epoch, members);
                if (epochLeaders != null) {
                    epochLeaders.accept(leader, epoch);
                }
            }
        }
    }

    @Override
    public String toString() {
        return "LeaderElection[" + definition.name() + ", group '" + group() + "']";
    }
}
