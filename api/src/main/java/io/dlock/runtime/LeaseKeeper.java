package io.dlock.runtime;

import io.dlock.membership.EpochLease;
import io.dlock.spi.MalformedMessageException;
import io.dlock.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.View;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the node's {@link EpochLease}: probes the other members every quarter lease on the node's timer
 * thread, answers their probes, and tells the lock drivers when the lease lets them act again or when the
 * hold lease ran out. The drivers ask {@link #mayGrant()} before a grant reaches a local thread, a local
 * hand-off or a re-entry, and {@link #holdValid()} before a holder's unlock or token read succeeds.
 *
 * <p>Wire format: an {@link Envelope} of kind {@link Envelope#KIND_MEMBERSHIP} (empty algorithm and name,
 * the sender's view epoch), then a type byte: {@link #PROBE} with the view's fingerprint (signed varint)
 * and the probe's sequence number, or {@link #PROBE_ACK} with the same two and a ready flag.
 *
 * <p>Thread-safe: the lease is touched under this object's monitor (views from the transport's thread,
 * answers from its receiving threads, probes from the timer); {@link #mayGrant()} and {@link #holdValid()}
 * read two volatile fields and the clock, with no lock.
 */
final class LeaseKeeper implements LeaseCheck {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);

    /** A probe: "do you still agree on my view?" */
    static final int PROBE = 3;
    /** The answer to a probe. */
    static final int PROBE_ACK = 4;

    /**
     * How many lease ticks (a quarter lease each, counted only while this node runs) a primary view with other
     * members may go without a single answer before the transport is told the view looks stale: 12, 3 s with
     * the default lease. A member answers a probe whenever its own view has the prober, so a long silence
     * from all of them means they excluded this node (or it is cut off from them, which failure detection would
     * tell it a few seconds later); a pause of this node does not count (ticks stop too).
     */
    static final int SILENT_TICKS_BEFORE_STALE = 12;

    /** The wait after a removal, over the lease: covers clock rates up to about 3 % apart. */
    static long waitFor(long leaseNanos) {
        return leaseNanos + leaseNanos / 16;
    }

    private final Transport transport;
    /** Created at the first view (the transport knows this node's id only once it has started); guarded by this. */
    private EpochLease lease;
    private final long leaseNanos;
    private final ScheduledExecutorService timers;
    /** The lease ends, mirrored from {@link #lease} after every change, for the lock-free checks. */
    private volatile long grantEnd;
    private volatile long holdEnd;
    /** Run once when the grant lease runs again; guarded by this. */
    private List<Runnable> whenGrantable = new ArrayList<>();
    /** Told when the hold lease has run out (a lapse), on the timer thread. */
    private final Runnable onHoldLapse;
    /** Whether the hold lease ran at the last tick (to tell a lapse once). */
    private boolean heldAtLastTick;
    /** Whether the grant lease ran at the last tick (for the debug log). */
    private boolean grantableAtLastTick;
    /** Whether another member answered a probe since the last tick; guarded by this. */
    private boolean answeredSinceTick;
    /** Since when no member of the primary view has answered (0: not watching); guarded by this. */
    private long silentSince;
    /** When the last tick ran (0: none yet); guarded by this. */
    private long lastTickAt;
    /** Whether this silence has been reported to the transport already; guarded by this. */
    private boolean staleTold;
    /** Whether the installed view is primary; guarded by this. */
    private boolean primaryView;
    private ScheduledFuture<?> ticker;
    /** Set by {@link #stop}; guarded by this. */
    private boolean stopped;

    /**
     * @param leaseTime   how long an acknowledged probe lets this node act (dlock.cluster.lease-ms)
     * @param onHoldLapse told on the timer thread when the hold lease has run out
     */
    LeaseKeeper(Transport transport, Duration leaseTime, ScheduledExecutorService timers, Runnable onHoldLapse) {
        this.transport = transport;
        this.leaseNanos = leaseTime.toNanos();
        this.timers = timers;
        this.onHoldLapse = onHoldLapse;
    }

    /** Starts probing every quarter lease. */
    synchronized void start() {
        long period = Math.max(1, leaseNanos / 4);
        try {
            ticker = timers.scheduleAtFixedRate(this::tick, period, period, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // the node is closing
        }
    }

    /** Stops acting and answering: called before a clean leave is announced. */
    synchronized void stop() {
        stopped = true;
        if (lease != null) {
            lease.stop();
            mirror();
        }
        if (ticker != null) {
            ticker.cancel(false);
        }
    }

    /** Whether this node may grant, hand off or re-enter now. */
    @Override
    public boolean mayGrant() {
        long end = grantEnd;
        return end != 0 && System.nanoTime() - end < 0;
    }

    /** Whether a hold granted here is still known to be exclusive now. */
    @Override
    public boolean holdValid() {
        long end = holdEnd;
        return end != 0 && System.nanoTime() - end < 0;
    }

    /**
     * Runs {@code action} once the grant lease runs: at once (on this thread) if it runs now, else on the
     * thread that receives the answer that renews it.
     */
    @Override
    public void whenGrantable(Runnable action) {
        synchronized (this) {
            if (lease == null || !lease.mayGrant(System.nanoTime())) {
                whenGrantable.add(action);
                return;
            }
        }
        action.run();
    }

    /** A new view (after the majority rule): installs it in the lease and probes it at once. */
    void onView(View view, boolean primary, Predicate<Set<NodeId>> quorum) {
        List<Runnable> due;
        Probe probe;
        synchronized (this) {
            long now = System.nanoTime();
            if (lease == null) {
                lease = new EpochLease(transport.self(), leaseNanos, waitFor(leaseNanos));
                if (stopped) {
                    lease.stop();
                }
            }
            lease.onView(view, primary, quorum, now);
            silentSince = 0;
            staleTold = false;
            answeredSinceTick = false;
            primaryView = primary;
            if (LOG.isDebugEnabled()) {
                LOG.debug("{}: view {} (primary {}): may grant {}, answers ready in {} ms", transport.self(), view,
                        primary, lease.mayGrant(now), Math.max(0, (lease.readyAt() - now) / 1_000_000));
            }
            probe = probe(now);
            due = takeIfGrantable(now);
        }
        send(probe);
        due.forEach(Runnable::run);
    }

    /** A member announced a clean leave. */
    synchronized void departing(NodeId member) {
        if (lease != null) {
            lease.departing(member);
        }
    }

    /** Handles a membership message of type {@link #PROBE} or {@link #PROBE_ACK}; {@code in} is after the type. */
    void onMessage(NodeId from, Envelope envelope, int type, WireReader in) {
        long fingerprint = in.readSignedVarLong();
        long seq = in.readVarLong();
        if (type == PROBE) {
            in.expectEnd();
            EpochLease.Answer answer;
            synchronized (this) {
                answer = lease == null ? null : lease.onProbe(from, envelope.epoch(), fingerprint, System.nanoTime());
            }
            if (answer != null) {
                WireWriter out = header(envelope.epoch(), PROBE_ACK, fingerprint, seq);
                out.writeBoolean(answer == EpochLease.Answer.READY);
                transport.send(from, out.toByteArray());
            }
            return;
        }
        if (type != PROBE_ACK) {
            throw new MalformedMessageException("not a lease message type: " + type);
        }
        boolean ready = in.readBoolean();
        in.expectEnd();
        List<Runnable> due;
        synchronized (this) {
            if (lease == null) {
                return;
            }
            answeredSinceTick = true;
            long now = System.nanoTime();
            boolean runsAgain = lease.onAnswer(from, envelope.epoch(), fingerprint, seq,
                    ready ? EpochLease.Answer.READY : EpochLease.Answer.NOT_READY, now);
            if (runsAgain) {
                LOG.debug("{}: the grant lease runs again (epoch {}, answer of {})", transport.self(),
                        envelope.epoch(), from);
            }
            mirror();
            due = takeIfGrantable(now);
        }
        due.forEach(Runnable::run);
    }

    /** Whether {@code type} is a lease message type. */
    static boolean handles(int type) {
        return type == PROBE || type == PROBE_ACK;
    }

    /** The timer's task: a probe, and the lapse check; an exception is logged, never allowed to end the timer. */
    private void tick() {
        try {
            probeAndCheck();
        } catch (RuntimeException e) {
            LOG.error("{}: the epoch lease's probe failed (the next one runs as planned)", transport.self(), e);
        }
    }

    private void probeAndCheck() {
        boolean lapsed;
        boolean stale;
        List<Runnable> due;
        Probe probe;
        synchronized (this) {
            if (lease == null) {
                return;
            }
            long now = System.nanoTime();
            stale = countSilence(now);
            boolean held = lease.holdValid(now);
            lapsed = heldAtLastTick && !held;
            boolean grantable = lease.mayGrant(now);
            if (grantable != grantableAtLastTick) {
                LOG.debug("{}: at the lease tick, may grant {} (was {}), hold valid {}", transport.self(), grantable,
                        grantableAtLastTick, held);
                grantableAtLastTick = grantable;
            }
            heldAtLastTick = held;
            probe = probe(now);
            due = takeIfGrantable(now);
        }
        send(probe);
        due.forEach(Runnable::run);
        if (lapsed) {
            onHoldLapse.run();
        }
        if (stale) {
            LOG.info("{}: no member of view {} has answered for {} lease ticks: they have excluded this node, or it is"
                    + " cut off from them; asking the transport to leave the view and rejoin them", transport.self(),
                    transport.view(), SILENT_TICKS_BEFORE_STALE);
            transport.viewLooksStale();
        }
    }

    /**
     * Called at every tick, with the monitor held: true once per silence, when no member of a primary view with
     * other members has answered for {@link #SILENT_TICKS_BEFORE_STALE} tick periods of this node's own running
     * time. A tick that comes more than two periods after the one before ends a pause of this node (a stopped JVM,
     * whose timer then runs the missed ticks back to back): the silence is counted afresh from there, so a pause
     * never counts, however long.
     */
    boolean countSilence(long now) {
        long period = Math.max(1, leaseNanos / 4);
        boolean resumed = lastTickAt != 0 && now - lastTickAt > 2 * period;
        lastTickAt = now;
        View view = lease.view();
        boolean watched = view != null && view.size() > 1 && !stopped && primaryView;
        if (!watched || answeredSinceTick || resumed || silentSince == 0) {
            silentSince = now;
            if (!watched || answeredSinceTick) {
                staleTold = false;
            }
        }
        answeredSinceTick = false;
        if (!staleTold && watched && now - silentSince >= SILENT_TICKS_BEFORE_STALE * period) {
            staleTold = true;
            return true;
        }
        return false;
    }

    /** A probe to send, once the monitor is released: its bytes and the view whose other members get it. */
    private record Probe(byte[] bytes, View view) {
    }

    /** Starts a probe of the current view (null if none is due); called with the monitor held. */
    private Probe probe(long now) {
        long seq = lease.probe(now);
        mirror();
        if (seq < 0) {
            return null;
        }
        View view = lease.view();
        return new Probe(header(view.epoch(), PROBE, lease.fingerprint(), seq).toByteArray(), view);
    }

    /** Sends {@code probe} to every other member of its view; called without the monitor. */
    private void send(Probe probe) {
        if (probe == null) {
            return;
        }
        for (NodeId member : probe.view().members()) {
            if (!member.equals(transport.self())) {
                transport.send(member, probe.bytes());
            }
        }
    }

    private List<Runnable> takeIfGrantable(long now) {
        if (whenGrantable.isEmpty() || !lease.mayGrant(now)) {
            return List.of();
        }
        List<Runnable> due = whenGrantable;
        whenGrantable = new ArrayList<>();
        return due;
    }

    private void mirror() {
        grantEnd = lease.grantEnd();
        holdEnd = lease.holdEnd();
    }

    private static WireWriter header(long epoch, int type, long fingerprint, long seq) {
        WireWriter out = new WireWriter(32);
        new Envelope(Envelope.KIND_MEMBERSHIP, "", "", epoch).writeTo(out);
        out.writeByte(type).writeSignedVarLong(fingerprint).writeVarLong(seq);
        return out;
    }

    @Override
    public synchronized String toString() {
        return "LeaseKeeper[" + lease + "]";
    }
}
