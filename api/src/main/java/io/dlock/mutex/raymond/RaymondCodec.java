package io.dlock.mutex.raymond;

import static io.dlock.spi.CodecSupport.build;

import io.dlock.mutex.common.CensusCodec;
import io.dlock.mutex.raymond.RaymondMessage.Census;
import io.dlock.mutex.raymond.RaymondMessage.Privilege;
import io.dlock.mutex.raymond.RaymondMessage.Request;
import io.dlock.protocol.MessageCodec;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;

/**
 * Wire format of {@link RaymondMessage}: one type byte, then unsigned varints.
 *
 * <pre>
 *   1 Privilege    epoch hop fence
 *   2 Request      seq
 *   60-63 census messages (see CensusCodec)
 * </pre>
 */
final class RaymondCodec implements MessageCodec<RaymondMessage> {

    static final int PRIVILEGE = 1;
    static final int REQUEST = 2;

    @Override
    public void encode(RaymondMessage message, WireWriter out) {
        if (message instanceof Privilege t) {
            out.writeByte(PRIVILEGE).writeVarLong(t.epoch()).writeVarLong(t.hop()).writeVarLong(t.fence());
        } else if (message instanceof Request r) {
            out.writeByte(REQUEST).writeVarLong(r.seq());
        } else {
            CensusCodec.write(message, out, RaymondDefinition.NAME);
        }
    }

    @Override
    public RaymondMessage decode(WireReader in) {
        String name = RaymondDefinition.NAME;
        int tag = in.readByte();
        RaymondMessage message;
        if (tag == PRIVILEGE) {
            long epoch = in.readVarLong();
            long hop = in.readVarLong();
            long fence = in.readVarLong();
            message = build(name, () -> new Privilege(epoch, hop, fence));
        } else if (tag == REQUEST) {
            long seq = in.readVarLong();
            message = build(name, () -> new Request(seq));
        } else {
            message = CensusCodec.read(tag, in, name, Census::new);
        }
        in.expectEnd();
        return message;
    }
}
