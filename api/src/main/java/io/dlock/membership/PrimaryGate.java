package io.dlock.membership;

import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.MutexProtocol;
import io.dlock.protocol.MutexProtocolDefinition;
import io.dlock.protocol.ProtocolContext;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.protocol.ProtocolOptions;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Keeps one lock's {@link MutexProtocol} out of non-primary views ({@link PrimaryComponent}): the
 * wrapper every driver (the runtime's {@code LockDriver} and the simulator's nodes) puts around the
 * protocol it creates, so both run the same rule. The algorithm never sees a non-primary view.
 *
 * <h2>In a non-primary view (the node is <em>frozen</em>)</h2>
 * <ul>
 *   <li>the protocol gets no event at all, so nothing is granted and nothing is sent: requests
 *       ({@link #onRequest}) and leader notifications are kept and handed over after the next primary
 *       view; messages are dropped (they belong to the non-primary epoch) and so are timers;</li>
 *   <li>a node that is in the critical section when it freezes is <em>fenced out</em>: the primary
 *       side may rebuild the lock and grant it from its next view on. The local holder is not
 *       interrupted (nothing can stop a thread inside its critical section): its fencing token is
 *       older than every token the primary side grants after its view change, so a
 *       {@code FencedResource} refuses its late writes. Its {@link #onRelease}, when it comes, is
 *       swallowed.</li>
 * </ul>
 *
 * <h2>Back in a primary view (the partition heals: a merge view)</h2>
 * The primary side saw this node leave and forgot its requests and permissions; this node's
 * protocol state is from before the split (acknowledgements, a queue, maybe a token whose contents
 * the primary side has moved past). So the node rejoins <em>as a new member</em>: the gate drops
 * the old instance and creates a fresh one, not idle ({@code startsIdle = false}, as the runtime
 * creates a protocol on first use in a running cluster), in the last view the old one knew, and tells
 * it the primary view through {@link MutexProtocol#onView}: it learns the state of the lock from the
 * others through the algorithm's view-change rebuild (census, barrier, sync). A request that was outstanding is
 * made again on the new instance, then the kept requests and the last leader are handed over.
 * Timers the old instance had set are ignored when they fire. A node whose views were all primary
 * keeps its instance, which gets every view through {@link MutexProtocol#onView}.
 *
 * <p>Pure and single-threaded, like the protocol it wraps: call it only from the lock's event loop.
 *
 * @param <M> the algorithm's message type
 */
public final class PrimaryGate<M extends ProtocolMessage> implements MutexProtocol<M> {

    /*
     * Overview.
     *
     * State: inner (the current instance), frozen (the last view was not primary), requested (inner
     * got onRequest and no onRelease yet), inCS (inner granted and was not released: tracked through
     * the effects), swallowRelease (the application still holds a grant of a discarded instance),
     * deferredRequest (a request made while frozen), leader (the last onLeader), liveTimers (set by
     * the current instance, not fired or cancelled), staleTimers (set by a discarded instance).
     * Invariants: while frozen, inner receives no event; inner.onRequest/onRelease alternate as
     * MutexProtocol requires; a discarded instance receives nothing ever again.
     */

    /** Makes the protocol's instances and carries out their effects. */
    private final Host<M> host;
    private MutexProtocol<M> inner;
    /** The last view the current instance was created in or told about. */
    private View innerView;
    private boolean frozen;
    private boolean requested;
    private boolean inCS;
    private boolean swallowRelease;
    private boolean deferredRequest;
    private NodeId leader;
    private long leaderEpoch;
    /** Null while empty (made at the first timer, dropped with the last): every live lock has a gate. */
    private Set<String> liveTimers;
    /** Null while empty. */
    private Set<String> staleTimers;
    /** Counts of rare events (freezes, rejoins): ints, as every live lock has a gate; read as longs. */
    private int fencedOut;
    private int rejoins;
    private int droppedWhileFrozen;

    /**
     * What a driver gives its gate: the effects of the protocol's instances (sends, grants, timers), and a way to
     * make an instance. A lock's driver is its own host, so that a gate keeps one reference rather than what it
     * takes to make an instance (every live lock has a gate).
     *
     * @param <M> the algorithm's message type
     */
    public interface Host<M extends ProtocolMessage> extends MutexEffects<M> {

        /**
         * A new instance of the algorithm in {@code view}, with {@code effects} (the gate's, which pass everything
         * on to this host), fenced above the driver's fencing floor.
         *
         * @param startsIdle whether the instance may assume that no member holds or waits for the lock (see
         *                   {@link ProtocolContext#startsIdle()}); false for an instance made at a rejoin
         */
        MutexProtocol<M> newInstance(View view, MutexEffects<M> effects, boolean startsIdle);
    }

    private PrimaryGate(Host<M> host, View view, boolean startsIdle, boolean primary) {
        this.host = host;
        this.frozen = !primary;
        this.innerView = view;
        this.inner = host.newInstance(view, new TrackingEffects(), startsIdle);
    }

    /**
     * Creates {@code host}'s protocol in {@code view}, gated.
     *
     * @param startsIdle whether the first instance may assume that no member holds or waits for the lock
     * @param primary    whether {@code view} is primary for this node (a protocol created in a non-primary view
     *                   starts frozen)
     */
    public static <M extends ProtocolMessage> PrimaryGate<M> create(Host<M> host, View view, boolean startsIdle,
                                                                   boolean primary) {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(view, "view");
        return new PrimaryGate<>(host, view, startsIdle, primary);
    }

    /**
     * Creates {@code definition}'s protocol for {@code context}, gated: every instance (the first, and those of
     * rejoins) gets the context's node, options, fencing floor and lock name, and the context's effects.
     *
     * @param primary whether the view of {@code context} is primary for this node (a protocol created
     *                in a non-primary view starts frozen)
     */
    public static <M extends ProtocolMessage> PrimaryGate<M> create(MutexProtocolDefinition<M> definition,
                                                                   ProtocolContext<M> context, boolean primary) {
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(context, "context");
        return new PrimaryGate<>(new ContextHost<>(definition, context), context.view(), context.startsIdle(),
                primary);
    }

    /** Whether the last view was not primary: the protocol is held back. */
    public boolean frozen() {
        return frozen;
    }

    /** How many times a critical section was fenced out by a freeze. */
    public long fencedOut() {
        return fencedOut;
    }

    /** How many times the node came back from a non-primary period with a fresh instance. */
    public long rejoins() {
        return rejoins;
    }

    /** Messages dropped because they arrived while frozen. */
    public long droppedWhileFrozen() {
        return droppedWhileFrozen;
    }

    /** The current protocol instance (for tests and diagnostics). */
    public MutexProtocol<M> inner() {
        return inner;
    }

    /**
     * A new view and whether it is primary for this node ({@link PrimaryComponent#accept}). A primary
     * view reaches the protocol (a fresh instance after a frozen period); a non-primary one freezes it.
     */
    public void onView(View view, boolean primary) {
        if (!primary) {
            if (!frozen) {
                frozen = true;
                if (inCS) {
                    inCS = false; // fenced out: the primary side may grant from its next view on
                    swallowRelease = true;
                    fencedOut++;
                }
            }
            return;
        }
        if (!frozen) {
            innerView = view;
            inner.onView(view);
            return;
        }
        // back from a non-primary period: rejoin as a new member
        frozen = false;
        rejoins++;
        boolean again = (requested && !swallowRelease) || deferredRequest;
        requested = false;
        deferredRequest = false;
        if (liveTimers != null) {
            if (staleTimers == null) {
                staleTimers = liveTimers;
            } else {
                staleTimers.addAll(liveTimers);
            }
            liveTimers = null;
        }
        // created in the last view the old instance knew, then told the new view: exactly the runtime's
        // path of a protocol created lazily just before a view change, so the view change rebuilds
        // (a coordinator syncs, a steward counts, a barrier waits) as every other member expects
        inner = host.newInstance(innerView, new TrackingEffects(), false);
        innerView = view;
        inner.onView(view);
        if (leader != null) {
            inner.onLeader(leader, leaderEpoch);
        }
        if (again) {
            onRequest();
        }
    }

    /** A view known to be primary. */
    @Override
    public void onView(View view) {
        onView(view, true);
    }

    @Override
    public void onRequest() {
        if (frozen) {
            deferredRequest = true;
            return;
        }
        requested = true;
        inner.onRequest();
    }

    /** Never while frozen (outside the primary component nothing is granted); else the algorithm's answer. */
    @Override
    public boolean tryEnterLocally() {
        if (frozen || !inner.tryEnterLocally()) {
            return false;
        }
        requested = true;
        return true;
    }

    @Override
    public void onRelease() {
        if (swallowRelease) {
            swallowRelease = false; // the grant was of an instance fenced out by a freeze
            requested = false;
            return;
        }
        inCS = false;
        requested = false;
        inner.onRelease();
    }

    /**
     * At rest when the view is primary, no request or grant of this node is outstanding or swallowed, no
     * timer of the current instance is pending, and the algorithm says it is at rest.
     */
    @Override
    public boolean atRest() {
        return !frozen && !requested && !inCS && !swallowRelease && !deferredRequest
                && (liveTimers == null || liveTimers.isEmpty()) && inner.atRest();
    }

    @Override
    public long highestFence() {
        return inner.highestFence();
    }

    @Override
    public void onMessage(NodeId from, M message) {
        if (frozen) {
            droppedWhileFrozen++;
            return;
        }
        inner.onMessage(from, message);
    }

    @Override
    public void onLeader(NodeId newLeader, long epoch) {
        leader = newLeader;
        leaderEpoch = epoch;
        if (!frozen) {
            inner.onLeader(newLeader, epoch);
        }
    }

    @Override
    public void onTimer(String name) {
        if (staleTimers != null && staleTimers.contains(name)) {
            staleTimers = removed(staleTimers, name);
            return; // set by a discarded instance
        }
        liveTimers = removed(liveTimers, name);
        if (frozen) {
            return; // the instance will be discarded at the next primary view
        }
        inner.onTimer(name);
    }

    /** {@code timers} without {@code name}: the same set, or null once it is empty (every live lock has a gate). */
    private static Set<String> removed(Set<String> timers, String name) {
        if (timers == null) {
            return null;
        }
        timers.remove(name);
        return timers.isEmpty() ? null : timers;
    }

    @Override
    public String toString() {
        return "PrimaryGate[" + (frozen ? "frozen" : "primary") + (inCS ? ", in CS" : "")
                + (swallowRelease ? ", fenced out" : "") + ", " + inner + "]";
    }

    /** The driver's effects, watching grants and timers; one per instance. */
    private final class TrackingEffects implements MutexEffects<M> {

        @Override
        public void send(NodeId to, M message) {
            host.send(to, message);
        }

        @Override
        public void broadcast(M message) {
            host.broadcast(message);
        }

        @Override
        public void granted(long fencingToken) {
            inCS = true;
            host.granted(fencingToken);
        }

        @Override
        public void setTimer(String name, long delayMillis) {
            staleTimers = removed(staleTimers, name);
            if (liveTimers == null) {
                liveTimers = new HashSet<>(4);
            }
            liveTimers.add(name);
            host.setTimer(name, delayMillis);
        }

        @Override
        public void cancelTimer(String name) {
            liveTimers = removed(liveTimers, name);
            host.cancelTimer(name);
        }
    }

    /** The host of a gate made from a definition and a context: the context's effects, its settings for every instance. */
    private record ContextHost<M extends ProtocolMessage>(MutexProtocolDefinition<M> definition,
                                                          ProtocolContext<M> context) implements Host<M> {

        @Override
        public MutexProtocol<M> newInstance(View view, MutexEffects<M> effects, boolean startsIdle) {
            return definition.create(new ProtocolContext<>(context.self(), view, effects, context.options(), startsIdle,
                    context.fencingFloor(), context.lockName()));
        }

        @Override
        public void send(NodeId to, M message) {
            context.effects().send(to, message);
        }

        @Override
        public void broadcast(M message) {
            context.effects().broadcast(message);
        }

        @Override
        public void granted(long fencingToken) {
            context.effects().granted(fencingToken);
        }

        @Override
        public void setTimer(String name, long delayMillis) {
            context.effects().setTimer(name, delayMillis);
        }

        @Override
        public void cancelTimer(String name) {
            context.effects().cancelTimer(name);
        }
    }
}
