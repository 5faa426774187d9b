package io.dlock.mutex.maekawa;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.mutex.common.PeerState;
import io.dlock.protocol.ProtocolMessage;

/**
 * The messages of {@link Maekawa}. Every message names the request it concerns by the requester's
 * Lamport timestamp (the requester is the sender or the receiver), and the arbiter's messages name
 * the lock they concern by the arbiter's grant number, so that duplicated and late messages are
 * recognised and ignored.
 */
public sealed interface MaekawaMessage extends ProtocolMessage {

    /**
     * MA1: a requester asks an arbiter of its quorum.
     *
     * @param timestamp the request's Lamport timestamp, at least 1
     */
    record Request(long timestamp) implements MaekawaMessage {
        public Request {
            requireAtLeast("timestamp", timestamp, 1);
        }
    }

    /**
     * MA2/MA5: the arbiter locks itself for a request (the source notes' "ack").
     *
     * @param timestamp the request locked for
     * @param grant     the arbiter's grant number (increases with every lock it gives)
     * @param fence     the highest fencing token the arbiter has seen
     */
    record Locked(long timestamp, long grant, long fence) implements MaekawaMessage {
        public Locked {
            requireAtLeast("timestamp", timestamp, 1);
            requireAtLeast("grant", grant, 1);
            requireAtLeast("fence", fence, 0);
        }
    }

    /**
     * MA4: the requester left the critical section (or gives back a lock it no longer needs).
     *
     * @param timestamp the request whose lock is returned
     * @param fence     the highest fencing token the requester has seen (its own, after the CS)
     */
    record Release(long timestamp, long fence) implements MaekawaMessage {
        public Release {
            requireAtLeast("timestamp", timestamp, 1);
            requireAtLeast("fence", fence, 0);
        }
    }

    /**
     * Deadlock-free version: the request cannot win at this arbiter now (an earlier request holds or
     * waits for the lock).
     *
     * @param timestamp the request that failed
     */
    record Failed(long timestamp) implements MaekawaMessage {
        public Failed {
            requireAtLeast("timestamp", timestamp, 1);
        }
    }

    /**
     * Deadlock-free version: an earlier request arrived; the arbiter asks the request it is locked
     * for whether it can give the lock back.
     *
     * @param timestamp the request the arbiter is locked for
     * @param grant     the grant number of that lock
     */
    record Inquire(long timestamp, long grant) implements MaekawaMessage {
        public Inquire {
            requireAtLeast("timestamp", timestamp, 1);
            requireAtLeast("grant", grant, 1);
        }
    }

    /**
     * Deadlock-free version: the requester gives a lock back without having entered (the "yield").
     *
     * @param timestamp the request that gives the lock back
     * @param grant     the grant number of the lock given back
     */
    record Relinquish(long timestamp, long grant) implements MaekawaMessage {
        public Relinquish {
            requireAtLeast("timestamp", timestamp, 1);
            requireAtLeast("grant", grant, 1);
        }
    }

    /**
     * Epoch-barrier announcement after a view change or a start on first use (not in the source notes): what the
     * sender is doing, so that the arbiters rebuild their locks before granting in the new epoch.
     *
     * @param timestamp the current request (waiting or holding), or the last one if idle (0 if none)
     * @param state     the sender's state
     * @param fence     the highest fencing token the sender has seen
     */
    record State(long timestamp, PeerState state, long fence) implements MaekawaMessage {
        public State {
            requireAtLeast("timestamp", timestamp, 0);
            requireAtLeast("fence", fence, 0);
            if (state == null) {
                throw new IllegalArgumentException("state must not be null");
            }
            if (state != PeerState.IDLE && timestamp == 0) {
                throw new IllegalArgumentException("a " + state + " State needs a timestamp, got 0");
            }
        }
    }
}
