package io.dlock.inmemory.sim;

/**
 * The message deliveries waiting in an {@link EventQueue}'s bucket ring: per bucket, a FIFO (in
 * sequence order) of primitive entries in a chain of {@link DeliveryBlock}s, not of {@link Event}
 * objects.
 *
 * <p>Why: with every node broadcasting at once, a run at N = 512 has about 260 000 deliveries in flight.
 * As pooled {@code Event} objects (about 90 bytes each, linked through {@link Event#next}) they were
 * 23 MB read in an order unrelated to their addresses: a cache miss or more per delivery just to find
 * the next event and read its fields. Here a delivery is 40 bytes read front to back, which the
 * processor streams; only its payload (shared by a broadcast's N - 1 deliveries) is a load from
 * elsewhere. A block goes back to the {@link DeliveryBlock.Spares} once its last entry is taken.
 *
 * <p>Layout: each bucket's state (first and last block, index of the first pending entry and the
 * number of entries in the last block) is in arrays indexed by bucket rather than in an object per
 * bucket: a short run wraps the ring several times, and 1 024 bucket objects per run, each one more
 * load before the entries, cost the small runs (N = 8) more than the deliveries did.
 */
final class RingDeliveries {

    private final DeliveryBlock.Spares spares = new DeliveryBlock.Spares();
    /** Per bucket, the block of its first pending entry, or null if it has none. */
    private final DeliveryBlock[] heads;
    private final int[] headIndex;
    /** Per bucket, its last block, or null if it has no entry. */
    private final DeliveryBlock[] tails;
    /** Per bucket, the entries used in its last block. */
    private final int[] tailIndex;

    RingDeliveries(int buckets) {
        heads = new DeliveryBlock[buckets];
        headIndex = new int[buckets];
        tails = new DeliveryBlock[buckets];
        tailIndex = new int[buckets];
    }

    /** Whether bucket {@code b} has no delivery. */
    boolean isEmpty(int b) {
        return heads[b] == null;
    }

    /** Appends a delivery to bucket {@code b}; {@code seq} must exceed every other there. */
    void add(int b, long seq, int from, int receiver, long epoch, long messageId, Object payload, MessageTypeStats type) {
        DeliveryBlock block = tails[b];
        int index = tailIndex[b];
        if (block == null) {
            block = spares.take();
            heads[b] = block;
            headIndex[b] = 0;
            tails[b] = block;
            index = 0;
        } else if (index == DeliveryBlock.SIZE) {
            DeliveryBlock last = block;
            block = spares.take();
            last.next = block;
            tails[b] = block;
            index = 0;
        }
        int i = index * DeliveryBlock.LONGS;
        long[] f = block.fields;
        f[i] = seq;
        f[i + 1] = (long) from << 32 | (receiver & 0xffffffffL);
        f[i + 2] = epoch;
        f[i + 3] = messageId;
        int r = index * DeliveryBlock.REFS;
        Object[] refs = block.refs;
        refs[r] = payload;
        refs[r + 1] = type;
        tailIndex[b] = index + 1;
    }

    /** The sequence number of bucket {@code b}'s first delivery; the bucket must have one. */
    long headSeq(int b) {
        return heads[b].fields[headIndex[b] * DeliveryBlock.LONGS];
    }

    /**
     * Takes bucket {@code b}'s first delivery into {@code event} (kind, receiver, sender, epoch, message
     * id, payload and type; not its time) and removes it; the bucket must have one.
     */
    void takeHead(int b, Event event) {
        DeliveryBlock block = heads[b];
        int index = headIndex[b];
        int i = index * DeliveryBlock.LONGS;
        long[] f = block.fields;
        long fromAndReceiver = f[i + 1];
        event.kind = Event.DELIVER;
        event.seq = f[i];
        event.from = (int) (fromAndReceiver >>> 32);
        event.node = (int) fromAndReceiver;
        event.epoch = f[i + 2];
        event.messageId = f[i + 3];
        int r = index * DeliveryBlock.REFS;
        Object[] refs = block.refs;
        event.message = refs[r];
        event.type = (MessageTypeStats) refs[r + 1];
        refs[r] = null;
        refs[r + 1] = null;
        index++;
        if (index == DeliveryBlock.SIZE || (index == tailIndex[b] && block == tails[b])) {
            leave(b, block, index);
        } else {
            headIndex[b] = index;
        }
    }

    /** Bucket {@code b}'s first block, {@code block}, has no entry left from {@code index} on: the next block (or none) comes first. */
    private void leave(int b, DeliveryBlock block, int index) {
        if (block == tails[b] && index == tailIndex[b]) {
            heads[b] = null;
            tails[b] = null;
        } else {
            heads[b] = block.next;
            headIndex[b] = 0;
        }
        spares.give(block);
    }
}
