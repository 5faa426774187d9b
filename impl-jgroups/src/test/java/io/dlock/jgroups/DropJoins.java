package io.dlock.jgroups;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.jgroups.Address;
import org.jgroups.Message;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.stack.Protocol;
import org.jgroups.stack.ProtocolStack;
import org.jgroups.util.MessageBatch;

/**
 * A test protocol put below GMS: drops every JOIN request (after those of the first {@code accept} joiners), so
 * that a member stays the coordinator that joiners find by discovery but never accepts them (the window between a
 * coordinator's discovery answer and its leaving, made as wide as a test needs). Tells {@code onJoin} the first
 * time each dropped joiner asks.
 */
final class DropJoins extends Protocol {

    private final Set<Address> joiners = ConcurrentHashMap.newKeySet();
    private final Set<Address> accepted = ConcurrentHashMap.newKeySet();
    private final int accept;
    private final Consumer<Address> onJoin;
    private volatile short gmsId;

    private DropJoins(int accept, Consumer<Address> onJoin) {
        this.accept = accept;
        this.onJoin = onJoin;
    }

    /** Puts a JOIN dropper below the GMS of {@code stack} (before the channel connects); it lets the first {@code accept} joiners in. */
    static DropJoins install(ProtocolStack stack, int accept, Consumer<Address> onJoin) throws Exception {
        DropJoins drop = new DropJoins(accept, onJoin);
        GMS gms = stack.findProtocol(GMS.class);
        drop.gmsId = gms.getId();
        stack.insertProtocol(drop, ProtocolStack.Position.BELOW, GMS.class);
        return drop;
    }

    /** The joiners whose JOIN requests were dropped. */
    Set<Address> joiners() {
        return Set.copyOf(joiners);
    }

    @Override
    public Object up(Message msg) {
        return isJoin(msg) ? null : up_prot.up(msg);
    }

    @Override
    public void up(MessageBatch batch) {
        batch.removeIf(this::isJoin, true);
        if (!batch.isEmpty()) {
            up_prot.up(batch);
        }
    }

    private synchronized boolean isJoin(Message msg) {
        GMS.GmsHeader hdr = msg.getHeader(gmsId);
        if (hdr == null || (hdr.getType() != GMS.GmsHeader.JOIN_REQ
                && hdr.getType() != GMS.GmsHeader.JOIN_REQ_WITH_STATE_TRANSFER)) {
            return false;
        }
        if (accepted.contains(hdr.getMember()) || accepted.size() < accept && accepted.add(hdr.getMember())) {
            return false;
        }
        if (joiners.add(hdr.getMember())) {
            onJoin.accept(hdr.getMember());
        }
        return true;
    }
}
