package io.dlock.mutex.centralized;

import static io.dlock.spi.CodecSupport.build;
import static io.dlock.spi.CodecSupport.unknownType;

import io.dlock.mutex.centralized.CentralizedMessage.ClientState;
import io.dlock.mutex.centralized.CentralizedMessage.Denied;
import io.dlock.mutex.centralized.CentralizedMessage.Grant;
import io.dlock.mutex.centralized.CentralizedMessage.Release;
import io.dlock.mutex.centralized.CentralizedMessage.Request;
import io.dlock.mutex.centralized.CentralizedMessage.Sync;
import io.dlock.mutex.centralized.CentralizedMessage.SyncQuery;
import io.dlock.protocol.MessageCodec;
import io.dlock.spi.MalformedMessageException;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;
import java.util.List;

/**
 * Wire format of {@link CentralizedMessage}: one type byte, then the fields as unsigned varints
 * (the client state as one byte: 0 idle, 1 waiting, 2 holding).
 *
 * <pre>
 *   1 Request  requestId
 *   2 Grant    requestId fence
 *   3 Denied   requestId
 *   4 Release  requestId
 *   5 Sync     requestId state maxFence
 *   6 SyncQuery
 * </pre>
 */
final class CentralizedCodec implements MessageCodec<CentralizedMessage> {

    static final int REQUEST = 1;
    static final int GRANT = 2;
    static final int DENIED = 3;
    static final int RELEASE = 4;
    static final int SYNC = 5;
    static final int SYNC_QUERY = 6;

    /** Wire code of each client state = its index here (fixed, independent of the enum's order). */
    private static final List<ClientState> STATES = List.of(ClientState.IDLE, ClientState.WAITING, ClientState.HOLDING);

    @Override
    public void encode(CentralizedMessage message, WireWriter out) {
        if (message instanceof Request r) {
            out.writeByte(REQUEST).writeVarLong(r.requestId());
        } else if (message instanceof Grant g) {
            out.writeByte(GRANT).writeVarLong(g.requestId()).writeVarLong(g.fence());
        } else if (message instanceof Denied d) {
            out.writeByte(DENIED).writeVarLong(d.requestId());
        } else if (message instanceof Release r) {
            out.writeByte(RELEASE).writeVarLong(r.requestId());
        } else if (message instanceof Sync s) {
            out.writeByte(SYNC).writeVarLong(s.requestId()).writeByte(STATES.indexOf(s.state())).writeVarLong(s.maxFence());
        } else if (message instanceof SyncQuery) {
            out.writeByte(SYNC_QUERY);
        } else {
            throw new IllegalArgumentException("not a centralized message: " + message);
        }
    }

    @Override
    public CentralizedMessage decode(WireReader in) {
        int tag = in.readByte();
        CentralizedMessage message;
        if (tag == REQUEST || tag == DENIED || tag == RELEASE) {
            long requestId = in.readVarLong();
            message = build(CentralizedDefinition.NAME, () -> tag == REQUEST ? new Request(requestId)
                    : tag == DENIED ? new Denied(requestId) : new Release(requestId));
        } else if (tag == GRANT) {
            long requestId = in.readVarLong();
            long fence = in.readVarLong();
            message = build(CentralizedDefinition.NAME, () -> new Grant(requestId, fence));
        } else if (tag == SYNC) {
            long requestId = in.readVarLong();
            int state = in.readByte();
            if (state >= STATES.size()) {
                throw new MalformedMessageException("unknown centralized client state " + state);
            }
            long maxFence = in.readVarLong();
            message = build(CentralizedDefinition.NAME, () -> new Sync(requestId, STATES.get(state), maxFence));
        } else if (tag == SYNC_QUERY) {
            message = new SyncQuery();
        } else {
            throw unknownType(CentralizedDefinition.NAME, tag);
        }
        in.expectEnd();
        return message;
    }
}
