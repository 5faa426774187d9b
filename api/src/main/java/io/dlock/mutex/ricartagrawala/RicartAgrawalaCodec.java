package io.dlock.mutex.ricartagrawala;

import static io.dlock.spi.CodecSupport.build;
import static io.dlock.spi.CodecSupport.unknownType;

import io.dlock.mutex.ricartagrawala.RicartAgrawalaMessage.Reply;
import io.dlock.mutex.ricartagrawala.RicartAgrawalaMessage.Request;
import io.dlock.protocol.MessageCodec;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;

/**
 * Wire format of {@link RicartAgrawalaMessage}: one type byte, then the fields as unsigned varints.
 *
 * <pre>
 *   1 Request  timestamp
 *   2 Reply    requestTimestamp fence
 * </pre>
 */
final class RicartAgrawalaCodec implements MessageCodec<RicartAgrawalaMessage> {

    static final int REQUEST = 1;
    static final int REPLY = 2;

    @Override
    public void encode(RicartAgrawalaMessage message, WireWriter out) {
        if (message instanceof Request r) {
            out.writeByte(REQUEST).writeVarLong(r.timestamp());
        } else if (message instanceof Reply r) {
            out.writeByte(REPLY).writeVarLong(r.requestTimestamp()).writeVarLong(r.fence());
        } else {
            throw new IllegalArgumentException("not a Ricart-Agrawala message: " + message);
        }
    }

    @Override
    public RicartAgrawalaMessage decode(WireReader in) {
        int tag = in.readByte();
        RicartAgrawalaMessage message;
        if (tag == REQUEST) {
            long timestamp = in.readVarLong();
            message = build(RicartAgrawalaDefinition.NAME, () -> new Request(timestamp));
        } else if (tag == REPLY) {
            long requestTimestamp = in.readVarLong();
            long fence = in.readVarLong();
            message = build(RicartAgrawalaDefinition.NAME, () -> new Reply(requestTimestamp, fence));
        } else {
            throw unknownType(RicartAgrawalaDefinition.NAME, tag);
        }
        in.expectEnd();
        return message;
    }
}
