package io.dlock.samples.history;

/**
 * One write a fenced store accepted: the counter {@code value} written under fencing {@code token}. A history check
 * takes the store's entries in store order (the order the store accepted them), e.g. from {@link StoreFile#read}.
 *
 * @param token the fencing token the write carried
 * @param value the counter value written (the checker expects 1, 2, 3, ... in store order)
 */
public record StoreEntry(long token, long value) {
}
