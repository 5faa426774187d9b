package io.dlock.runtime;

import io.dlock.ClusterView;
import io.dlock.DistributedLock;
import io.dlock.DlockConfig;
import io.dlock.DlockConfigException;
import io.dlock.LeaderElection;
import io.dlock.LockMetrics;
import io.dlock.NodeMetrics;
import io.dlock.LockService;
import io.dlock.OwnershipListener;
import io.dlock.OwnershipLoss;
import io.dlock.protocol.AlgorithmDefinitions;
import io.dlock.protocol.ElectionProtocolDefinition;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.membership.PrimaryComponent;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.TransportException;
import io.dlock.spi.TransportFactory;
import io.dlock.spi.View;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link LockService} of one node: owns the transport, the threads (a small pool for the locks'
 * event loops, one timer thread, one thread that calls leader listeners), and one {@link LockDriver}
 * per lock name in use, created on first use or on the first message for that name and kept in the
 * node's {@link LockRegistry}. The facade and the owner of the node's lifecycle (start, close); the other
 * jobs each have their class: {@link MessageRouter} routes every received message by its {@link Envelope},
 * {@link NodeMembership} keeps the view and the majority rule's verdict, {@link ElectionRegistry} the
 * election groups, {@link NodeLockMetrics} the node's lock counters.
 *
 * <p>With {@code dlock.lock.idle-expiry-ms} above 0, a lock unused here for that long is nominated for
 * reclamation, and its state goes on every member at once when a round ({@link ReclaimDriver}) finds it at
 * rest everywhere with nothing in flight; the facades the application holds keep working (they find the
 * lock's driver by name on every call).
 *
 * <p>Every view goes through the node's {@link PrimaryComponent} (the majority rule): the drivers and
 * the elections are told whether it is primary, and in a view that is not, no lock is granted and no
 * leader is elected.
 */
public final class NodeRuntime implements LockService {

    private static final Logger LOG = LoggerFactory.getLogger(NodeRuntime.class);
    private static final int MAX_NAME_LENGTH = 200;
    /** {@link LockService#COORDINATOR_GROUP}, under the name the runtime's code uses. */
    static final String COORDINATOR_GROUP = LockService.COORDINATOR_GROUP;

    private final DlockConfig config;
    /** The transport; what the node sends while it works through many locks at once leaves in batches. */
    private final BatchingTransport transport;
    /** The thread that writes the transport's batches. */
    private final ExecutorService batchWriter;
    private final ExecutorService pool;
    private final ScheduledThreadPoolExecutor timers;
    private final ExecutorService notifier;
    /** What every lock driver of the node shares, made once rather than once per driver. */
    private final LockDriverContext<?> driverContext;
    /** The lock drivers, in use and idle. */
    private final LockRegistry drivers;
    /** Drives the reclamation rounds; null with {@code dlock.lock.idle-expiry-ms=0}. */
    private final ReclaimDriver reclaim;
    /** Every lock's fencing tokens here stay above it: raised by each reclamation (docs/algorithms.md R3). */
    private final AtomicLong fencingFloor = new AtomicLong();
    /** Ownership listeners by lock name; they outlive the lock's driver. */
    private final Map<String, OwnershipListeners> ownershipListeners = new ConcurrentHashMap<>();
    /** The node's lock counters: live, buried, foreign messages. */
    private final NodeLockMetrics lockMetrics;
    private final DriverSource driverSource = new DriverSource() {
        @Override
        public LockDriver<?> pin(String name) {
            return pinDriver(name);
        }

        @Override
        public LockDriver<?> peek(String name) {
            return drivers.peek(name);
        }

        @Override
        public void requireOpen() {
            NodeRuntime.this.requireOpen();
        }

        @Override
        public void addOwnershipListener(String name, OwnershipListener listener) {
            ownershipListeners.computeIfAbsent(name, n -> new OwnershipListeners(notifier)).add(listener);
        }

        @Override
        public void removeOwnershipListener(String name, OwnershipListener listener) {
            ownershipListeners.computeIfPresent(name, (n, listeners) -> {
                listeners.remove(listener);
                return listeners.isEmpty() ? null : listeners;
            });
        }
    };
    /** The node's election groups. */
    private final ElectionRegistry elections;
    /** Routes every received message by its envelope. */
    private final MessageRouter router;
    /** The node's MBeans, or null without {@code dlock.metrics.jmx=true}. */
    private final JmxRegistrations jmx;
    /** The current view and the majority rule's verdict on it. */
    private final NodeMembership membership;
    /** The configured mutex options over the algorithm's {@link MutexProtocolDefinition#runtimeDefaults()}. */
    private final ProtocolOptions mutexOptions;
    /** The last leader of {@link #COORDINATOR_GROUP}, or null (no election runs for the mutex). */
    private volatile EpochLeader coordinator;

    /** A leader and the epoch it leads. */
    private record EpochLeader(NodeId leader, long epoch) {
    }
    /**
     * Shut when the close tears the node down: from then on no lock state is pinned or built (a pin that races
     * the close completes before the teardown, which then closes what it built, or is refused).
     */
    private final ClosingGate gate = new ClosingGate();
    /** Held by the one close that runs, so that concurrent closes return after it. */
    private final Object closeLock = new Object();
    /** Whether a close has begun; guarded by closeLock. */
    private boolean closeStarted;
    /** The clean-leave handshake: announces this node's leave on close, records the others'. */
    private final CleanLeave cleanLeave;
    /** The epoch lease: whether this node may still act in its view (docs/architecture.md, "Epoch leases"). */
    private final LeaseKeeper leases;

    private NodeRuntime(DlockConfig config, Transport network) {
        this.config = config;
        this.membership = new NodeMembership(config.clusterSize());
        this.mutexOptions = new ProtocolOptions(config.mutexOptions())
                .over(AlgorithmDefinitions.mutex(config.mutex()).runtimeDefaults());
        this.batchWriter = Executors.newSingleThreadExecutor(threads("dlock-" + config.cluster() + "-batches"));
        BatchingTransport transport = new BatchingTransport(network, config.mutex().configName(), batchWriter);
        this.cleanLeave = new CleanLeave(transport, this::departing);
        this.transport = transport;
        String cluster = config.cluster();
        this.pool = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()),
                threads("dlock-" + cluster + "-loop"));
        this.timers = new ScheduledThreadPoolExecutor(1, threads("dlock-" + cluster + "-timer"));
        this.timers.setRemoveOnCancelPolicy(true);
        this.leases = new LeaseKeeper(transport, config.lease(), timers, this::holdLeaseLapsed);
        this.notifier = Executors.newSingleThreadExecutor(threads("dlock-" + cluster + "-events"));
        this.driverContext = new LockDriverContext<>(AlgorithmDefinitions.mutex(config.mutex()), mutexOptions,
                transport, pool, timers, config.localHandoff(), leases, fencingFloor::get,
                loss -> tellOwnershipLoss(loss.lockName(), loss),
                name -> new RuntimeLock(name, driverSource, config.mutex().configName(),
                        config.tryTimeout().toNanos()),
                new HoldExecutors(notifier, timers, pool), new GrantSpin(config.grantSpin()));
        this.jmx = config.metricsJmx() ? new JmxRegistrations(cluster, transport::self) : null;
        this.lockMetrics = new NodeLockMetrics(config.mutex().configName(), transport::self);
        this.drivers = new LockRegistry(config.idleExpiry(), config.maxLiveLocks(), timers, this::newLockDriver);
        this.reclaim = config.idleExpiry().isZero() ? null
                : new ReclaimDriver(transport, config.mutex().configName(), drivers, fencingFloor, config.idleExpiry(),
                pool, timers, this::buried, why -> lockMetrics.foreign(transport.self(), why));
        this.elections = new ElectionRegistry(config, transport, membership, pool, timers, notifier,
                this::coordinatorElected, lockMetrics::foreign);
        this.router = new MessageRouter(config.mutex().configName(), MAX_NAME_LENGTH, elections, leases, cleanLeave,
                reclaim, this::pinIfOpen, lockMetrics::foreign, transport);
    }

    /** Starts a node with the transport named by the configuration, found through {@link ServiceLoader}. */
    public static LockService start(DlockConfig config) {
        List<String> available = new ArrayList<>();
        for (TransportFactory factory : ServiceLoader.load(TransportFactory.class, NodeRuntime.class.getClassLoader())) {
            if (factory.name().equals(config.transport())) {
                return start(config, factory.create(config));
            }
            available.add(factory.name());
        }
        throw new DlockConfigException(DlockConfig.TRANSPORT + "=" + config.transport()
                + ": no such transport on the class path; available: "
                + (available.isEmpty() ? "none (add io.dlock:dlock-inmemory or io.dlock:dlock-jgroups)"
                : String.join(", ", available)));
    }

    /** Starts a node over {@code transport}, which the node owns from now on. */
    public static LockService start(DlockConfig config, Transport transport) {
        MutexProtocolDefinition<?> mutex = AlgorithmDefinitions.mutex(config.mutex());
        if (mutex.requiresFifo() && !transport.fifo()) {
            transport.close();
            throw new DlockConfigException(DlockConfig.MUTEX + "=" + mutex.name()
                    + " needs FIFO channels, which transport " + config.transport()
                    + " does not provide; choose an algorithm that does not need FIFO or a FIFO transport");
        }
        Optional<ElectionProtocolDefinition<?>> election = AlgorithmDefinitions.election(config.election());
        if (election.isPresent() && election.get().requiresFifo() && !transport.fifo()) {
            transport.close();
            throw new DlockConfigException(DlockConfig.ELECTION + "=" + election.get().name()
                    + " needs FIFO channels, which transport " + config.transport()
                    + " does not provide; choose an election that does not need FIFO or a FIFO transport");
        }
        NodeRuntime runtime = new NodeRuntime(config, transport);
        try {
            transport.start(runtime.receiver);
        } catch (RuntimeException e) {
            runtime.shutdownThreads();
            transport.close();
            throw e;
        }
        if (runtime.membership.view() == null) {
            runtime.close();
            throw new IllegalStateException("transport " + transport + " started without delivering a view");
        }
        runtime.leases.start();
        runtime.awaitPrimaryView(transport.primaryViewTimeout());
        if (runtime.jmx != null) {
            runtime.jmx.registerNode(runtime);
        }
        if (mutex.followsLeader(runtime.mutexOptions) && AlgorithmDefinitions.election(config.election()).isPresent()) {
            runtime.election(COORDINATOR_GROUP);
        }
        LOG.info("dlock node {} joined cluster '{}' ({}, mutex {}, election {}, view {})", transport.self(),
                config.cluster(), config.transport(), mutex.name(), config.election().configName(),
                runtime.membership.view().members());
        return runtime;
    }

    /**
     * Waits until this node is in a primary view: at once without {@code dlock.cluster.size} (the first
     * view is primary), else until enough members have joined. Fails the start, leaving the cluster,
     * with the last view seen and why it is not primary.
     */
    private void awaitPrimaryView(Duration timeout) {
        NodeMembership.NotPrimary notPrimary = membership.awaitPrimary(timeout);
        if (notPrimary == null) {
            return;
        }
        View last = notPrimary.last();
        close();
        throw new TransportException("node " + transport.self() + " is not in a primary view of cluster '"
                + config.cluster() + "': waited " + timeout.toMillis() + " ms after joining (on JGroups, the rest of"
                + " dlock.jgroups.join-timeout-ms): last view " + last.epoch() + " " + last.members() + " has "
                + notPrimary.why() + (Thread.currentThread().isInterrupted() ? " (interrupted)" : "")
                + "; start the other members, check that they reach each other, or check " + DlockConfig.CLUSTER_SIZE);
    }

    @Override
    public NodeId nodeId() {
        return transport.self();
    }

    @Override
    public DlockConfig config() {
        return config;
    }

    @Override
    public ClusterView view() {
        NodeMembership.ViewState state = membership.current();
        return new ClusterView(state.view().epoch(), state.view().members(), state.primary(), nodeId());
    }

    @Override
    public DistributedLock lock(String name) {
        requireName("lock", name);
        requireOpen();
        LockDriver<?> driver = pinDriver(name); // the lock exists here from now on (a first message may create it too)
        try {
            return driver.facade();
        } finally {
            driver.unpin();
        }
    }

    @Override
    public LeaderElection election(String group) {
        requireName("election group", group);
        requireOpen();
        return elections.forApplication(group);
    }

    /**
     * The election group's leader for {@code epoch} (elected or carried over): the coordinator of
     * every lock whose algorithm takes it from the election (docs/algorithms.md A1, centralized with
     * {@code coordinator=leader}); the others ignore it.
     */
    private void coordinatorElected(NodeId leader, long epoch) {
        coordinator = new EpochLeader(leader, epoch);
        transport.runBatched(() -> tellEveryLock(e -> e.leaderElected(leader, epoch)));
    }

    /**
     * Tells every live lock of something that most of them answer (a view, a new coordinator): inside a run of the
     * transport, so that their messages leave in a few batches; the batches due are written as it goes.
     */
    private void tellEveryLock(Consumer<LockDriver<?>> news) {
        for (LockDriver<?> e : drivers.all()) {
            news.accept(e);
            transport.writeIfDue();
        }
    }

    @Override
    public LockMetrics metrics() {
        return lockMetrics.sum(drivers.all());
    }

    @Override
    public NodeMetrics nodeMetrics() {
        return membership.nodeMetrics(drivers.size());
    }

    /**
     * Leaves the cluster, once: the first call closes; calls made meanwhile on other threads return when it is
     * done; a call made from within the close on its own thread, and any later call, returns at once.
     */
    @Override
    public boolean isClosed() {
        return gate.isClosed();
    }

    @Override
    public void close() {
        synchronized (closeLock) {
            if (closeStarted) {
                return;
            }
            closeStarted = true;
            leaveAndTearDown();
        }
    }

    private void leaveAndTearDown() {
        leases.stop(); // acts no more before it says it leaves: the others need not wait for its lease
        announceLeave();
        gate.close(); // no lock state is pinned or built from now on; what was is in drivers now
        if (reclaim != null) {
            reclaim.close();
        }
        drivers.close();
        for (LockDriver<?> e : drivers.all()) {
            e.close("node " + transport.self() + " left cluster '" + config.cluster() + "'");
        }
        elections.close();
        transport.close();
        if (jmx != null) {
            jmx.unregisterAll();
        }
        shutdownThreads();
        LOG.info("dlock node {} left cluster '{}'", transport.self(), config.cluster());
    }

    /**
     * Tells the other members that this node leaves for good, so that they do not count it against the
     * majority (see {@link CleanLeave}); bounded by {@link CleanLeave#ACK_TIMEOUT}.
     */
    private void announceLeave() {
        View current = membership.view();
        if (current == null || current.size() < 2) {
            return;
        }
        try {
            int missing = cleanLeave.announce(current);
            if (missing > 0) {
                LOG.info("node {}: {} member(s) did not acknowledge the leave within {} ms; they count it as a failure",
                        transport.self(), missing, CleanLeave.ACK_TIMEOUT.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // close anyway; the others count the leave as a failure
        }
    }

    /** A member announced its clean leave: the majority rule stops counting it once a view drops it. */
    private void departing(NodeId member) {
        membership.departing(member);
        leases.departing(member);
    }

    /** The hold lease ran out: every lock held here may have been granted elsewhere meanwhile. */
    private void holdLeaseLapsed() {
        for (LockDriver<?> e : drivers.all()) {
            e.holdLeaseLapsed();
        }
    }

    // ---- Transport.Receiver ----

    /**
     * What the transport calls; a private object, so that only the transport this node started can
     * feed it messages and views.
     */
    private final Transport.Receiver receiver = new Transport.Receiver() {
        @Override
        public void onMessage(NodeId from, byte[] payload) {
            NodeRuntime.this.onMessage(from, payload);
        }

        @Override
        public void onView(View view) {
            NodeRuntime.this.onView(view);
        }
    };

    private void onMessage(NodeId from, byte[] payload) {
        if (gate.isClosed()) {
            return;
        }
        router.onMessage(from, payload);
    }

    private void onView(View newView) {
        NodeMembership.Installed installed = membership.install(newView);
        if (installed == null) {
            return;
        }
        boolean isPrimary = installed.primary();
        String why = installed.whyNotPrimary();
        leases.onView(newView, isPrimary, installed.quorum()); // before the drivers: they ask it in the new view
        cleanLeave.onView(newView);
        if (!isPrimary) {
            LOG.info("node {}: view {} {} is not primary ({}): no lock is granted and no leader elected until a"
                    + " primary view", transport.self(), newView.epoch(), newView.members(), why);
        } else if (membership.clusterSize() > 0 && newView.size() > membership.clusterSize()) {
            LOG.warn("node {}: view {} has {} members but {}={}: the majority rule is only safe while at most that"
                    + " many nodes run; raise it", transport.self(), newView.epoch(), newView.size(),
                    DlockConfig.CLUSTER_SIZE, membership.clusterSize());
        }
        transport.runBatched(() -> {
            tellEveryLock(e -> e.viewChanged(newView, isPrimary));
            if (reclaim != null) {
                reclaim.onView(newView); // after the drivers: a vote of the new epoch finds them in it
            }
            elections.onView(newView, isPrimary);
        });
    }

    /** Whether the current view is primary for this node (the majority rule, {@link PrimaryComponent}). */
    public boolean isPrimary() {
        return membership.isPrimary();
    }

    // ---- internals ----

    /**
     * The driver of {@code name}, created if needed, pinned (the caller unpins it).
     *
     * @throws IllegalStateException if the node is closed
     */
    private LockDriver<?> pinDriver(String name) {
        LockDriver<?> driver = pinIfOpen(name);
        if (driver == null) {
            throw closed();
        }
        return driver;
    }

    /** The driver of {@code name}, created if needed, pinned (the caller unpins it); null if the node is closed. */
    private LockDriver<?> pinIfOpen(String name) {
        if (!gate.enter()) {
            return null;
        }
        try {
            LockDriver<?> driver = drivers.pin(name);
            NodeMembership.ViewState state = membership.current();
            driver.viewChanged(state.view(), state.primary()); // no-op unless a view arrived while it was created
            return driver;
        } finally {
            gate.exit();
        }
    }

    private LockDriver<?> newLockDriver(String name) {
        NodeMembership.ViewState state = membership.current();
        LockDriver<?> driver = new LockDriver<>(name, driverContext, state.view(), state.primary());
        if (jmx != null) {
            jmx.registerLock(name, driver.facade());
        }
        EpochLeader c = coordinator;
        if (c != null) {
            driver.leaderElected(c.leader(), c.epoch());
        }
        return driver;
    }

    private void tellOwnershipLoss(String name, OwnershipLoss loss) {
        OwnershipListeners listeners = ownershipListeners.get(name);
        if (listeners != null) {
            listeners.tell(loss);
        }
    }

    /** A reclamation buried {@code driver}: its counters join the node's totals, its MBean goes. */
    private void buried(LockDriver<?> driver) {
        lockMetrics.buried(driver.metrics());
        if (jmx != null) {
            jmx.unregisterLock(driver.name());
        }
    }

    /** Locks whose state this node dropped in reclamation rounds (0 with reclamation off). */
    public long reclaimedLocks() {
        return reclaim == null ? 0 : reclaim.reclaimed();
    }

    /** Lock drivers this node keeps now, in use and idle (for tests and diagnostics). */
    public long lockDrivers() {
        return drivers.size();
    }

    /** Lets the registry expire what is due now instead of at its timer's next tick (tests). */
    public void expireIdleLocks() {
        drivers.cleanUp();
    }

    /** The node's fencing floor (raised by reclamations). */
    public long fencingFloor() {
        return fencingFloor.get();
    }

    private void requireOpen() {
        if (gate.isClosed()) {
            throw closed();
        }
    }

    private IllegalStateException closed() {
        return new IllegalStateException("lock service of node " + transport.self() + " is closed");
    }

    private static void requireName(String what, String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException(what + " name must be 1 to " + MAX_NAME_LENGTH + " characters, got "
                    + (name == null ? "null" : "'" + name + "' (" + name.length() + " characters)"));
        }
    }

    private void shutdownThreads() {
        batchWriter.shutdownNow();
        timers.shutdownNow();
        notifier.shutdown();
        pool.shutdown();
        try {
            if (!pool.awaitTermination(5, TimeUnit.SECONDS)) {
                pool.shutdownNow();
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory threads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public String toString() {
        return "LockService[" + transport.self() + " in '" + config.cluster() + "']";
    }
}
