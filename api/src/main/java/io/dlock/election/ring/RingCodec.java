package io.dlock.election.ring;

import static io.dlock.spi.CodecSupport.build;
import static io.dlock.spi.CodecSupport.unknownType;

import io.dlock.election.ring.RingMessage.Ack;
import io.dlock.election.ring.RingMessage.Coordinator;
import io.dlock.election.ring.RingMessage.Election;
import io.dlock.protocol.MessageCodec;
import io.dlock.NodeId;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Wire format of {@link RingMessage}: one type byte, then the fields as unsigned varints; a list is
 * its length then its ids.
 *
 * <pre>
 *   1 Election     hop initiator count id...
 *   2 Coordinator  hop initiator count id...
 *   3 Ack          hop
 * </pre>
 */
final class RingCodec implements MessageCodec<RingMessage> {

    static final int ELECTION = 1;
    static final int COORDINATOR = 2;
    static final int ACK = 3;
    /** Most ids a list may carry on the wire. */
    static final int MAX_LIST = 1 << 16;

    @Override
    public void encode(RingMessage message, WireWriter out) {
        if (message instanceof Election e) {
            out.writeByte(ELECTION).writeVarLong(e.hop());
            writeList(out, e.initiator(), e.list());
        } else if (message instanceof Coordinator c) {
            out.writeByte(COORDINATOR).writeVarLong(c.hop());
            writeList(out, c.initiator(), c.list());
        } else if (message instanceof Ack a) {
            out.writeByte(ACK).writeVarLong(a.hop());
        } else {
            throw new IllegalArgumentException("not a ring message: " + message);
        }
    }

    @Override
    public RingMessage decode(WireReader in) {
        int tag = in.readByte();
        RingMessage message;
        if (tag == ELECTION || tag == COORDINATOR) {
            long hop = in.readVarLong();
            NodeId initiator = in.readNodeId();
            int count = in.readVarInt(MAX_LIST);
            List<NodeId> list = new ArrayList<>(Math.min(count, 1024));
            for (int i = 0; i < count; i++) {
                list.add(in.readNodeId());
            }
            message = tag == ELECTION
                    ? build(RingDefinition.NAME, () -> new Election(hop, initiator, list))
                    : build(RingDefinition.NAME, () -> new Coordinator(hop, initiator, list));
        } else if (tag == ACK) {
            long hop = in.readVarLong();
            message = build(RingDefinition.NAME, () -> new Ack(hop));
        } else {
            throw unknownType(RingDefinition.NAME, tag);
        }
        in.expectEnd();
        return message;
    }

    private static void writeList(WireWriter out, NodeId initiator, List<NodeId> list) {
        out.writeNodeId(initiator);
        out.writeVarLong(list.size());
        for (NodeId id : list) {
            out.writeNodeId(id);
        }
    }
}
