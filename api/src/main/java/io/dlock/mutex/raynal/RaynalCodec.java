package io.dlock.mutex.raynal;

import static io.dlock.spi.CodecSupport.build;
import static io.dlock.spi.CodecSupport.unknownType;

import io.dlock.mutex.common.PeerState;
import io.dlock.mutex.raynal.RaynalMessage.Inform;
import io.dlock.mutex.raynal.RaynalMessage.Reply;
import io.dlock.mutex.raynal.RaynalMessage.Request;
import io.dlock.mutex.raynal.RaynalMessage.State;
import io.dlock.mutex.raynal.RaynalMessage.Wake;
import io.dlock.protocol.MessageCodec;
import io.dlock.spi.MalformedMessageException;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.util.Map;
import java.util.TreeMap;

/**
 * Wire format of {@link RaynalMessage}: one type byte, then the fields as varints. An X value is its
 * exponent vector: the number of non-zero exponents, then (rank, signed exponent) pairs, ascending
 * by rank (at most two pairs for any X the algorithm produces, so a few bytes whatever N is).
 *
 * <pre>
 *   1 Request attempt
 *   2 Reply   attempt x fence
 *   3 Inform  x pass fence hop idle hurry
 *   4 State   state fence
 *   5 Wake    hop
 * </pre>
 */
final class RaynalCodec implements MessageCodec<RaynalMessage> {

    static final int REQUEST = 1;
    static final int REPLY = 2;
    static final int INFORM = 3;
    static final int STATE = 4;
    static final int WAKE = 5;
    /** Most non-zero exponents accepted in one X (far above what the algorithm produces). */
    static final int MAX_TERMS = 1 << 16;

    @Override
    public void encode(RaynalMessage message, WireWriter out) {
        if (message instanceof Request r) {
            out.writeByte(REQUEST).writeVarLong(r.attempt());
        } else if (message instanceof Reply r) {
            out.writeByte(REPLY).writeVarLong(r.attempt());
            writeRatio(r.x(), out);
            out.writeVarLong(r.fence());
        } else if (message instanceof Inform i) {
            out.writeByte(INFORM);
            writeRatio(i.x(), out);
            out.writeVarLong(i.pass()).writeVarLong(i.fence()).writeVarLong(i.hop()).writeVarLong(i.idle())
                    .writeBoolean(i.hurry());
        } else if (message instanceof State s) {
            out.writeByte(STATE).writeByte(s.state().code()).writeVarLong(s.fence());
        } else if (message instanceof Wake w) {
            out.writeByte(WAKE).writeVarLong(w.hop());
        } else {
            throw new IllegalArgumentException("not a Raynal message: " + message);
        }
    }

    private static void writeRatio(PrimeRatio x, WireWriter out) {
        out.writeVarLong(x.size());
        for (int i = 0; i < x.size(); i++) {
            out.writeVarLong(x.rankAt(i)).writeSignedVarLong(x.exponentAt(i));
        }
    }

    private static PrimeRatio readRatio(WireReader in) {
        int terms = in.readVarInt(MAX_TERMS);
        Map<Integer, Long> exponents = new TreeMap<>();
        for (int i = 0; i < terms; i++) {
            int rank = in.readVarInt(Integer.MAX_VALUE);
            long exponent = in.readSignedVarLong();
            if (exponent == 0 || exponents.put(rank, exponent) != null) {
                throw new MalformedMessageException("bad raynal X: zero or repeated exponent of rank " + rank);
            }
        }
        return build(RaynalDefinition.NAME, () -> PrimeRatio.of(exponents));
    }

    @Override
    public RaynalMessage decode(WireReader in) {
        String name = RaynalDefinition.NAME;
        int tag = in.readByte();
        RaynalMessage message;
        if (tag == REQUEST) {
            long attempt = in.readVarLong();
            message = build(name, () -> new Request(attempt));
        } else if (tag == REPLY) {
            long attempt = in.readVarLong();
            PrimeRatio x = readRatio(in);
            long fence = in.readVarLong();
            message = build(name, () -> new Reply(attempt, x, fence));
        } else if (tag == INFORM) {
            PrimeRatio x = readRatio(in);
            long pass = in.readVarLong();
            long fence = in.readVarLong();
            long hop = in.readVarLong();
            long idle = in.readVarLong();
            boolean hurry = in.readBoolean();
            message = build(name, () -> new Inform(x, pass, fence, hop, idle, hurry));
        } else if (tag == STATE) {
            int state = in.readByte();
            long fence = in.readVarLong();
            message = build(name, () -> new State(PeerState.ofCode(state), fence));
        } else if (tag == WAKE) {
            long hop = in.readVarLong();
            message = build(name, () -> new Wake(hop));
        } else {
            throw unknownType(name, tag);
        }
        in.expectEnd();
        return message;
    }
}
