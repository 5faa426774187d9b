package io.dlock.runtime;

import io.dlock.DlockConfig;
import io.dlock.spi.MalformedMessageException;
import io.dlock.NodeId;
import io.dlock.spi.WireReader;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Routes each message the transport received to its handler by the kind in its {@link Envelope}: elections
 * ({@link ElectionRegistry}), membership (the epoch lease's {@link LeaseKeeper} and the {@link CleanLeave}
 * handshake, by type byte), reclamation ({@link ReclaimDriver}), and a lock's messages, conditions and bundles
 * (its {@link LockDriver}, pinned for the delivery, created if needed); a batch of another node's messages
 * ({@link BatchingTransport}), message by message. A message that is malformed, of
 * another algorithm or of a bad name is dropped and reported as foreign. Runs on the transport's receive
 * threads; thread-safe.
 */
final class MessageRouter {

    private final String mutexAlgorithm;
    private final int maxNameLength;
    private final ElectionRegistry elections;
    private final LeaseKeeper leases;
    private final CleanLeave cleanLeave;
    /** Null with {@code dlock.lock.idle-expiry-ms=0}. */
    private final ReclaimDriver reclaim;
    /** The driver of a lock name, created if needed, pinned; null if the node is closed. */
    private final Function<String, LockDriver<?>> pinIfOpen;
    /** Told of a dropped message, with why. */
    private final BiConsumer<NodeId, String> foreign;
    /** The node's transport: the answers to a batch's messages leave in batches too. */
    private final BatchingTransport batches;

    /**
     * @param reclaim   the reclamation driver, or null with reclamation off
     * @param pinIfOpen the driver of a lock name, created if needed and pinned (the router unpins it), or null
     *                  if the node is closed
     * @param foreign   told of each message dropped, with why
     * @param batches   the node's transport, which batches what the node sends while it routes a batch
     */
    MessageRouter(String mutexAlgorithm, int maxNameLength, ElectionRegistry elections, LeaseKeeper leases,
                  CleanLeave cleanLeave, ReclaimDriver reclaim, Function<String, LockDriver<?>> pinIfOpen,
                  BiConsumer<NodeId, String> foreign, BatchingTransport batches) {
        this.mutexAlgorithm = mutexAlgorithm;
        this.maxNameLength = maxNameLength;
        this.elections = elections;
        this.leases = leases;
        this.cleanLeave = cleanLeave;
        this.reclaim = reclaim;
        this.pinIfOpen = pinIfOpen;
        this.foreign = foreign;
        this.batches = batches;
    }

    void onMessage(NodeId from, byte[] payload) {
        route(from, payload, true);
    }

    private void route(NodeId from, byte[] payload, boolean batchAllowed) {
        WireReader in = new WireReader(payload);
        Envelope envelope;
        try {
            envelope = Envelope.readFrom(in);
        } catch (MalformedMessageException e) {
            foreign.accept(from, e.getMessage());
            return;
        }
        if (envelope.kind() == Envelope.KIND_BATCH) {
            if (batchAllowed) {
                onBatch(from, in);
            } else {
                foreign.accept(from, "a batch inside a batch; a batch carries single messages and bundles");
            }
            return;
        }
        if (envelope.kind() == Envelope.KIND_ELECTION) {
            elections.deliver(from, envelope, payload, in.position(), maxNameLength);
            return;
        }
        if (envelope.kind() == Envelope.KIND_MEMBERSHIP) {
            onMembershipMessage(from, envelope, in);
            return;
        }
        if (!envelope.algorithm().equals(mutexAlgorithm)) {
            foreign.accept(from, "lock '" + envelope.name() + "' uses algorithm " + envelope.algorithm()
                    + " there but " + mutexAlgorithm + " here");
            return;
        }
        if (envelope.kind() != Envelope.KIND_RECLAIM
                && (envelope.name().isEmpty() || envelope.name().length() > maxNameLength)) {
            foreign.accept(from, "bad lock name of length " + envelope.name().length());
            return;
        }
        if (envelope.kind() == Envelope.KIND_RECLAIM) {
            if (reclaim != null) {
                reclaim.deliver(from, envelope.epoch(), payload, in.position());
            } else {
                foreign.accept(from, "reclamation message, but " + DlockConfig.IDLE_EXPIRY_MS + "=0 here; set the same"
                        + " value on every node");
            }
            return;
        }
        onLockMessage(from, envelope, payload, in.position());
    }

    /**
     * A batch ({@link Envelope#KIND_BATCH}, {@code in} at the count of its messages): each message routed in order, as
     * if it had come alone, in a run of the node's transport, so that what they make this node send leaves in batches
     * too. A malformed batch is dropped whole.
     */
    private void onBatch(NodeId from, WireReader in) {
        List<byte[]> messages = new ArrayList<>();
        try {
            int count = in.readVarInt(BatchingTransport.MAX_MESSAGES);
            for (int i = 0; i < count; i++) {
                messages.add(in.readBytes(in.readVarInt(in.remaining())));
            }
            in.expectEnd();
        } catch (MalformedMessageException e) {
            foreign.accept(from, "malformed batch: " + e.getMessage());
            return;
        }
        batches.runBatched(() -> {
            for (byte[] message : messages) {
                route(from, message, false);
                batches.writeIfDue();
            }
        });
    }

    private void onMembershipMessage(NodeId from, Envelope envelope, WireReader in) {
        try {
            int type = in.readByte();
            if (LeaseKeeper.handles(type)) {
                leases.onMessage(from, envelope, type, in);
            } else if (CleanLeave.handles(type)) {
                cleanLeave.onMessage(from, envelope, type, in);
            } else {
                throw new MalformedMessageException("unknown membership message type " + type + "; allowed: "
                        + CleanLeave.LEAVING + ", " + CleanLeave.LEAVING_ACK + " (clean leave), " + LeaseKeeper.PROBE
                        + ", " + LeaseKeeper.PROBE_ACK + " (epoch lease)");
            }
        } catch (MalformedMessageException e) {
            foreign.accept(from, e.getMessage());
        }
    }

    private void onLockMessage(NodeId from, Envelope envelope, byte[] payload, int offset) {
        LockDriver<?> driver = pinIfOpen.apply(envelope.name());
        if (driver == null) {
            return; // closed meanwhile
        }
        try {
            if (envelope.kind() == Envelope.KIND_CONDITION) {
                driver.deliverCondition(from, envelope.epoch(), payload, offset);
            } else if (envelope.kind() == Envelope.KIND_BUNDLE) {
                driver.deliverBundle(from, payload, offset);
            } else {
                driver.deliver(from, envelope.epoch(), payload, offset);
            }
        } finally {
            driver.unpin();
        }
    }
}
