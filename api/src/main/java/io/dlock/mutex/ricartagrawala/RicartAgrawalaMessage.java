package io.dlock.mutex.ricartagrawala;

import static io.dlock.spi.CodecSupport.requireAtLeast;

import io.dlock.protocol.ProtocolMessage;

/** The messages of {@link RicartAgrawala}. */
public sealed interface RicartAgrawalaMessage extends ProtocolMessage {

    /**
     * RA1: the sender asks every other member for permission.
     *
     * @param timestamp the request's Lamport timestamp, at least 1; with the sender's id it orders
     *                  the request against concurrent ones
     */
    record Request(long timestamp) implements RicartAgrawalaMessage {
        public Request {
            requireAtLeast("timestamp", timestamp, 1);
        }
    }

    /**
     * RA2/RA4: permission for one request (the source notes' "OK").
     *
     * @param requestTimestamp the timestamp of the request this answers, so that a duplicate or a
     *                         reply to an earlier request is recognised and ignored
     * @param fence            the highest fencing token the sender has seen (0 if none)
     */
    record Reply(long requestTimestamp, long fence) implements RicartAgrawalaMessage {
        public Reply {
            requireAtLeast("requestTimestamp", requestTimestamp, 1);
            requireAtLeast("fence", fence, 0);
        }
    }
}
