package io.dlock.election.peterson;

import static io.dlock.mutex.common.CodecSupport.unknownType;

import io.dlock.election.common.ElectionSupport;
import io.dlock.election.peterson.PetersonMessage.Elected;
import io.dlock.election.peterson.PetersonMessage.One;
import io.dlock.election.peterson.PetersonMessage.Two;
import io.dlock.protocol.MessageCodec;
import io.dlock.spi.NodeId;
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
            ElectionSupport.writeId(out, m.value());
        } else if (message instanceof Two m) {
            out.writeByte(TWO);
            ElectionSupport.writeId(out, m.value());
        } else if (message instanceof Elected m) {
            out.writeByte(ELECTED);
            ElectionSupport.writeId(out, m.leader());
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
        NodeId id = ElectionSupport.readId(PetersonDefinition.NAME, in);
        in.expectEnd();
        return tag == ONE ? new One(id) : tag == TWO ? new Two(id) : new Elected(id);
    }
}
