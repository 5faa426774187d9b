package io.dlock.samples.history;

/**
 * A {@code write <token> <value>} event: the fenced store accepted this client's write.
 *
 * @param process the client
 * @param at      nanoseconds since the history's first event
 * @param token   the fencing token the write carried
 * @param value   the counter value written
 */
record ClientWrite(String process, long at, long token, long value) {
}
