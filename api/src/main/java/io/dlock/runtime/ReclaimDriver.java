package io.dlock.runtime;

import io.dlock.membership.EpochInbox;
import io.dlock.reclaim.LockVote;
import io.dlock.reclaim.ReclaimCodec;
import io.dlock.reclaim.ReclaimMessage;
import io.dlock.reclaim.Reclamation;
import io.dlock.reclaim.RoundId;
import io.dlock.spi.MalformedMessageException;
import io.dlock.NodeId;
import io.dlock.spi.Transport;
import io.dlock.spi.View;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives the node's {@link Reclamation} on a serial loop of its own: messages (kind {@link Envelope#KIND_RECLAIM},
 * filtered by epoch through an {@link EpochInbox}), views, and a sweep that nominates the drivers the
 * {@link LockRegistry} has moved to its idle place; and carries out the protocol's decisions on the drivers:
 * {@linkplain LockDriver#vote votes} (each on its lock's loop), {@linkplain LockDriver#commit commits} after
 * raising the node's fencing floor, {@linkplain LockDriver#thaw thaws}.
 */
final class ReclaimDriver implements Reclamation.Port {

    private static final Logger LOG = LoggerFactory.getLogger(ReclaimDriver.class);
    private static final ReclaimCodec CODEC = new ReclaimCodec();
    /** Messages of future epochs kept at most. */
    private static final int MAX_EARLY_MESSAGES = 1_000;
    /** Names one sweep nominates at most; the rest wait for the next sweep. */
    static final int MAX_NOMINATED_PER_SWEEP = 8 * Reclamation.MAX_NAMES_PER_ROUND;
    /** The longest time between two sweeps for idle locks, in ms. */
    static final long MAX_SWEEP_PERIOD_MS = 1000;
    /** A nomination not answered by a FREEZE within this many idle expiries (at most 5 minutes) is sent again. */
    static final int RENOMINATE_AFTER_EXPIRIES = 20;
    private static final long MAX_RENOMINATE_NANOS = TimeUnit.MINUTES.toNanos(5);

    private final Transport transport;
    private final String algorithm;
    private final LockRegistry registry;
    private final AtomicLong fencingFloor;
    private final Consumer<LockDriver<?>> buried;
    private final Consumer<String> malformed;
    /**
     * How long a nominated name waits for a FREEZE before this node nominates it again: a safety net for a
     * nomination lost with a view change (the new steward starts with none). A FREEZE clears the wait, so a name
     * whose round did not commit is nominated again at the next sweep while it stays idle here.
     */
    private final long renominateNanos;
    private final SerialExecutor loop;
    private final ScheduledFuture<?> sweep;
    private final LongAdder reclaimed = new LongAdder();

    // Loop-confined.
    private Reclamation protocol;
    private View view;
    private final EpochInbox<ReclaimMessage> inbox = new EpochInbox<>(MAX_EARLY_MESSAGES, this::receive);
    /** The drivers this node froze by its votes, by lock name, until the round's decision. */
    private final Map<String, LockDriver<?>> frozen = new HashMap<>();

    /**
     * @param fencingFloor the node's floor, raised by every commit before the committed drivers are recreated
     * @param buried       told of every driver a commit buried (its counters join the node's totals)
     * @param malformed    told why a reclamation message could not be read
     */
    ReclaimDriver(Transport transport, String algorithm, LockRegistry registry, AtomicLong fencingFloor,
                  Duration idleExpiry, Executor pool, ScheduledExecutorService timers,
                  Consumer<LockDriver<?>> buried, Consumer<String> malformed) {
        this.transport = transport;
        this.algorithm = algorithm;
        this.registry = registry;
        this.fencingFloor = fencingFloor;
        this.buried = buried;
        this.malformed = malformed;
        this.renominateNanos = Math.min(RENOMINATE_AFTER_EXPIRIES * idleExpiry.toNanos(), MAX_RENOMINATE_NANOS);
        this.loop = new SerialExecutor(pool);
        // a quarter of the expiry, but at least once a second: the size bound makes locks idle at any time
        long period = Math.min(MAX_SWEEP_PERIOD_MS, Math.max(20, idleExpiry.toMillis() / 4));
        this.sweep = timers.scheduleWithFixedDelay(() -> loop.execute(this::nominateIdle), period, period,
                TimeUnit.MILLISECONDS);
    }

    /** Queues a view of the node. */
    void onView(View newView) {
        loop.execute(() -> {
            if (view != null && newView.epoch() <= view.epoch()) {
                return;
            }
            view = newView;
            if (protocol == null) {
                protocol = new Reclamation(transport.self(), newView, this); // known once the transport delivers a view
            } else {
                protocol.onView(newView);
            }
            inbox.install(newView.epoch(), newView::contains);
        });
    }

    /** Queues a reclamation message; {@code offset} is at its payload. */
    void deliver(NodeId from, long epoch, byte[] bytes, int offset) {
        loop.execute(() -> {
            ReclaimMessage message;
            try {
                WireReader in = new WireReader(bytes, offset, bytes.length - offset);
                message = CODEC.decode(in);
                in.expectEnd();
            } catch (MalformedMessageException e) {
                malformed.accept(e.getMessage());
                return;
            }
            receive(from, epoch, message);
        });
    }

    private void receive(NodeId from, long epoch, ReclaimMessage message) {
        if (inbox.offer(from, epoch, message) == EpochInbox.Verdict.DELIVER) {
            protocol.onMessage(from, message);
        }
    }

    void close() {
        sweep.cancel(false);
    }

    /** Locks whose state this node dropped in committed rounds. */
    long reclaimed() {
        return reclaimed.sum();
    }

    /**
     * Nominates the idle drivers that are not waiting for a round already: never nominated, or considered by a
     * round since (its FREEZE cleared the wait: a round that did not commit is retried), or nominated longer ago
     * than {@link #RENOMINATE_AFTER_EXPIRIES} expiries (at most 5 minutes). Without the wait, every node would send every idle name
     * again each expiry, and with 100 000 idle names the steward would do nothing but read nominations.
     */
    private void nominateIdle() {
        if (protocol == null) {
            return;
        }
        long now = System.nanoTime();
        List<String> names = new ArrayList<>();
        for (LockDriver<?> driver : registry.idleDrivers()) {
            if (names.size() >= MAX_NOMINATED_PER_SWEEP) {
                break;
            }
            LockPins pins = driver.pins();
            long last = pins.nominatedAt();
            if (!pins.buried() && !frozen.containsKey(driver.name()) && (last == 0 || now - last > renominateNanos)) {
                pins.nominated(now);
                names.add(driver.name());
            }
        }
        protocol.nominate(names);
    }

    // ---- Reclamation.Port (on the loop) ----

    @Override
    public void send(NodeId to, ReclaimMessage message) {
        WireWriter out = new WireWriter(64);
        new Envelope(Envelope.KIND_RECLAIM, algorithm, "", view.epoch()).writeTo(out);
        CODEC.encode(message, out);
        transport.send(to, out.toByteArray());
    }

    @Override
    public void freeze(RoundId round, List<String> names) {
        long epoch = view.epoch();
        LockVote[] votes = new LockVote[names.size()];
        LockDriver<?>[] voters = new LockDriver<?>[names.size()];
        AtomicInteger owed = new AtomicInteger(names.size());
        Runnable done = () -> loop.execute(() -> votesIn(round, votes, voters));
        for (int i = 0; i < votes.length; i++) {
            String name = names.get(i);
            VoteTarget target = registry.forVote(name);
            LockDriver<?> driver = target.driver();
            if (driver != null) {
                driver.pins().nominated(0); // a round considers it: this node may nominate it again if it stays idle
            }
            if (driver == null) {
                votes[i] = target == VoteTarget.RESERVED ? LockVote.absent(name) : LockVote.busy(name);
                if (owed.decrementAndGet() == 0) {
                    done.run();
                }
                continue;
            }
            int slot = i;
            voters[i] = driver;
            driver.vote(epoch, vote -> {
                votes[slot] = vote;
                if (owed.decrementAndGet() == 0) {
                    done.run();
                }
            });
        }
    }

    private void votesIn(RoundId round, LockVote[] votes, LockDriver<?>[] voters) {
        for (int i = 0; i < votes.length; i++) {
            if (votes[i].atRest() && voters[i] != null) {
                frozen.put(votes[i].name(), voters[i]);
            }
        }
        protocol.onLocalVotes(round, Arrays.asList(votes));
    }

    @Override
    public void commit(List<String> names, long floor) {
        fencingFloor.accumulateAndGet(floor, Math::max);
        for (String name : names) {
            LockDriver<?> driver = decided(name);
            if (driver != null) {
                reclaimed.increment();
                driver.commit(registry, buried);
            }
        }
        LOG.debug("node {}: reclaimed {} lock(s), fencing floor {}", transport.self(), names.size(), fencingFloor.get());
    }

    @Override
    public void thaw(List<String> names) {
        for (String name : names) {
            LockDriver<?> driver = decided(name);
            if (driver != null) {
                driver.thaw();
            }
        }
    }

    /** The frozen driver a decision applies to: the one that voted, or one created after an absent vote. */
    private LockDriver<?> decided(String name) {
        LockDriver<?> driver = frozen.remove(name);
        return driver != null ? driver : registry.unreserve(name);
    }
}
