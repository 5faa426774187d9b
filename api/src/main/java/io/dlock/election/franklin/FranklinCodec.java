package io.dlock.election.franklin;

import static io.dlock.spi.CodecSupport.build;
import static io.dlock.spi.CodecSupport.unknownType;

import io.dlock.election.franklin.FranklinMessage.Elected;
import io.dlock.election.franklin.FranklinMessage.Probe;
import io.dlock.protocol.MessageCodec;
import io.dlock.NodeId;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;

/**
 * Wire format of {@link FranklinMessage}: one type byte, then the fields as unsigned varints and
 * booleans.
 *
 * <pre>
 *   1 Probe    id phase clockwise
 *   2 Elected  leader
 * </pre>
 */
final class FranklinCodec implements MessageCodec<FranklinMessage> {

    static final int PROBE = 1;
    static final int ELECTED = 2;

    @Override
    public void encode(FranklinMessage message, WireWriter out) {
        if (message instanceof Probe p) {
            out.writeByte(PROBE);
            out.writeNodeId(p.id());
            out.writeVarLong(p.phase()).writeBoolean(p.clockwise());
        } else if (message instanceof Elected e) {
            out.writeByte(ELECTED);
            out.writeNodeId(e.leader());
        } else {
            throw new IllegalArgumentException("not a Franklin message: " + message);
        }
    }

    @Override
    public FranklinMessage decode(WireReader in) {
        int tag = in.readByte();
        FranklinMessage message;
        if (tag == PROBE) {
            NodeId id = in.readNodeId();
            long phase = in.readVarLong();
            boolean clockwise = in.readBoolean();
            message = build(FranklinDefinition.NAME, () -> new Probe(id, phase, clockwise));
        } else if (tag == ELECTED) {
            message = new Elected(in.readNodeId());
        } else {
            throw unknownType(FranklinDefinition.NAME, tag);
        }
        in.expectEnd();
        return message;
    }
}
