package io.dlock.mutex.lamport;

import static io.dlock.spi.CodecSupport.build;
import static io.dlock.spi.CodecSupport.unknownType;

import io.dlock.mutex.lamport.LamportMessage.Ack;
import io.dlock.mutex.lamport.LamportMessage.Release;
import io.dlock.mutex.lamport.LamportMessage.Request;
import io.dlock.protocol.MessageCodec;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;

/**
 * Wire format of {@link LamportMessage}: one type byte, then the fields as unsigned varints.
 *
 * <pre>
 *   1 Request  timestamp
 *   2 Ack      requestTimestamp timestamp fence
 *   3 Release  requestTimestamp timestamp fence
 * </pre>
 */
final class LamportCodec implements MessageCodec<LamportMessage> {

    static final int REQUEST = 1;
    static final int ACK = 2;
    static final int RELEASE = 3;

    @Override
    public void encode(LamportMessage message, WireWriter out) {
        if (message instanceof Request r) {
            out.writeByte(REQUEST).writeVarLong(r.timestamp());
        } else if (message instanceof Ack a) {
            out.writeByte(ACK).writeVarLong(a.requestTimestamp()).writeVarLong(a.timestamp()).writeVarLong(a.fence());
        } else if (message instanceof Release r) {
            out.writeByte(RELEASE).writeVarLong(r.requestTimestamp()).writeVarLong(r.timestamp())
                    .writeVarLong(r.fence());
        } else {
            throw new IllegalArgumentException("not a Lamport message: " + message);
        }
    }

    @Override
    public LamportMessage decode(WireReader in) {
        int tag = in.readByte();
        LamportMessage message;
        if (tag == REQUEST) {
            long timestamp = in.readVarLong();
            message = build(LamportDefinition.NAME, () -> new Request(timestamp));
        } else if (tag == ACK || tag == RELEASE) {
            long requestTimestamp = in.readVarLong();
            long timestamp = in.readVarLong();
            long fence = in.readVarLong();
            message = build(LamportDefinition.NAME, () -> tag == ACK
                    ? new Ack(requestTimestamp, timestamp, fence)
                    : new Release(requestTimestamp, timestamp, fence));
        } else {
            throw unknownType(LamportDefinition.NAME, tag);
        }
        in.expectEnd();
        return message;
    }
}
