package io.dlock.election.bully;

import static io.dlock.spi.CodecSupport.unknownType;

import io.dlock.election.bully.BullyMessage.Coordinator;
import io.dlock.election.bully.BullyMessage.Election;
import io.dlock.election.bully.BullyMessage.Ok;
import io.dlock.protocol.MessageCodec;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;

/**
 * Wire format of {@link BullyMessage}: one type byte, then the fields as unsigned varints.
 *
 * <pre>
 *   1 Election
 *   2 Ok
 *   3 Coordinator leader
 * </pre>
 */
final class BullyCodec implements MessageCodec<BullyMessage> {

    static final int ELECTION = 1;
    static final int OK = 2;
    static final int COORDINATOR = 3;

    @Override
    public void encode(BullyMessage message, WireWriter out) {
        if (message instanceof Election) {
            out.writeByte(ELECTION);
        } else if (message instanceof Ok) {
            out.writeByte(OK);
        } else if (message instanceof Coordinator c) {
            out.writeByte(COORDINATOR);
            out.writeNodeId(c.leader());
        } else {
            throw new IllegalArgumentException("not a bully message: " + message);
        }
    }

    @Override
    public BullyMessage decode(WireReader in) {
        int tag = in.readByte();
        BullyMessage message;
        if (tag == ELECTION) {
            message = new Election();
        } else if (tag == OK) {
            message = new Ok();
        } else if (tag == COORDINATOR) {
            message = new Coordinator(in.readNodeId());
        } else {
            throw unknownType(BullyDefinition.NAME, tag);
        }
        in.expectEnd();
        return message;
    }
}
