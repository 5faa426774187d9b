package io.dlock.mutex.suzukikasami;

import static io.dlock.spi.CodecSupport.build;

import io.dlock.mutex.common.CensusCodec;
import io.dlock.mutex.suzukikasami.SuzukiKasamiMessage.Census;
import io.dlock.mutex.suzukikasami.SuzukiKasamiMessage.Request;
import io.dlock.mutex.suzukikasami.SuzukiKasamiMessage.Token;
import io.dlock.protocol.MessageCodec;
import io.dlock.NodeId;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Wire format of {@link SuzukiKasamiMessage}: one type byte, then unsigned varints.
 *
 * <pre>
 *   1 Request  sn
 *   2 Token    epoch hop fence n (member last){n} q (member){q}     n, q at most 65536
 *   60-63 census messages (see CensusCodec)
 * </pre>
 */
final class SuzukiKasamiCodec implements MessageCodec<SuzukiKasamiMessage> {

    static final int REQUEST = 1;
    static final int TOKEN = 2;
    /** Most members a token may list (a sanity bound against garbage lengths). */
    static final int MAX_MEMBERS = 65_536;

    @Override
    public void encode(SuzukiKasamiMessage message, WireWriter out) {
        if (message instanceof Request r) {
            out.writeByte(REQUEST).writeVarLong(r.sn());
        } else if (message instanceof Token t) {
            out.writeByte(TOKEN).writeVarLong(t.epoch()).writeVarLong(t.hop()).writeVarLong(t.fence());
            out.writeVarLong(t.last().size());
            for (Map.Entry<NodeId, Long> e : t.last().entrySet()) {
                out.writeNodeId(e.getKey()).writeVarLong(e.getValue());
            }
            out.writeVarLong(t.queue().size());
            for (NodeId q : t.queue()) {
                out.writeNodeId(q);
            }
        } else {
            CensusCodec.write(message, out, SuzukiKasamiDefinition.NAME);
        }
    }

    @Override
    public SuzukiKasamiMessage decode(WireReader in) {
        String name = SuzukiKasamiDefinition.NAME;
        int tag = in.readByte();
        SuzukiKasamiMessage message;
        if (tag == REQUEST) {
            long sn = in.readVarLong();
            message = build(name, () -> new Request(sn));
        } else if (tag == TOKEN) {
            long epoch = in.readVarLong();
            long hop = in.readVarLong();
            long fence = in.readVarLong();
            int n = in.readVarInt(MAX_MEMBERS);
            Map<NodeId, Long> last = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                NodeId member = in.readNodeId();
                last.put(member, in.readVarLong());
            }
            int q = in.readVarInt(MAX_MEMBERS);
            List<NodeId> queue = new ArrayList<>(q);
            for (int i = 0; i < q; i++) {
                queue.add(in.readNodeId());
            }
            if (last.size() != n) {
                throw new io.dlock.spi.MalformedMessageException("suzuki-kasami token lists a member twice");
            }
            message = build(name, () -> new Token(epoch, hop, fence, last, queue));
        } else {
            message = CensusCodec.read(tag, in, name, Census::new);
        }
        in.expectEnd();
        return message;
    }
}
