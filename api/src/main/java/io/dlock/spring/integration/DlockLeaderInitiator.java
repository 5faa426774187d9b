package io.dlock.spring.integration;

import io.dlock.LeaderChange;
import io.dlock.LeaderElection;
import io.dlock.LeaderListener;
import io.dlock.LockService;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;
import org.springframework.context.SmartLifecycle;
import org.springframework.integration.leader.Candidate;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.event.DefaultLeaderEventPublisher;
import org.springframework.integration.leader.event.LeaderEventPublisher;

/**
 * A Spring Integration leader initiator driven by dlock's own {@link LeaderElection}: it tells a {@link Candidate}
 * when this node becomes the leader of {@code group} ({@link Candidate#onGranted(Context)}) and when it stops being
 * it ({@link Candidate#onRevoked(Context)}), and publishes Spring Integration's {@code OnGrantedEvent} and
 * {@code OnRevokedEvent} as Spring's own initiators do. Unlike {@code LockRegistryLeaderInitiator}, no thread polls a
 * lock: the election's listener moves it.
 *
 * <pre>{@code
 * @Bean
 * DlockLeaderInitiator leaderInitiator(LockService lockService, Candidate candidate) {
 *     return new DlockLeaderInitiator(lockService, "reports", candidate);   // a SmartLifecycle: started with the context
 * }
 *
 * @EventListener
 * void onGranted(OnGrantedEvent event) { reports.startProducing(); }
 * }</pre>
 *
 * <h2>Who leads</h2>
 * dlock's election makes the live member of the cluster with the highest node id the leader of every group
 * ({@code dlock.election} chooses the algorithm); when it leaves or crashes, the next highest is elected, and its
 * candidate is granted. A node whose initiator is not started still takes part in the election (and may be its leader:
 * start an initiator on every node that can lead). Callbacks and events run on one thread of this initiator, in the
 * order of the election's changes, so a candidate may block in {@code onGranted} without holding up dlock.
 *
 * <h2>{@link Context#yield()}</h2>
 * Gives up leadership on this node and runs the election again: the candidate is revoked at once, then
 * {@link LeaderElection#start()} runs a new election and, once it has ended, the candidate is granted again if this
 * node was elected. dlock elects the live member with the highest id, so in a stable membership the same node wins
 * again: yield restarts the candidate's work; it does not hand leadership to another node while this one is alive
 * (to do that, stop this initiator's node or give it a lower id).
 *
 * <h2>Lifecycle</h2>
 * {@link #start()} joins the group's listeners (if a leader is known, the candidate hears of it at once);
 * {@link #stop()} revokes the candidate if it was granted and stops the callback thread. The lock service must be
 * started before and closed after the initiator (in Spring, a bean the initiator depends on is).
 */
public final class DlockLeaderInitiator implements SmartLifecycle, ApplicationEventPublisherAware {

    /** The phase of Spring Integration's own initiators: started late, stopped early. */
    public static final int DEFAULT_PHASE = Integer.MAX_VALUE - 1000;
    /** How long one wait for the election after a yield lasts before it checks whether it is still running. */
    private static final Duration YIELD_WAIT_STEP = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(DlockLeaderInitiator.class);

    private final LockService service;
    private final String group;
    private final Candidate candidate;
    private final LeaderListener listener = this::onLeaderChange;
    private final InitiatorContext context = new InitiatorContext();
    private final Object lifecycle = new Object();

    private volatile LeaderEventPublisher eventPublisher;
    private volatile boolean autoStartup = true;
    private volatile int phase = DEFAULT_PHASE;
    /** Set in {@link #start()}, cleared in {@link #stop()}, under {@link #lifecycle}. */
    private volatile boolean running;
    /** The callback thread while running; every candidate call and event runs there. */
    private ExecutorService callbacks;
    /** The thread of {@link #callbacks}, once it started. */
    private volatile Thread callbackThread;
    private LeaderElection election;
    /** Whether the candidate was granted and not revoked since; read and written on the callback thread only. */
    private volatile boolean granted;

    /**
     * @param service   the node's lock service
     * @param group     the election group (1 to 200 characters): the initiators of every node with the same group
     *                  compete
     * @param candidate told when this node is granted and revoked leadership
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code group} is empty or longer than 200 characters
     */
    public DlockLeaderInitiator(LockService service, String group, Candidate candidate) {
        this.service = Objects.requireNonNull(service, "service");
        this.group = Objects.requireNonNull(group, "group");
        this.candidate = Objects.requireNonNull(candidate, "candidate");
        if (group.isEmpty() || group.length() > 200) {
            throw new IllegalArgumentException("group must be 1 to 200 characters, got " + group.length()
                    + " characters: '" + group + "'");
        }
    }

    /**
     * An initiator whose election group is the candidate's {@linkplain Candidate#getRole() role}.
     *
     * @throws NullPointerException     if an argument or the role is null
     * @throws IllegalArgumentException if the role is empty or longer than 200 characters
     */
    public DlockLeaderInitiator(LockService service, Candidate candidate) {
        this(service, Objects.requireNonNull(candidate, "candidate").getRole(), candidate);
    }

