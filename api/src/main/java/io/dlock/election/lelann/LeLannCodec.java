package io.dlock.election.lelann;

import static io.dlock.spi.CodecSupport.unknownType;

import io.dlock.election.lelann.LeLannMessage.Id;
import io.dlock.protocol.MessageCodec;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;

/**
 * Wire format of {@link LeLannMessage}: one type byte, then the id as an unsigned varint.
 *
 * <pre>
 *   1 Id  id
 * </pre>
 */
final class LeLannCodec implements MessageCodec<LeLannMessage> {

    static final int ID = 1;

    @Override
    public void encode(LeLannMessage message, WireWriter out) {
        if (message instanceof Id m) {
            out.writeByte(ID);
            out.writeNodeId(m.id());
        } else {
            throw new IllegalArgumentException("not a LeLann message: " + message);
        }
    }

    @Override
    public LeLannMessage decode(WireReader in) {
        int tag = in.readByte();
        if (tag != ID) {
            throw unknownType(LeLannDefinition.NAME, tag);
        }
        LeLannMessage message = new Id(in.readNodeId());
        in.expectEnd();
        return message;
    }
}
