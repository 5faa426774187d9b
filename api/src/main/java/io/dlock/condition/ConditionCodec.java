package io.dlock.condition;

import io.dlock.condition.ConditionMessage.Await;
import io.dlock.condition.ConditionMessage.Cancel;
import io.dlock.condition.ConditionMessage.Declined;
import io.dlock.condition.ConditionMessage.Registered;
import io.dlock.condition.ConditionMessage.Signal;
import io.dlock.condition.ConditionMessage.Wake;
import io.dlock.protocol.MessageCodec;
import io.dlock.spi.MalformedMessageException;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;

/**
 * Wire format of {@link ConditionMessage}: one type byte, then the waiter number as an unsigned varint
 * (Signal: one byte, 1 for signalAll).
 *
 * <pre>
 *   1 Await      waiter
 *   2 Registered waiter
 *   3 Cancel     waiter
 *   4 Signal     all
 *   5 Wake       waiter
 *   6 Declined   waiter
 * </pre>
 */
public final class ConditionCodec implements MessageCodec<ConditionMessage> {

    private static final int AWAIT = 1;
    private static final int REGISTERED = 2;
    private static final int CANCEL = 3;
    private static final int SIGNAL = 4;
    private static final int WAKE = 5;
    private static final int DECLINED = 6;

    @Override
    public void encode(ConditionMessage message, WireWriter out) {
        if (message instanceof Await a) {
            out.writeByte(AWAIT).writeVarLong(a.waiter());
        } else if (message instanceof Registered r) {
            out.writeByte(REGISTERED).writeVarLong(r.waiter());
        } else if (message instanceof Cancel c) {
            out.writeByte(CANCEL).writeVarLong(c.waiter());
        } else if (message instanceof Signal s) {
            out.writeByte(SIGNAL).writeBoolean(s.all());
        } else if (message instanceof Wake w) {
            out.writeByte(WAKE).writeVarLong(w.waiter());
        } else if (message instanceof Declined d) {
            out.writeByte(DECLINED).writeVarLong(d.waiter());
        } else {
            throw new IllegalArgumentException("not a condition message: " + message);
        }
    }

    @Override
    public ConditionMessage decode(WireReader in) {
        int tag = in.readByte();
        if (tag == SIGNAL) {
            return new Signal(in.readBoolean());
        }
        if (tag < AWAIT || tag > DECLINED) {
            throw new MalformedMessageException("unknown condition message type " + tag);
        }
        long waiter = in.readVarLong();
        try {
            return switch (tag) {
                case AWAIT -> new Await(waiter);
                case REGISTERED -> new Registered(waiter);
                case CANCEL -> new Cancel(waiter);
                case WAKE -> new Wake(waiter);
                default -> new Declined(waiter);
            };
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException("condition message type " + tag + ": " + e.getMessage());
        }
    }
}
