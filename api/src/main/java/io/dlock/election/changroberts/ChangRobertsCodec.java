package io.dlock.election.changroberts;

import static io.dlock.spi.CodecSupport.unknownType;

import io.dlock.election.changroberts.ChangRobertsMessage.Elected;
import io.dlock.election.changroberts.ChangRobertsMessage.Election;
import io.dlock.protocol.MessageCodec;
import io.dlock.NodeId;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;

/**
 * Wire format of {@link ChangRobertsMessage}: one type byte, then the id as an unsigned varint.
 *
 * <pre>
 *   1 Election  id
 *   2 Elected   leader
 * </pre>
 */
final class ChangRobertsCodec implements MessageCodec<ChangRobertsMessage> {

    static final int ELECTION = 1;
    static final int ELECTED = 2;

    @Override
    public void encode(ChangRobertsMessage message, WireWriter out) {
        if (message instanceof Election e) {
            out.writeByte(ELECTION);
            out.writeNodeId(e.id());
        } else if (message instanceof Elected e) {
            out.writeByte(ELECTED);
            out.writeNodeId(e.leader());
        } else {
            throw new IllegalArgumentException("not a Chang-Roberts message: " + message);
        }
    }

    @Override
    public ChangRobertsMessage decode(WireReader in) {
        int tag = in.readByte();
        if (tag != ELECTION && tag != ELECTED) {
            throw unknownType(ChangRobertsDefinition.NAME, tag);
        }
        NodeId id = in.readNodeId();
        in.expectEnd();
        return tag == ELECTION ? new Election(id) : new Elected(id);
    }
}
