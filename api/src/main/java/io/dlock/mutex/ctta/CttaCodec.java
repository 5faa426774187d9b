package io.dlock.mutex.ctta;

import static io.dlock.spi.CodecSupport.build;

import io.dlock.mutex.common.CensusCodec;
import io.dlock.mutex.ctta.CttaMessage.Ack;
import io.dlock.mutex.ctta.CttaMessage.Census;
import io.dlock.mutex.ctta.CttaMessage.CrReq;
import io.dlock.mutex.ctta.CttaMessage.Jdcg;
import io.dlock.mutex.ctta.CttaMessage.Nack;
import io.dlock.mutex.ctta.CttaMessage.Partition;
import io.dlock.mutex.ctta.CttaMessage.Token;
import io.dlock.protocol.MessageCodec;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Wire format of {@link CttaMessage}: one type byte, then the fields as unsigned varints (the HR
 * array as its length then its entries).
 *
 * <pre>
 *   1 CrReq  n
 *   2 Token  length HR[0..length-1] TG fence hop
 *   3 Jdcg   g n
 *   4 Ack    g hr fence
 *   5 Nack   g
 *   6 Partition (no field)
 *  60-63 census messages (see CensusCodec)
 * </pre>
 */
final class CttaCodec implements MessageCodec<CttaMessage> {

    static final int CRREQ = 1;
    static final int TOKEN = 2;
    static final int JDCG = 3;
    static final int ACK = 4;
    static final int NACK = 5;
    static final int PARTITION = 6;

    /** Largest HR array accepted from the wire. */
    static final int MAX_SITES = 1 << 16;

    @Override
    public void encode(CttaMessage message, WireWriter out) {
        if (message instanceof CrReq r) {
            out.writeByte(CRREQ).writeVarLong(r.n());
        } else if (message instanceof Token t) {
            out.writeByte(TOKEN).writeVarLong(t.hr().size());
            for (long h : t.hr()) {
                out.writeVarLong(h);
            }
            out.writeVarLong(t.tg()).writeVarLong(t.fence()).writeVarLong(t.hop());
        } else if (message instanceof Jdcg d) {
            out.writeByte(JDCG).writeVarLong(d.g()).writeVarLong(d.n());
        } else if (message instanceof Ack a) {
            out.writeByte(ACK).writeVarLong(a.g()).writeVarLong(a.hr()).writeVarLong(a.fence());
        } else if (message instanceof Nack k) {
            out.writeByte(NACK).writeVarLong(k.g());
        } else if (message instanceof Partition) {
            out.writeByte(PARTITION);
        } else {
            CensusCodec.write(message, out, CttaDefinition.NAME);
        }
    }

    @Override
    public CttaMessage decode(WireReader in) {
        int tag = in.readByte();
        String name = CttaDefinition.NAME;
        CttaMessage message;
        if (tag == CRREQ) {
            long n = in.readVarLong();
            message = build(name, () -> new CrReq(n));
        } else if (tag == TOKEN) {
            int length = in.readVarInt(MAX_SITES);
            List<Long> hr = new ArrayList<>(length);
            for (int k = 0; k < length; k++) {
                hr.add(in.readVarLong());
            }
            long tg = in.readVarLong();
            long fence = in.readVarLong();
            long hop = in.readVarLong();
            message = build(name, () -> new Token(hr, tg, fence, hop));
        } else if (tag == JDCG) {
            long g = in.readVarLong();
            long n = in.readVarLong();
            message = build(name, () -> new Jdcg(g, n));
        } else if (tag == ACK) {
            long g = in.readVarLong();
            long hr = in.readVarLong();
            long fence = in.readVarLong();
            message = build(name, () -> new Ack(g, hr, fence));
        } else if (tag == NACK) {
            long g = in.readVarLong();
            message = build(name, () -> new Nack(g));
        } else if (tag == PARTITION) {
            message = new Partition();
        } else {
            message = CensusCodec.read(tag, in, name, Census::new);
        }
        in.expectEnd();
        return message;
    }
}
