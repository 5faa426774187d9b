package io.dlock.mutex.maekawa;

import static io.dlock.spi.CodecSupport.build;
import static io.dlock.spi.CodecSupport.unknownType;

import io.dlock.mutex.common.PeerState;
import io.dlock.mutex.maekawa.MaekawaMessage.Failed;
import io.dlock.mutex.maekawa.MaekawaMessage.Inquire;
import io.dlock.mutex.maekawa.MaekawaMessage.Locked;
import io.dlock.mutex.maekawa.MaekawaMessage.Relinquish;
import io.dlock.mutex.maekawa.MaekawaMessage.Release;
import io.dlock.mutex.maekawa.MaekawaMessage.Request;
import io.dlock.mutex.maekawa.MaekawaMessage.State;
import io.dlock.protocol.MessageCodec;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;

/**
 * Wire format of {@link MaekawaMessage}: one type byte, then the fields as unsigned varints (the
 * state as one byte, {@link PeerState#code()}).
 *
 * <pre>
 *   1 Request    timestamp
 *   2 Locked     timestamp grant fence
 *   3 Release    timestamp fence
 *   4 Failed     timestamp
 *   5 Inquire    timestamp grant
 *   6 Relinquish timestamp grant
 *   7 State      timestamp state fence
 * </pre>
 */
final class MaekawaCodec implements MessageCodec<MaekawaMessage> {

    static final int REQUEST = 1;
    static final int LOCKED = 2;
    static final int RELEASE = 3;
    static final int FAILED = 4;
    static final int INQUIRE = 5;
    static final int RELINQUISH = 6;
    static final int STATE = 7;

    @Override
    public void encode(MaekawaMessage message, WireWriter out) {
        if (message instanceof Request r) {
            out.writeByte(REQUEST).writeVarLong(r.timestamp());
        } else if (message instanceof Locked l) {
            out.writeByte(LOCKED).writeVarLong(l.timestamp()).writeVarLong(l.grant()).writeVarLong(l.fence());
        } else if (message instanceof Release r) {
            out.writeByte(RELEASE).writeVarLong(r.timestamp()).writeVarLong(r.fence());
        } else if (message instanceof Failed f) {
            out.writeByte(FAILED).writeVarLong(f.timestamp());
        } else if (message instanceof Inquire i) {
            out.writeByte(INQUIRE).writeVarLong(i.timestamp()).writeVarLong(i.grant());
        } else if (message instanceof Relinquish r) {
            out.writeByte(RELINQUISH).writeVarLong(r.timestamp()).writeVarLong(r.grant());
        } else if (message instanceof State s) {
            out.writeByte(STATE).writeVarLong(s.timestamp()).writeByte(s.state().code()).writeVarLong(s.fence());
        } else {
            throw new IllegalArgumentException("not a Maekawa message: " + message);
        }
    }

    @Override
    public MaekawaMessage decode(WireReader in) {
        int tag = in.readByte();
        String name = MaekawaDefinition.NAME;
        MaekawaMessage message;
        if (tag < REQUEST || tag > STATE) {
            throw unknownType(name, tag);
        }
        long ts = in.readVarLong();
        if (tag == REQUEST) {
            message = build(name, () -> new Request(ts));
        } else if (tag == LOCKED) {
            long grant = in.readVarLong();
            long fence = in.readVarLong();
            message = build(name, () -> new Locked(ts, grant, fence));
        } else if (tag == RELEASE) {
            long fence = in.readVarLong();
            message = build(name, () -> new Release(ts, fence));
        } else if (tag == FAILED) {
            message = build(name, () -> new Failed(ts));
        } else if (tag == INQUIRE) {
            long grant = in.readVarLong();
            message = build(name, () -> new Inquire(ts, grant));
        } else if (tag == RELINQUISH) {
            long grant = in.readVarLong();
            message = build(name, () -> new Relinquish(ts, grant));
        } else if (tag == STATE) {
            int state = in.readByte();
            long fence = in.readVarLong();
            message = build(name, () -> new State(ts, PeerState.ofCode(state), fence));
        } else {
            throw unknownType(name, tag);
        }
        in.expectEnd();
        return message;
    }
}
