package io.dlock.mutex.tokenring;

import static io.dlock.spi.CodecSupport.build;

import io.dlock.mutex.common.CensusCodec;
import io.dlock.mutex.tokenring.TokenRingMessage.Census;
import io.dlock.mutex.tokenring.TokenRingMessage.Parked;
import io.dlock.mutex.tokenring.TokenRingMessage.Token;
import io.dlock.mutex.tokenring.TokenRingMessage.TokenAck;
import io.dlock.mutex.tokenring.TokenRingMessage.Wake;
import io.dlock.protocol.MessageCodec;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;

/**
 * Wire format of {@link TokenRingMessage}: one type byte, then unsigned varints.
 *
 * <pre>
 *   1 Token        epoch hop fence idle
 *   2 TokenAck     epoch hop
 *   3 Parked       epoch hop
 *   4 Wake         epoch
 *   60-63 census messages (see CensusCodec)
 * </pre>
 */
final class TokenRingCodec implements MessageCodec<TokenRingMessage> {

    static final int TOKEN = 1;
    static final int TOKEN_ACK = 2;
    static final int PARKED = 3;
    static final int WAKE = 4;

    @Override
    public void encode(TokenRingMessage message, WireWriter out) {
        if (message instanceof Token t) {
            out.writeByte(TOKEN).writeVarLong(t.epoch()).writeVarLong(t.hop()).writeVarLong(t.fence())
                    .writeVarLong(t.idle());
        } else if (message instanceof TokenAck a) {
            out.writeByte(TOKEN_ACK).writeVarLong(a.epoch()).writeVarLong(a.hop());
        } else if (message instanceof Parked p) {
            out.writeByte(PARKED).writeVarLong(p.epoch()).writeVarLong(p.hop());
        } else if (message instanceof Wake w) {
            out.writeByte(WAKE).writeVarLong(w.epoch());
        } else {
            CensusCodec.write(message, out, TokenRingDefinition.NAME);
        }
    }

    @Override
    public TokenRingMessage decode(WireReader in) {
        String name = TokenRingDefinition.NAME;
        int tag = in.readByte();
        TokenRingMessage message;
        if (tag == TOKEN) {
            long epoch = in.readVarLong();
            long hop = in.readVarLong();
            long fence = in.readVarLong();
            long idle = in.readVarLong();
            message = build(name, () -> new Token(epoch, hop, fence, idle));
        } else if (tag == TOKEN_ACK) {
            long epoch = in.readVarLong();
            long hop = in.readVarLong();
            message = build(name, () -> new TokenAck(epoch, hop));
        } else if (tag == PARKED) {
            long epoch = in.readVarLong();
            long hop = in.readVarLong();
            message = build(name, () -> new Parked(epoch, hop));
        } else if (tag == WAKE) {
            long epoch = in.readVarLong();
            message = build(name, () -> new Wake(epoch));
        } else {
            message = CensusCodec.read(tag, in, name, Census::new);
        }
        in.expectEnd();
        return message;
    }
}
