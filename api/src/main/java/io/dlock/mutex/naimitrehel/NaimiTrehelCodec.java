package io.dlock.mutex.naimitrehel;

import static io.dlock.spi.CodecSupport.build;

import io.dlock.mutex.common.CensusCodec;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.CandidateElected;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Census;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Consult;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.ConsultReply;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Election;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Query;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Request;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.Token;
import io.dlock.mutex.naimitrehel.NaimiTrehelMessage.TokenPresent;
import io.dlock.protocol.MessageCodec;
import io.dlock.NodeId;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;

/**
 * Wire format of {@link NaimiTrehelMessage}: one type byte, then the fields as unsigned varints.
 *
 * <pre>
 *   1 Request          origin seq
 *   2 Token            requestSeq fence hop generation
 *   3 Consult          seq
 *   4 ConsultReply     seq
 *   5 Query            seq
 *   6 TokenPresent     seq
 *   7 Election         seq
 *   8 CandidateElected generation
 *  60-63 census messages (see CensusCodec)
 * </pre>
 */
final class NaimiTrehelCodec implements MessageCodec<NaimiTrehelMessage> {

    static final int REQUEST = 1;
    static final int TOKEN = 2;
    static final int CONSULT = 3;
    static final int CONSULT_REPLY = 4;
    static final int QUERY = 5;
    static final int TOKEN_PRESENT = 6;
    static final int ELECTION = 7;
    static final int CANDIDATE_ELECTED = 8;

    @Override
    public void encode(NaimiTrehelMessage message, WireWriter out) {
        if (message instanceof Request r) {
            out.writeByte(REQUEST).writeNodeId(r.origin()).writeVarLong(r.seq());
        } else if (message instanceof Token t) {
            out.writeByte(TOKEN).writeVarLong(t.requestSeq()).writeVarLong(t.fence()).writeVarLong(t.hop())
                    .writeVarLong(t.generation());
        } else if (message instanceof Consult c) {
            out.writeByte(CONSULT).writeVarLong(c.seq());
        } else if (message instanceof ConsultReply c) {
            out.writeByte(CONSULT_REPLY).writeVarLong(c.seq());
        } else if (message instanceof Query q) {
            out.writeByte(QUERY).writeVarLong(q.seq());
        } else if (message instanceof TokenPresent p) {
            out.writeByte(TOKEN_PRESENT).writeVarLong(p.seq());
        } else if (message instanceof Election e) {
            out.writeByte(ELECTION).writeVarLong(e.seq());
        } else if (message instanceof CandidateElected c) {
            out.writeByte(CANDIDATE_ELECTED).writeVarLong(c.generation());
        } else {
            CensusCodec.write(message, out, NaimiTrehelDefinition.NAME);
        }
    }

    @Override
    public NaimiTrehelMessage decode(WireReader in) {
        int tag = in.readByte();
        String name = NaimiTrehelDefinition.NAME;
        NaimiTrehelMessage message;
        if (tag == REQUEST) {
            NodeId origin = in.readNodeId();
            long seq = in.readVarLong();
            message = build(name, () -> new Request(origin, seq));
        } else if (tag == TOKEN) {
            long requestSeq = in.readVarLong();
            long fence = in.readVarLong();
            long hop = in.readVarLong();
            long generation = in.readVarLong();
            message = build(name, () -> new Token(requestSeq, fence, hop, generation));
        } else if (tag >= CONSULT && tag <= CANDIDATE_ELECTED) {
            long v = in.readVarLong();
            message = build(name, () -> switch (tag) {
                case CONSULT -> new Consult(v);
                case CONSULT_REPLY -> new ConsultReply(v);
                case QUERY -> new Query(v);
                case TOKEN_PRESENT -> new TokenPresent(v);
                case ELECTION -> new Election(v);
                default -> new CandidateElected(v);
            });
        } else {
            message = CensusCodec.read(tag, in, name, Census::new);
        }
        in.expectEnd();
        return message;
    }
}
