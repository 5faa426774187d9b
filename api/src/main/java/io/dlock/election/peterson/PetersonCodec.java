package io.dlock.election.peterson;

import static io.dlock.spi.CodecSupport.unknownType;

import io.dlock.election.peterson.PetersonMessage.Elected;
import io.dlock.election.peterson.PetersonMessage.One;
import io.dlock.election.peterson.PetersonMessage.Two;
import io.dlock.protocol.MessageCodec;
import io.dlock.NodeId;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;

/**
 * Wire format of {@link PetersonMessage}: one type byte, then the id as an unsigned varint.
 *
 * <pre>
 *   1 One      value
 *   2 Two      value
 *   3 Elected  leader
 * </pre>
 */
final class PetersonCodec implements MessageCodec<PetersonMessage> {

    static final int ONE = 1;
    static final int TWO = 2;
    static final int ELECTED = 3;

    @Override
    public void encode(PetersonMessage message, WireWriter out) {
        if (message instanceof One m) {
            out.writeByte(ONE);
            out.writeNodeId(m.value());
        } else if (message instanceof Two m) {
            out.writeByte(TWO);
            out.writeNodeId(m.value());
        } else if (message instanceof Elected m) {
            out.writeByte(ELECTED);
            out.writeNodeId(m.leader());
        } else {
            throw new IllegalArgumentException("not a Peterson message: " + message);
        }
    }

    @Override
    public PetersonMessage decode(WireReader in) {
        int tag = in.readByte();
        if (tag != ONE && tag != TWO && tag != ELECTED) {
            throw unknownType(PetersonDefinition.NAME, tag);
        }
        NodeId id = in.readNodeId();
        in.expectEnd();
        return tag == ONE ? new One(id) : tag == TWO ? new Two(id) : new Elected(id);
    }
}
