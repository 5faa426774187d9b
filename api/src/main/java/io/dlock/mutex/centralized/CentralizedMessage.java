package io.dlock.mutex.centralized;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.protocol.ProtocolMessage;

/**
 * The messages of {@link Centralized}. Every message names the client's request it concerns, by a
 * number the client increments for each request and never reuses.
 */
public sealed interface CentralizedMessage extends ProtocolMessage {

    /**
     * Rule 1: a client asks the coordinator for the lock.
     *
     * @param requestId the client's request number, at least 1
     */
    record Request(long requestId) implements CentralizedMessage {
        public Request {
            requireAtLeast("requestId", requestId, 1);
        }
    }

    /**
     * Rules 2 and 6: the coordinator grants a request (the source notes' "OK").
     *
     * @param requestId the request granted
     * @param fence     the fencing token of this grant, at least 1
     */
    record Grant(long requestId, long fence) implements CentralizedMessage {
        public Grant {
            requireAtLeast("requestId", requestId, 1);
            requireAtLeast("fence", fence, 1);
        }
    }

    /**
     * Rule 2, option {@code send-denied}: the request is queued (the source notes' "NG"); the client keeps
     * waiting and must not ask again.
     *
     * @param requestId the request queued
     */
    record Denied(long requestId) implements CentralizedMessage {
        public Denied {
            requireAtLeast("requestId", requestId, 1);
        }
    }

    /**
     * Rule 5: the client left the critical section.
     *
     * @param requestId the request whose grant is returned
     */
    record Release(long requestId) implements CentralizedMessage {
        public Release {
            requireAtLeast("requestId", requestId, 1);
        }
    }

    /**
     * The coordinator asks a client for its {@link Sync}: after a view change (the old epoch's
     * messages are lost), or when the coordinator starts without knowing its clients' state. Not part
     * of the source notes.
     */
    record SyncQuery() implements CentralizedMessage {
    }

    /**
     * A client's answer to {@link SyncQuery}: what it is doing, so that the coordinator can rebuild
     * its queue and its holder. Not part of the source notes.
     *
     * @param requestId the client's current request if it is waiting or holding; if it is idle, its
     *                  last request (all of its requests up to this one are released), 0 if none
     * @param state     the client's state
     * @param maxFence  the highest fencing token the sender has seen (as a client, or as the previous
     *                  coordinator), so that the coordinator's next token is larger
     */
    record Sync(long requestId, ClientState state, long maxFence) implements CentralizedMessage {
        public Sync {
            requireAtLeast("requestId", requestId, 0);
            requireAtLeast("maxFence", maxFence, 0);
            if (state == null) {
                throw new IllegalArgumentException("state must not be null");
            }
            if (state != ClientState.IDLE && requestId == 0) {
                throw new IllegalArgumentException("a " + state + " Sync needs a request id, got 0");
            }
        }
    }

    /** What a client is doing with respect to the lock (docs/algorithms.md A1: {@code IN_CS} is {@code HOLDING}). */
    enum ClientState {
        /** No request outstanding. */
        IDLE,
        /** Requested, not yet granted. */
        WAITING,
        /** Granted and not yet released: in the critical section. */
        HOLDING
    }
}
