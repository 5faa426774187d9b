package io.dlock.protocol;

/** How a mutual-exclusion algorithm decides who may enter, the usual textbook classification. */
public enum ProtocolFamily {
    /** One coordinator grants permission. */
    CENTRAL,
    /** A requester needs permission from every other node. */
    PERMISSION,
    /** A requester needs permission from a quorum (a subset that intersects every other). */
    QUORUM,
    /** Whoever holds the unique token may enter. */
    TOKEN
}
