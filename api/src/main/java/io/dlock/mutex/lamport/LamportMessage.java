package io.dlock.mutex.lamport;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.protocol.ProtocolMessage;

/** The messages of {@link Lamport}. All are timestamped with the sender's logical clock. */
public sealed interface LamportMessage extends ProtocolMessage {

    /**
     * LA1: the sender's request, to be put in every member's queue.
     *
     * @param timestamp the request's Lamport timestamp, at least 1; with the sender's id it is the
     *                  request's place in the queue
     */
    record Request(long timestamp) implements LamportMessage {
        public Request {
            requireAtLeast("timestamp", timestamp, 1);
        }
    }

    /**
     * LA2: the sender has queued a request.
     *
     * @param requestTimestamp the timestamp of the request acknowledged, so that an ack of an
     *                         earlier request is recognised and ignored
     * @param timestamp        the sender's clock when it sent the ack
     * @param fence            the highest fencing token the sender has seen (0 if none)
     */
    record Ack(long requestTimestamp, long timestamp, long fence) implements LamportMessage {
        public Ack {
            requireAtLeast("requestTimestamp", requestTimestamp, 1);
            requireAtLeast("timestamp", timestamp, 1);
            requireAtLeast("fence", fence, 0);
        }
    }

    /**
     * LA4: the sender left the critical section; remove its request from the queue.
     *
     * @param requestTimestamp the timestamp of the request released
     * @param timestamp        the sender's clock when it sent the release
     * @param fence            the highest fencing token the sender has seen, at least its own
     */
    record Release(long requestTimestamp, long timestamp, long fence) implements LamportMessage {
        public Release {
            requireAtLeast("requestTimestamp", requestTimestamp, 1);
            requireAtLeast("timestamp", timestamp, 1);
            requireAtLeast("fence", fence, 0);
        }
    }
}
