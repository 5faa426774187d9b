package io.dlock.inmemory.sim;

import io.dlock.protocol.MutexEffects;
import io.dlock.protocol.MutexProtocol;
import io.dlock.membership.PrimaryComponent;
import io.dlock.membership.PrimaryGate;
import io.dlock.protocol.ProtocolMessage;
import io.dlock.membership.EpochInbox;
import io.dlock.NodeId;
import io.dlock.spi.View;
import java.util.SplittableRandom;

/**
 * One simulated node: its protocol instance, the {@link MutexEffects} it was created with, its view
 * and epoch, its timers and its workload state. The effects only schedule events on the
 * {@link Engine}; nothing re-enters a protocol from inside one of its handlers.
 *
 * @param <M> the algorithm's message type
 */
final class SimNode<M extends ProtocolMessage> implements MutexEffects<M> {

    final int index;
    final NodeId id;
    final SplittableRandom workloadRandom;
    private final Engine<M> engine;

    /** The protocol behind its {@link PrimaryGate} (null until the node joins). */
    MutexProtocol<M> protocol;
    PrimaryGate<M> gate;
    /** This node's majority rule: the same class the runtime uses. */
    final PrimaryComponent primaryComponent = new PrimaryComponent();
    /**
     * This node's epoch rule, the same class the runtime's lock engines use: it decides which
     * arriving message is delivered. Its bound is 0 (a message of a newer epoch is dropped, not
     * held) because here it could never be delivered: every member of a view installs it in the same
     * event ({@code Engine.installViews}), so a newer epoch reaches only a node left out of that
     * view, and every later view it installs has a still newer epoch. Holding such messages would
     * change nothing but when (or, with no later view, whether) they are counted as stale.
     */
    final EpochInbox<M> inbox = new EpochInbox<>(0, SimNode::neverHeld);
    /** Whether the node is in the cluster (false for a joiner before its join). */
    boolean joined = true;
    View view;
    long epoch;
    /** Indices of the other members of {@link #view}, ascending: the broadcast targets. */
    int[] others;
    /** {@code inView[i]}: node {@code i} is a member of {@link #view} (O(1) where {@code View.contains} searches). */
    boolean[] inView;
    boolean crashed;
    /** Whether this node's workload is over (all entries released, or crashed). */
    boolean finished = true;
    /** Requests still to make. */
    long remaining;
    long requests;
    long entries;
    final Timers timers = new Timers();

    SimNode(Engine<M> engine, int index, NodeId id, SplittableRandom workloadRandom, int n) {
        this.engine = engine;
        this.index = index;
        this.id = id;
        this.workloadRandom = workloadRandom;
        this.inView = new boolean[n];
    }

    void install(View newView) {
        view = newView;
        epoch = newView.epoch();
        int[] targets = new int[newView.size() - (newView.contains(id) ? 1 : 0)];
        int k = 0;
        boolean[] members = new boolean[inView.length];
        for (NodeId member : newView.members()) {
            long m = member.value();
            if (m >= 0 && m < members.length) {
                members[(int) m] = true;
            }
            if (!member.equals(id)) {
                targets[k++] = (int) member.value();
            }
        }
        others = targets;
        inView = members;
        inbox.install(epoch, this::admits);
    }

    /** Whether {@code from} is a member of {@link #view}: its messages of this epoch are delivered. */
    private boolean admits(NodeId from) {
        return inView[(int) from.value()];
    }

    private static <M> void neverHeld(NodeId from, long epoch, M message) {
        throw new IllegalStateException("a simulated node holds no message of a newer epoch, yet " + message
                + " of epoch " + epoch + " from " + from + " was replayed");
    }

    @Override
    public void send(NodeId to, M message) {
        engine.send(this, to, message);
    }

    @Override
    public void broadcast(M message) {
        engine.broadcast(this, message);
    }

    @Override
    public void granted(long fencingToken) {
        engine.granted(this, fencingToken);
    }

    @Override
    public void setTimer(String name, long delayMillis) {
        engine.setTimer(this, name, delayMillis);
    }

    @Override
    public void cancelTimer(String name) {
        timers.cancel(name);
    }
}
