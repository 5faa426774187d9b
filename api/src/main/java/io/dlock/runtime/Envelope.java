package io.dlock.runtime;

import io.dlock.spi.MalformedMessageException;
import io.dlock.spi.WireReader;
import io.dlock.spi.WireWriter;

/**
 * The header dlock puts in front of every algorithm message on the wire, so one transport can carry
 * many locks and elections: a magic byte, the format version, the kind (lock or election), the
 * algorithm's configuration name (a node of another algorithm recognises a foreign message and
 * drops it), the lock or group name, and the sender's epoch. The algorithm's own bytes follow.
 *
 * @param kind      {@link #KIND_MUTEX}, {@link #KIND_ELECTION}, {@link #KIND_MEMBERSHIP}, {@link #KIND_CONDITION},
 *                  {@link #KIND_RECLAIM} or {@link #KIND_BUNDLE}
 * @param algorithm the sender's algorithm configuration name
 * @param name      the lock name or election group
 * @param epoch     the epoch of the sender's view when it sent the message
 */
public record Envelope(int kind, String algorithm, String name, long epoch) {

    /** First byte of every dlock message. */
    public static final int MAGIC = 0xD1;
    /** The wire format version this code writes and reads. */
    public static final int VERSION = 1;
    /** Kind of a mutual-exclusion message. */
    public static final int KIND_MUTEX = 1;
    /** Kind of a leader-election message. */
    public static final int KIND_ELECTION = 2;
    /** Kind of a membership message of the runtime itself (the clean-leave handshake, {@link CleanLeave}). */
    public static final int KIND_MEMBERSHIP = 3;
    /**
     * Kind of a message of a lock's condition ({@link io.dlock.condition.ConditionProtocol}); the algorithm
     * and name are the lock's, the payload starts with the condition's name.
     */
    public static final int KIND_CONDITION = 4;
    /**
     * Kind of a message of the node's reclamation round ({@link io.dlock.reclaim.Reclamation}); the algorithm is
     * the mutex algorithm's, the name is empty (a round carries many lock names).
     */
    public static final int KIND_RECLAIM = 5;
    /**
     * Kind of a bundle: several messages of one lock (its mutex's or its conditions') to one node, written by one
     * pass of the lock's event loop ({@link Outbox}). The algorithm and name are the lock's, the epoch is 0; the
     * payload is the number of messages, then each whole message (its own envelope and body) with its length in
     * front.
     */
    public static final int KIND_BUNDLE = 6;
    /**
     * Kind of a batch: several transport messages of one node to one node, of any kinds but a batch, written as one
     * while the node worked through many locks at once (a view change, a batch received: {@link BatchingTransport}).
     * The algorithm is the node's mutex algorithm, the name is empty, the epoch is 0; the payload is laid out as a
     * bundle's. The receiver routes each message in order, as if it had come alone.
     */
    public static final int KIND_BATCH = 7;

    /** Where the kind is in a message's bytes: after the magic byte and the version. */
    private static final int KIND_OFFSET = 2;

    /**
     * The kind of the whole message {@code payload}, read without decoding the header (a look on a hot path); -1 if
     * it is too short to have one. Not checked: {@link #readFrom} checks.
     */
    static int kindOf(byte[] payload) {
        return payload.length > KIND_OFFSET ? payload[KIND_OFFSET] : -1;
    }

    /** Writes this header; the payload is appended to {@code out} afterwards. */
    public void writeTo(WireWriter out) {
        out.writeByte(MAGIC).writeByte(VERSION).writeByte(kind).writeString(algorithm).writeString(name)
                .writeVarLong(epoch);
    }

    /**
     * Reads a header and leaves {@code in} at the first payload byte.
     *
     * @throws MalformedMessageException if the bytes are not a dlock message of this version
     */
    public static Envelope readFrom(WireReader in) {
        int magic = in.readByte();
        if (magic != MAGIC) {
            throw new MalformedMessageException("not a dlock message: first byte 0x" + Integer.toHexString(magic)
                    + ", expected 0x" + Integer.toHexString(MAGIC));
        }
        int version = in.readByte();
        if (version != VERSION) {
            throw new MalformedMessageException("dlock wire version " + version + " is not supported; this node speaks "
                    + VERSION);
        }
        int kind = in.readByte();
        if (kind < KIND_MUTEX || kind > KIND_BATCH) {
            throw new MalformedMessageException("unknown message kind " + kind + "; allowed: " + KIND_MUTEX + " to "
                    + KIND_BATCH);
        }
        return new Envelope(kind, in.readString(), in.readString(), in.readVarLong());
    }
}
