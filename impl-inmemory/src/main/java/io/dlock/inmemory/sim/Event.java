package io.dlock.inmemory.sim;

/**
 * One scheduled event of a simulated run. Mutable and pooled by the {@link EventQueue} to keep the hot
 * path free of allocation: an event belongs to the engine from {@link Engine} scheduling it until it
 * has been processed, and is then cleared and reused.
 *
 * <p>A message delivery due within the queue's ring window is not an object while it waits: the queue
 * keeps it as a primitive {@link RingDeliveries} entry (the layout is explained there and in
 * {@link EventQueue}) and hands it out, when its turn comes, in one {@code Event} it reuses for every such
 * delivery.
 */
final class Event {

    /** A message arrives at {@link #node} from {@link #from}. */
    static final int DELIVER = 1;
    /** Timer {@link #timer} of {@link #node} fires (if generation {@link #generation} is still current). */
    static final int TIMER = 2;
    /** The workload of {@link #node} requests the critical section. */
    static final int REQUEST = 3;
    /** The workload of {@link #node} leaves the critical section. */
    static final int RELEASE = 4;
    /** {@link #node} crashes. */
    static final int CRASH = 5;
    /** View change number {@link #node} of the fault plan is installed. */
    static final int VIEW = 6;
    /** Election mode: {@link #node} initiates the election ({@link io.dlock.protocol.ElectionProtocol#onStart}). */
    static final int START = 7;
    /** Membership action number {@link #node} of the engine (join, role crash, split, merge, detection). */
    static final int MEMBERSHIP = 8;
    /** A {@link KeyedSimulation} step: {@link #message} is the {@link Runnable} to run. */
    static final int ACTION = 9;

    int kind;
    long time;
    int node;
    int from;
    long epoch;
    long generation;
    Object message;
    MessageTypeStats type;
    String timer;
    /** Network message id for a {@link SimulationListener} (0 for a self-message). */
    long messageId;
    /** Insertion sequence number, set by the {@link EventQueue}: the tie-break among events of one time. */
    long seq;
    /** The next event of the same time in an {@link EventQueue} bucket, or null. */
    Event next;

    void clear() {
        from = 0;
        message = null;
        type = null;
        timer = null;
        messageId = 0;
    }

    static String kindName(int kind) {
        switch (kind) {
            case DELIVER:
                return "deliver";
            case TIMER:
                return "timer";
            case REQUEST:
                return "request";
            case RELEASE:
                return "release";
            case CRASH:
                return "crash";
            case VIEW:
                return "view";
            case START:
                return "start";
            case MEMBERSHIP:
                return "membership";
            case ACTION:
                return "action";
            default:
                return "event" + kind;
        }
    }
}
