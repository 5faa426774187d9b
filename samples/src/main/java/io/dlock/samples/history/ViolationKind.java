package io.dlock.samples.history;

/**
 * What a violation in a {@link CheckReport} broke. Each violation line starts with its kind's label in brackets,
 * e.g. {@code [mutual exclusion] ...}.
 */
public enum ViolationKind {
    /** Rule 1: two holds certainly held at the same time, and the earlier-granted one neither lost nor crashed. */
    MUTUAL_EXCLUSION("mutual exclusion"),
    /** Rule 2: a hold that certainly ended before another was requested has a token that is not smaller. */
    TOKEN_ORDER("token order"),
    /** Rule 2: two distinct holds with the same token. */
    DUPLICATE_TOKEN("duplicate token"),
    /** Rule 3: a lost or duplicated update, a decreasing token in the store, a client write missing from it. */
    STORE("store"),
    /** A node's JVM recorded {@code startfail}. */
    FAILED_START("failed start"),
    /** A process recorded {@code error}: an unexpected exception. */
    ERROR("error"),
    /** A client's events out of sequence (e.g. {@code granted} without {@code acquire}): a recorder's bug. */
    MALFORMED_HISTORY("malformed history");

    private final String label;

    ViolationKind(String label) {
        this.label = label;
    }

    /** {@return the label that starts each violation line of this kind, without brackets} */
    public String label() {
        return label;
    }
}
