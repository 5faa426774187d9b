package io.dlock.spi;

import io.dlock.NodeId;
import java.time.Duration;

/**
 * Moves opaque byte arrays between the members of one cluster and reports membership views. The
 * only thing that differs between dlock's in-memory network and JGroups.
 *
 * <h2>Obligations of an implementation</h2>
 * <ul>
 *   <li>{@link #send} and {@link #broadcast} never block on the network and never throw: a message
 *       that cannot be delivered (unknown member, closed channel, full buffer) is dropped, and the
 *       algorithms' own rules or the next view change deal with the loss.</li>
 *   <li>{@link Receiver#onMessage} and {@link Receiver#onView} may be called on any transport thread;
 *       the receiver returns quickly (it queues work, or runs a few steps of a lock's event loop).</li>
 *   <li>Views are delivered in increasing epoch order and every view contains {@link #self()}.</li>
 *   <li>{@link #fifo()} declares whether messages from one sender to one receiver arrive in the
 *       order they were sent. Algorithms that need FIFO (Lamport, Maekawa) refuse to start on a
 *       transport that does not declare it.</li>
 * </ul>
 */
public interface Transport extends AutoCloseable {

    /**
     * Joins the cluster. Before returning, the first view has been passed to {@code receiver}.
     *
     * @throws TransportException if the cluster cannot be joined
     */
    void start(Receiver receiver);

    /**
     * How long {@code LockService.start} may wait, after {@link #start} returned, until this node is in
     * a primary view (with {@code dlock.cluster.size}, until enough members have joined); then it fails
     * with a message that names the last view seen. JGroups: what is left of
     * {@code dlock.jgroups.join-timeout-ms} after the join. The default is 15 seconds.
     */
    default Duration primaryViewTimeout() {
        return Duration.ofSeconds(15);
    }

    /** This node's id; valid after {@link #start}. */
    NodeId self();

    /** The last view delivered to the receiver. */
    View view();

    /** Sends {@code payload} to {@code to}; a message to self is delivered like any other. */
    void send(NodeId to, byte[] payload);

    /**
     * Sends {@code payload} to every member of the current view except this node. The default sends
     * one unicast per member; a transport with a cheaper multicast may override it.
     */
    default void broadcast(byte[] payload) {
        NodeId self = self();
        for (NodeId member : view().members()) {
            if (!member.equals(self)) {
                send(member, payload);
            }
        }
    }

    /**
     * The runtime's evidence that this node's view is stale: the view is primary and has other members, but for
     * a while none of them has answered this node at all, which they do as long as their own view has it as a
     * member and they can reach it. So this node is cut off from all of them (failure detection would say so a
     * little later), or the others have excluded this node while it still believes itself a member (a group
     * membership service may not tell an excluded member, and traffic it still gets, such as acknowledgements
     * of its own messages, can keep its failure detector content). The transport should leave that view for
     * one of its own and rejoin the others, as after a partition. The default does nothing: a transport whose
     * members always learn of their exclusion needs nothing more.
     */
    default void viewLooksStale() {
    }

    /** Whether messages on each (sender, receiver) pair are delivered in send order. */
    boolean fifo();

    /** Leaves the cluster and releases its resources; idempotent, never throws. */
    @Override
    void close();

    /** Where a transport delivers what it receives. */
    interface Receiver {

        /** A message from {@code from}; the array is owned by the receiver from now on. */
        void onMessage(NodeId from, byte[] payload);

        /** A new membership view. */
        void onView(View view);
    }
}
