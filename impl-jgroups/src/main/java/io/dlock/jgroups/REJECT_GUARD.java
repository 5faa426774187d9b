package io.dlock.jgroups;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.Message;
import org.jgroups.View;
import org.jgroups.protocols.EncryptHeader;
import org.jgroups.protocols.SYM_ENCRYPT;
import org.jgroups.stack.Protocol;
import org.jgroups.util.MessageBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JGroups protocol placed directly below {@link SYM_ENCRYPT} in dlock's secure stack: drops messages
 * from non-members that are encrypted with another key (a node with the wrong key material trying to
 * join) and messages that are not encrypted at all (a node without the secure stack), counts them, and
 * logs at most one line per sender per minute. Without it, SYM_ENCRYPT logs an error for every such
 * message, and a rejected joiner retries its JOIN every second. SYM_ENCRYPT would drop the same
 * messages; this protocol only makes the dropping quiet and countable.
 *
 * <p>The name follows JGroups' convention for protocols (upper case), so that a stack file can name
 * it as {@code <io.dlock.jgroups.REJECT_GUARD/>}. It adds no header and changes nothing for members.
 */
public final class REJECT_GUARD extends Protocol {

    private static final Logger LOG = LoggerFactory.getLogger(REJECT_GUARD.class);
    private static final long LOG_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final LongAdder rejected = new LongAdder();
    private final Map<Address, Long> lastLogged = new ConcurrentHashMap<>();
    private volatile View view;
    private volatile SYM_ENCRYPT encrypt;

    /** The protocol; JGroups makes it when a stack names it. */
    public REJECT_GUARD() {
    }

    /** Messages dropped so far. */
    public long rejected() {
        return rejected.sum();
    }

    @Override
    public void start() throws Exception {
        super.start();
        encrypt = getProtocolStack().findProtocol(SYM_ENCRYPT.class);
    }

    @Override
    public Object up(Event evt) {
        if (evt.getType() == Event.VIEW_CHANGE) {
            view = evt.getArg();
        }
        return up_prot.up(evt);
    }

    @Override
    public Object down(Event evt) {
        if (evt.getType() == Event.VIEW_CHANGE) {
            view = evt.getArg();
        }
        return down_prot.down(evt);
    }

    @Override
    public Object up(Message msg) {
        if (isRejected(msg)) {
            reject(msg.getSrc());
            return null;
        }
        return up_prot.up(msg);
    }

    @Override
    public void up(MessageBatch batch) {
        batch.removeIf(msg -> {
            if (isRejected(msg)) {
                reject(msg.getSrc() != null ? msg.getSrc() : batch.sender());
                return true;
            }
            return false;
        }, true);
        if (!batch.isEmpty()) {
            up_prot.up(batch);
        }
    }

    private boolean isRejected(Message msg) {
        SYM_ENCRYPT enc = encrypt;
        if (enc == null) {
            return false;
        }
        EncryptHeader hdr = msg.getHeader(enc.getId());
        if (hdr == null) {
            return true; // not encrypted at all (a node without the secure stack): SYM_ENCRYPT would drop it too
        }
        if (hdr.version() == null || Arrays.equals(hdr.version(), enc.symVersion())) {
            return false;
        }
        View v = view;
        return v == null || msg.getSrc() == null || !v.containsMember(msg.getSrc());
    }

    private void reject(Address sender) {
        rejected.increment();
        long now = System.nanoTime();
        Address key = sender;
        if (key == null) {
            return;
        }
        if (lastLogged.size() > 1_000) {
            lastLogged.clear(); // bounded memory under a flood of fake senders
        }
        Long last = lastLogged.get(key);
        if (last == null || now - last >= LOG_INTERVAL_NANOS) {
            lastLogged.put(key, now);
            LOG.warn("dropped messages from {}, which does not encrypt with this cluster's key (wrong key material,"
                    + " or not the secure stack?); {} dropped so far, logged at most once a minute per sender", key,
                    rejected.sum());
        }
    }
}