    /** Publishes the leader events with {@code publisher} (none are published without one). */
    public void setLeaderEventPublisher(LeaderEventPublisher publisher) {
        this.eventPublisher = publisher;
    }

    /**
     * Publishes the leader events as application events ({@code OnGrantedEvent}, {@code OnRevokedEvent}), unless
     * {@link #setLeaderEventPublisher(LeaderEventPublisher)} set a publisher; Spring calls it for a bean.
     */
    @Override
    public void setApplicationEventPublisher(ApplicationEventPublisher applicationEventPublisher) {
        if (eventPublisher == null) {
            eventPublisher = new DefaultLeaderEventPublisher(applicationEventPublisher);
        }
    }

    /** The election group. */
    public String group() {
        return group;
    }

    /** The context the candidate is given: whether it leads now, its role, and {@link Context#yield()}. */
    public Context getContext() {
        return context;
    }

    @Override
    public void start() {
        synchronized (lifecycle) {
            if (running) {
                return;
            }
            election = service.election(group);
            callbacks = Executors.newSingleThreadExecutor(runnable -> {
                Thread thread = new Thread(runnable, "dlock-leader-" + group);
                thread.setDaemon(true);
                callbackThread = thread;
                return thread;
            });
            running = true;
            election.addListener(listener);
        }
    }

    /**
     * Stops following the election: the candidate is revoked if it was granted (on the callback thread, which this
     * waits for, at most 30 seconds, unless the candidate itself calls stop from a callback), and hears nothing more.
     */
    @Override
    public void stop() {
        ExecutorService stopping;
        synchronized (lifecycle) {
            if (!running) {
                return;
            }
            running = false;
            election.removeListener(listener);
            stopping = callbacks;
            stopping.execute(this::revokeIfGranted);
            stopping.shutdown();
        }
        if (Thread.currentThread() == callbackThread) {
            return; // called by the candidate from a callback: the revocation runs when the callback returns
        }
        try {
            if (!stopping.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.warn("leader initiator of group '{}': the candidate's callbacks did not end within 30 s", group);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public boolean isAutoStartup() {
        return autoStartup;
    }

    /** Whether the application context starts this initiator (default true). */
    public void setAutoStartup(boolean autoStartup) {
        this.autoStartup = autoStartup;
    }

    @Override
    public int getPhase() {
        return phase;
    }

    /** The lifecycle phase (default {@link #DEFAULT_PHASE}). */
    public void setPhase(int phase) {
        this.phase = phase;
    }

    @Override
    public String toString() {
        return "DlockLeaderInitiator[group " + group + ", candidate " + candidate.getId() + ", "
                + (granted ? "leader" : "not leader") + "]";
    }

    /** On a library thread: hands the change to the callback thread. */
    private void onLeaderChange(LeaderChange change) {
        submit(() -> {
            if (change.isSelf()) {
                grantIfNot();
            } else {
                revokeIfGranted();
            }
        });
    }

    /** Runs {@code task} on the callback thread while running; dropped once stopped. */
    private void submit(Runnable task) {
        synchronized (lifecycle) {
            if (running) {
                callbacks.execute(task);
            }
        }
    }

    /** On the callback thread. */
    private void grantIfNot() {
        if (granted || !running) {
            return;
        }
        granted = true;
        try {
            candidate.onGranted(context);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (RuntimeException e) {
            LOG.warn("candidate {} of group '{}' failed in onGranted", candidate.getId(), group, e);
        }
        LeaderEventPublisher publisher = eventPublisher;
        if (publisher != null) {
            publisher.publishOnGranted(this, context, candidate.getRole());
        }
    }

    /** On the callback thread. */
    private void revokeIfGranted() {
        if (!granted) {
            return;
        }
        granted = false;
        try {
            candidate.onRevoked(context);
        } catch (RuntimeException e) {
            LOG.warn("candidate {} of group '{}' failed in onRevoked", candidate.getId(), group, e);
        }
        LeaderEventPublisher publisher = eventPublisher;
        if (publisher != null) {
            publisher.publishOnRevoked(this, context, candidate.getRole());
        }
    }

    /** On the callback thread: revoke, elect again, grant again if this node was elected (see "yield" above). */
    private void yieldAndReelect() {
        if (!granted) {
            return;
        }
        revokeIfGranted();
        election.start();
        try {
            while (running && election.awaitLeader(YIELD_WAIT_STEP).isEmpty()) {
                // the election is still running: wait again (stop() ends the loop)
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (election.isLeader()) {
            grantIfNot();
        }
    }

    /** The {@link Context} handed to the candidate and the events. */
    private final class InitiatorContext implements Context {

        @Override
        public boolean isLeader() {
            return granted;
        }

        @Override
        public String getRole() {
            return candidate.getRole();
        }

        /** Revokes this node's candidate and elects again (see the initiator's "yield"); returns at once. */
        @Override
        public void yield() {
            submit(DlockLeaderInitiator.this::yieldAndReelect);
        }

        @Override
        public String toString() {
            return "DlockLeaderInitiator.Context[group " + group + ", " + (granted ? "leader" : "not leader") + "]";
        }
    }
}
