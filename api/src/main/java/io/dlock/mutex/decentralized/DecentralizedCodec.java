package io.dlock.mutex.decentralized;

import static io.dlock.spi.CodecSupport.build;
import static io.dlock.spi.CodecSupport.unknownType;

import io.dlock.mutex.common.PeerState;
import io.dlock.mutex.decentralized.DecentralizedMessage.Deny;
import io.dlock.mutex.decentralized.DecentralizedMessage.Grant;
import io.dlock.mutex.decentralized.DecentralizedMessage.Release;
import io.dlock.mutex.decentralized.DecentralizedMessage.Request;
import io.dlock.mutex.decentralized.DecentralizedMessage.State;
import io.dlock.protocol.MessageCodec;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;

/**
 * Wire format of {@link DecentralizedMessage}: one type byte, then the fields as unsigned varints.
 *
 * <pre>
 *   1 Request attempt tries
 *   2 Grant   attempt fence
 *   3 Deny    attempt reserved (one byte, 0 or 1)
 *   4 Release attempt fence
 *   5 State   attempt state fence
 * </pre>
 */
final class DecentralizedCodec implements MessageCodec<DecentralizedMessage> {

    static final int REQUEST = 1;
    static final int GRANT = 2;
    static final int DENY = 3;
    static final int RELEASE = 4;
    static final int STATE = 5;

    @Override
    public void encode(DecentralizedMessage message, WireWriter out) {
        if (message instanceof Request r) {
            out.writeByte(REQUEST).writeVarLong(r.attempt()).writeVarLong(r.tries());
        } else if (message instanceof Grant g) {
            out.writeByte(GRANT).writeVarLong(g.attempt()).writeVarLong(g.fence());
        } else if (message instanceof Deny d) {
            out.writeByte(DENY).writeVarLong(d.attempt()).writeByte(d.reserved() ? 1 : 0);
        } else if (message instanceof Release r) {
            out.writeByte(RELEASE).writeVarLong(r.attempt()).writeVarLong(r.fence());
        } else if (message instanceof State s) {
            out.writeByte(STATE).writeVarLong(s.attempt()).writeByte(s.state().code()).writeVarLong(s.fence());
        } else {
            throw new IllegalArgumentException("not a decentralized message: " + message);
        }
    }

    @Override
    public DecentralizedMessage decode(WireReader in) {
        String name = DecentralizedDefinition.NAME;
        int tag = in.readByte();
        if (tag < REQUEST || tag > STATE) {
            throw unknownType(name, tag);
        }
        long attempt = in.readVarLong();
        DecentralizedMessage message;
        if (tag == REQUEST) {
            long tries = in.readVarLong();
            message = build(name, () -> new Request(attempt, (int) Math.min(tries, Integer.MAX_VALUE)));
        } else if (tag == GRANT) {
            long fence = in.readVarLong();
            message = build(name, () -> new Grant(attempt, fence));
        } else if (tag == DENY) {
            int reserved = in.readByte();
            message = build(name, () -> {
                if (reserved > 1) {
                    throw new IllegalArgumentException("DENY's reserved flag must be 0 or 1, got " + reserved);
                }
                return new Deny(attempt, reserved == 1);
            });
        } else if (tag == RELEASE) {
            long fence = in.readVarLong();
            message = build(name, () -> new Release(attempt, fence));
        } else {
            int state = in.readByte();
            long fence = in.readVarLong();
            message = build(name, () -> new State(attempt, PeerState.ofCode(state), fence));
        }
        in.expectEnd();
        return message;
    }
}
