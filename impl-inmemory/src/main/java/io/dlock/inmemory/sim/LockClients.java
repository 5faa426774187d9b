package io.dlock.inmemory.sim;

import io.dlock.NodeId;
import io.dlock.spi.View;

/**
 * The lock's users in a simulation that drives its nodes by their own logic rather than by a
 * {@link Workload}'s entry counts (a condition simulation's bounded buffer). The {@code Engine} tells
 * them every grant, release, crash, view and condition message of their node; they answer through the
 * engine's {@link Host}. Every node makes one request at its first think time; what follows is theirs.
 */
interface LockClients {

    /** Names of the clients' timers start with this; the engine hands such timers to the clients. */
    String TIMER_PREFIX = "client:";

    /** What the engine offers the clients. */
    interface Host {
        /** The virtual time of the event being processed. */
        long now();

        /** Whether the checker sees {@code node} hold the lock. */
        boolean holding(int node);

        /** The current view of {@code node}. */
        View view(int node);

        /** Schedules {@code node}'s release of the lock after a hold time drawn from the workload. */
        void scheduleRelease(int node);

        /** Schedules a lock request of {@code node}, after a think time if {@code think}, else now. */
        void scheduleRequest(int node, boolean think);

        /** {@code node} releases the lock now (the checker, the listener and the protocol are told). */
        void releaseNow(int node);

        /** {@code node}'s client is done (the run may stop when every node is done). */
        void finished(int node);

        /** Sends a condition message from {@code node} to {@code to}. */
        void send(int node, NodeId to, ConditionEnvelope message);

        /** Sets (or resets) {@code node}'s timer {@code name}, which must start with {@link #TIMER_PREFIX}. */
        void setTimer(int node, String name, long delay);

        /** Cancels {@code node}'s timer {@code name}. */
        void cancelTimer(int node, String name);
    }

    /** The run starts: the nodes are built, nothing has happened yet. */
    void start(Host host);

    /** {@code node} was granted the lock (a counted grant): it must release it in the end. */
    void granted(int node);

    /** {@code node} released the lock at the end of a hold scheduled by {@link Host#scheduleRelease}. */
    void released(int node);

    /** A condition message from {@code from} reached {@code to}. */
    void delivered(int from, int to, ConditionEnvelope envelope);

    /** {@code node}'s client timer {@code name} fired. */
    void timer(int node, String name);

    /** {@code node} installed {@code view}. */
    void viewInstalled(int node, View view);

    /** {@code node} crashed. */
    void crashed(int node);
}
