package io.dlock.inmemory.sim;

/**
 * Room for {@value #SIZE} message deliveries as primitive entries: the unit by which each
 * bucket of the {@link RingDeliveries} grows and shrinks, linked to the bucket's next block.
 *
 * <p>Layout: entry {@code i} is four longs at {@code 4i} of {@link #fields} (sequence number, sender and
 * receiver packed as {@code from << 32 | receiver}, the sender's epoch, the network message id) and two
 * references at {@code 2i} of {@link #refs} (the payload and its type's counters). Fixed-size blocks
 * rather than one growing array per bucket: a run at N = 512 puts some 10 000 deliveries in each bucket
 * of its first instants, and arrays doubled to that size in every bucket of every run were more memory
 * allocated and copied than the deliveries themselves; blocks emptied by one bucket are reused by the
 * next ({@link Spares}), so a run allocates about what it has in flight at its peak.
 */
final class DeliveryBlock {

    /** Deliveries per block. */
    static final int SIZE = 64;
    static final int LONGS = 4;
    static final int REFS = 2;

    final long[] fields = new long[LONGS * SIZE];
    final Object[] refs = new Object[REFS * SIZE];
    /** The bucket's next block, or (while spare) the next spare one. */
    DeliveryBlock next;

    /** The blocks one queue's buckets have emptied, kept for reuse (their references cleared). */
    static final class Spares {

        private DeliveryBlock first;

        /** A block to fill, reused if one is spare. */
        DeliveryBlock take() {
            DeliveryBlock block = first;
            if (block == null) {
                return new DeliveryBlock();
            }
            first = block.next;
            block.next = null;
            return block;
        }

        /** {@code block}, emptied, for {@link #take} to reuse. */
        void give(DeliveryBlock block) {
            block.next = first;
            first = block;
        }
    }
}
